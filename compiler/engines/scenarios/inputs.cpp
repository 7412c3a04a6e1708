// Reading what `simulate` is given: sites (compiled through the compiler),
// Kueue manifests, Workloads, job manifests (converted to the Workloads
// Kueue's integrations would create) and the site's sample workloads.
#include <queueforge/engines/scenarios.hpp>

#include <queueforge/lower.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/workloads.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/checks/validate.hpp>

#include <filesystem>
#include <set>

namespace queueforge::scenarios {

namespace fs = std::filesystem;

namespace {

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

// Objects whose values end up in simulated Workloads (their podSets,
// their priority): refused like the API server would, never wrapped.
bool feeds_workloads(const Resource& r) {
    const bool kueue = r.ref.api_version.starts_with("kueue.x-k8s.io/");
    return (kueue && (r.ref.kind == "Workload" || r.ref.kind == "WorkloadPriorityClass")) ||
           (r.ref.kind == "PriorityClass" && r.ref.api_version.starts_with("scheduling.k8s.io/"));
}

Expectation expectation_of(const site::Expectation& e) {
    Expectation x;
    x.status = e.status.value;
    x.flavor = e.flavor.value;
    if (e.borrowing) x.borrowing = e.borrowing->value;
    return x;
}

}  // namespace

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

std::optional<Inputs> load_inputs(const Options& opts, Diagnostics& diags) {
    Inputs report;
    std::vector<Resource>& config = report.config;
    std::vector<Resource> job_inputs;
    std::vector<Sample>& samples = report.samples;
    auto& sites = report.sites;
    // Job manifests and Workloads are checked as the API server would on
    // create before anything is simulated, with the schemas `validate` uses
    // (compiled once, when the first object needs them). A running
    // Workload's status is the cluster's, read as it is.
    std::optional<ObjectValidator> validator;
    Diagnostics schema_load;
    const workloads::ManifestCheck check = [&](const Resource& r, Diagnostics& d) {
        if (!validator) validator.emplace(std::vector<std::string>{}, schema_load);
        return validator->check(r, d, ObjectValidator::Missing::Skip, /*status=*/false);
    };

    for (const auto& p : opts.paths) {
        std::string site_file;
        if (is_site_path(p, site_file)) {
            std::string text;
            std::vector<SourceText> bases;
            auto s = load_site_file(site_file, diags, &text, &bases);
            report.sources.push_back({site_file, text});
            report.sources.insert(report.sources.end(), bases.begin(), bases.end());
            if (s) sites.emplace_back(std::move(*s), site_file);
            continue;
        }
        Diagnostics local;
        LoadedResources in = load_resources({p}, local);
        diags.append(local);
        report.sources.insert(report.sources.end(), in.sources.begin(), in.sources.end());
        for (auto& r : in.resources) {
            if (r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/")) {
                if (auto s = load_site_document(r.doc, r.file, diags, &report.sources)) sites.emplace_back(std::move(*s), r.file);
            } else if (workloads::is_job(r) || workloads::unsupported_job_reason(r)) {
                job_inputs.push_back(std::move(r));
            } else if (feeds_workloads(r)) {
                if (check(r, diags)) config.push_back(std::move(r));
            } else {
                config.push_back(std::move(r));
            }
        }
    }
    if (diags.has_errors()) return std::nullopt;

    for (auto& [s, file] : sites) {
        auto lowered = lower_site(s, diags, {.target_override = opts.target});
        if (!lowered) return std::nullopt;
        auto objects = workloads::resources_from_objects(lowered->objects, file);
        config.insert(config.end(), objects.begin(), objects.end());
    }
    auto ctx = workloads::cluster_context(config);
    for (auto& [s, file] : sites) {
        auto converted =
            workloads::workloads_from_site(s, fs::path(file).parent_path().string(), ctx, diags, report.sources, check);
        for (auto& c : converted) {
            Sample x{std::move(c.workload), std::nullopt};
            if (c.sample && c.sample->expect) x.expect = expectation_of(*c.sample->expect);
            samples.push_back(std::move(x));
        }
    }
    if (!job_inputs.empty()) {
        workloads::JobOptions jo;
        jo.fallback_epoch = "2026-01-01T12:00:00Z";
        jo.check = check;
        for (auto& w : workloads::workloads_from_jobs(job_inputs, ctx, diags, jo)) samples.push_back({std::move(w), std::nullopt});
    }
    diags.append(schema_load);  // problems in the built-in schemas themselves (none expected)
    if (diags.has_errors()) return std::nullopt;
    return report;
}

}  // namespace queueforge::scenarios
