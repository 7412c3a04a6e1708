#include <queueforge/engines/scenarios.hpp>

#include "engines/scenarios/node_shape.hpp"

#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler_engine.hpp>

#include <map>
#include <set>

namespace queueforge::scenarios {

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

// One sample on the configured cluster: a fork of the compiled cluster plus
// the sample (and its namespace when the cluster has none of that name).
scheduler::Result simulate_alone(const std::vector<Resource>& base, const scheduler::Engine& base_engine, const Resource& sample,
                           const scheduler::Options& so) {
    Diagnostics quiet;
    if (base_engine.has_workload(sample.ref.namespace_, sample.ref.name)) {
        // A sample named like a running workload: the model keeps one of
        // the two (the first by file order), which a rebuild decides.
        std::vector<Resource> alone = base;
        alone.push_back(sample);
        add_missing_namespaces(alone);
        return scheduler::simulate(alone, so, quiet);
    }
    std::vector<Resource> extra{sample};
    add_missing_namespaces(extra);
    scheduler::Engine engine = base_engine.fork();
    engine.add_workloads(extra, quiet);
    return scheduler::simulate(engine, so, quiet);
}

}  // namespace

std::optional<Report> run(const Options& opts, Diagnostics& diags) {
    auto in = load_inputs(opts, diags);
    if (!in) return std::nullopt;
    return run(std::move(*in), opts, diags);
}

Report run(Inputs inputs, const Options& opts, Diagnostics& diags) {
    const Inputs* in = &inputs;
    Report report;
    report.sources = std::move(inputs.sources);
    const std::vector<Resource>& config = in->config;
    const std::vector<Sample>& samples = in->samples;

    // Together: everything at once, in creation order.
    std::vector<Resource> all = config;
    for (const auto& s : samples) all.push_back(s.workload);
    add_missing_namespaces(all);
    scheduler::Options so;
    so.max_cycles = opts.max_cycles;
    scheduler::Result together = scheduler::simulate(all, so, diags);
    report.cycles = together.cycles;
    report.cluster_queues = together.cluster_queues;
    report.topologies = together.topologies;

    std::map<std::string, const Sample*> sample_by_key;
    for (const auto& s : samples) sample_by_key[key(s.workload.ref.namespace_, s.workload.ref.name)] = &s;

    // Alone: the configured cluster and what already runs there, plus one
    // sample. The cluster is compiled once; each sample runs on a copy of
    // the compiled model (Engine::fork), not on a rebuild from the manifests.
    std::vector<Resource> base;
    for (const auto& r : config)
        if (r.ref.kind != "Workload" || holds_quota(r)) base.push_back(r);
    add_missing_namespaces(base);
    Diagnostics quiet;  // the together run already reported the inputs' problems
    const scheduler::Engine base_engine(base, quiet);
    for (const auto& w : together.workloads) {
        SampleReport sr;
        sr.together = w;
        auto it = sample_by_key.find(key(w.namespace_, w.name));
        if (it != sample_by_key.end()) {
            scheduler::Result r = simulate_alone(base, base_engine, it->second->workload, so);
            for (const auto& a : r.workloads)
                if (a.namespace_ == w.namespace_ && a.name == w.name) sr.alone = a;
            sr.expect = it->second->expect;
            check_expectation(sr);
            if (!sr.expectation_met) report.all_expectations_met = false;
            if (sr.never_fits()) report.some_never_admitted = true;
        }
        report.workloads.push_back(std::move(sr));
    }
    std::vector<const site::Site*> site_models;
    for (const auto& [s, file] : in->sites) site_models.push_back(&s);
    check_node_shapes(report, node_shapes(site_models, config));
    return report;
}

}  // namespace queueforge::scenarios
