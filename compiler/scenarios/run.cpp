#include <queueforge/sim_scenarios.hpp>

#include "scenarios/node_shape.hpp"

#include <queueforge/lower.hpp>
#include <queueforge/resource.hpp>
#include <queueforge/sim_workloads.hpp>
#include <queueforge/site_parse.hpp>
#include <queueforge/yaml_load.hpp>

#include <filesystem>
#include <map>
#include <set>

namespace queueforge::scenarios {

namespace fs = std::filesystem;

namespace {

std::string key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

bool holds_quota(const Resource& r) {
    const Node* status = r.doc.find("status");
    if (!status || !status->find("admission")) return false;
    const Node* conds = status->find("conditions");
    if (!conds || !conds->is_seq()) return false;
    for (const auto& c : conds->items()) {
        const Node* type = c.find("type");
        const Node* st = c.find("status");
        if (type && st && type->text() == "QuotaReserved" && st->text() == "True") return true;
    }
    return false;
}

// Namespaces as the API server keeps them: every Namespace carries the
// automatic kubernetes.io/metadata.name label (which ClusterQueue selectors
// written by queueforge match on), and the namespaces that workloads and
// LocalQueues use exist.
void add_missing_namespaces(std::vector<Resource>& objects) {
    std::set<std::string> have, used;
    for (auto& r : objects) {
        if (r.ref.kind == "Namespace") {
            have.insert(r.ref.name);
            Node* meta = r.doc.find("metadata");
            if (meta && meta->is_map()) {
                Node* labels = meta->find("labels");
                if (!labels || !labels->is_map()) labels = &meta->set("labels", Node::mapping());
                if (!labels->find("kubernetes.io/metadata.name"))
                    labels->set("kubernetes.io/metadata.name", Node::string(r.ref.name));
            }
        } else if ((r.ref.kind == "LocalQueue" || r.ref.kind == "Workload") && !r.ref.namespace_.empty()) {
            used.insert(r.ref.namespace_);
        }
    }
    for (const auto& ns : used) {
        if (have.count(ns)) continue;
        Resource r;
        r.file = "<implicit>";
        r.ref = {"v1", "Namespace", "", ns};
        r.doc = Node::mapping();
        r.doc.set("apiVersion", Node::string("v1"));
        r.doc.set("kind", Node::string("Namespace"));
        Node meta = Node::mapping();
        meta.set("name", Node::string(ns));
        Node labels = Node::mapping();
        labels.set("kubernetes.io/metadata.name", Node::string(ns));
        meta.set("labels", std::move(labels));
        r.doc.set("metadata", std::move(meta));
        objects.push_back(std::move(r));
    }
}

bool is_site_path(const std::string& p, std::string& site_file) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        if (fs::exists(fs::path(p) / "queueforge-site.yaml", ec)) {
            site_file = (fs::path(p) / "queueforge-site.yaml").string();
            return true;
        }
        return false;
    }
    return false;
}

Expectation expectation_of(const site::Expectation& e) {
    Expectation x;
    x.status = e.status.value;
    x.flavor = e.flavor.value;
    if (e.borrowing) x.borrowing = e.borrowing->value;
    return x;
}

void check_expectation(SampleReport& s) {
    if (!s.expect) return;
    const auto& e = *s.expect;
    const auto& w = s.together;
    std::string status = w.admitted ? "Admitted" : "Pending";
    std::vector<std::string> why;
    if (!e.status.empty() && e.status != status) why.push_back("status is " + status + ", expected " + e.status);
    if (!e.flavor.empty()) {
        std::set<std::string> flavors;
        for (const auto& a : w.assignments)
            for (const auto& [res, f] : a.flavors) flavors.insert(f);
        if (!w.admitted) why.push_back("not admitted, so on no flavor (expected " + e.flavor + ")");
        else if (flavors != std::set<std::string>{e.flavor}) {
            std::string got;
            for (const auto& f : flavors) got += (got.empty() ? "" : ", ") + f;
            why.push_back("admitted on " + got + ", expected " + e.flavor);
        }
    }
    if (e.borrowing && w.admitted && *e.borrowing != w.borrowing)
        why.push_back(std::string(w.borrowing ? "borrows" : "does not borrow") + ", expected the opposite");
    s.expectation_met = why.empty();
    for (const auto& y : why) s.expectation_detail += (s.expectation_detail.empty() ? "" : "; ") + y;
}

}  // namespace

std::optional<Report> run(const Options& opts, Diagnostics& diags) {
    Report report;
    std::vector<Resource> config;   // queue configuration, namespaces, running and pending Workloads
    std::vector<Resource> job_inputs;
    struct Sample {
        Resource workload;
        std::optional<Expectation> expect;
    };
    std::vector<Sample> samples;
    std::vector<std::pair<site::Site, std::string>> sites;

    for (const auto& p : opts.paths) {
        std::string site_file;
        if (is_site_path(p, site_file)) {
            std::string text;
            auto s = load_site_file(site_file, diags, &text);
            report.sources.push_back({site_file, text});
            if (s) sites.emplace_back(std::move(*s), site_file);
            continue;
        }
        Diagnostics local;
        LoadedResources in = load_resources({p}, local);
        diags.append(local);
        report.sources.insert(report.sources.end(), in.sources.begin(), in.sources.end());
        for (auto& r : in.resources) {
            if (r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/")) {
                if (auto s = parse_site(r.doc, r.file, diags)) sites.emplace_back(std::move(*s), r.file);
            } else if (jobs::is_job(r) || jobs::unsupported_job_reason(r)) {
                job_inputs.push_back(std::move(r));
            } else {
                config.push_back(std::move(r));
            }
        }
    }
    if (diags.has_errors()) return std::nullopt;

    for (auto& [s, file] : sites) {
        auto lowered = lower_site(s, diags, {.target_override = opts.target});
        if (!lowered) return std::nullopt;
        auto objects = jobs::resources_from_objects(lowered->objects, file);
        config.insert(config.end(), objects.begin(), objects.end());
    }
    auto ctx = jobs::cluster_context(config);
    for (auto& [s, file] : sites) {
        auto converted = jobs::workloads_from_site(s, fs::path(file).parent_path().string(), ctx, diags, report.sources);
        for (auto& c : converted) {
            Sample x{std::move(c.workload), std::nullopt};
            if (c.sample && c.sample->expect) x.expect = expectation_of(*c.sample->expect);
            samples.push_back(std::move(x));
        }
    }
    if (!job_inputs.empty()) {
        jobs::JobOptions jo;
        jo.fallback_epoch = "2026-01-01T12:00:00Z";
        for (auto& w : jobs::workloads_from_jobs(job_inputs, ctx, diags, jo)) samples.push_back({std::move(w), std::nullopt});
    }
    if (diags.has_errors()) return std::nullopt;

    // Together: everything at once, in creation order.
    std::vector<Resource> all = config;
    for (const auto& s : samples) all.push_back(s.workload);
    add_missing_namespaces(all);
    sim::Options so;
    so.max_cycles = opts.max_cycles;
    sim::Result together = sim::simulate(all, so, diags);
    report.cycles = together.cycles;
    report.cluster_queues = together.cluster_queues;

    std::map<std::string, const Sample*> sample_by_key;
    for (const auto& s : samples) sample_by_key[key(s.workload.ref.namespace_, s.workload.ref.name)] = &s;

    // Alone: the configured cluster and what already runs there, plus one sample.
    std::vector<Resource> base;
    for (const auto& r : config)
        if (r.ref.kind != "Workload" || holds_quota(r)) base.push_back(r);
    for (const auto& w : together.workloads) {
        SampleReport sr;
        sr.together = w;
        auto it = sample_by_key.find(key(w.namespace_, w.name));
        if (it != sample_by_key.end()) {
            std::vector<Resource> alone = base;
            alone.push_back(it->second->workload);
            add_missing_namespaces(alone);
            Diagnostics quiet;  // the together run already reported the inputs' problems
            sim::Result r = sim::simulate(alone, so, quiet);
            for (const auto& a : r.workloads)
                if (a.namespace_ == w.namespace_ && a.name == w.name) sr.alone = a;
            if (sr.alone && !sr.alone->admitted) report.some_never_admitted = true;
            sr.expect = it->second->expect;
            check_expectation(sr);
            if (!sr.expectation_met) report.all_expectations_met = false;
        }
        report.workloads.push_back(std::move(sr));
    }
    std::vector<const site::Site*> site_models;
    for (const auto& [s, file] : sites) site_models.push_back(&s);
    check_node_shapes(report, node_shapes(site_models, config));
    return report;
}

}  // namespace queueforge::scenarios
