#include "cli.hpp"

#include <queueforge/engines/tenant.hpp>
#include <queueforge/frontend/discover.hpp>

#include <nlohmann/json.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct QueuesFlags {
    std::vector<std::string> paths;
    std::string namespace_;
    std::string output = "text";
    std::string target;
    GateFlags gate;
};

int run_queues(const QueuesFlags& f) {
    if (f.output != "text" && f.output != "json") {
        std::cerr << "queueforge queues: unknown output format \"" << f.output << "\" (text, json)\n";
        return kUsage;
    }
    // Every cluster beneath the paths on its own (discover.hpp): a namespace
    // of prod is not a namespace of staging.
    Diagnostics found;
    const auto clusters = discover::find_clusters(f.paths, {}, found);
    if (int rc = report(found, {}, f.gate); rc != kOk || clusters.empty()) return rc == kOk ? kInvalid : rc;
    std::vector<std::pair<std::string, tenant::Report>> reports;
    for (const auto& c : clusters) {
        Diagnostics diags;
        auto in = tenant::load(c.inputs, f.target, diags);
        std::vector<SourceText> sources = in ? in->sources : std::vector<SourceText>{};
        if (int rc = report(diags, sources, f.gate); rc != kOk) return rc;
        if (!in) return kInvalid;
        reports.emplace_back(clusters.size() > 1 ? c.label : std::string(), tenant::view(*in, f.namespace_));
    }
    bool usable = false;
    for (const auto& [label, r] : reports) usable = usable || r.any_usable();
    if (reports.size() == 1) {
        const auto& r = reports.front().second;
        std::cout << (f.output == "json" ? tenant::render_json(r) : tenant::render_text(r));
    } else if (f.output == "json") {
        // Several clusters: {"sites": [{"site": ..., "queues": ...}]}.
        nlohmann::ordered_json doc = {{"sites", nlohmann::ordered_json::array()}};
        for (const auto& [label, r] : reports)
            doc["sites"].push_back({{"site", label}, {"queues", nlohmann::ordered_json::parse(tenant::render_json(r))}});
        std::cout << doc.dump(2) << "\n";
    } else {
        for (std::size_t i = 0; i < reports.size(); ++i)
            std::cout << (i ? "\n" : "") << "# site: " << reports[i].first << "\n" << tenant::render_text(reports[i].second);
    }
    std::cout.flush();
    if (!std::cout.good()) return kInvalid;
    if (!usable) std::cerr << "queueforge queues: no usable queue in namespace " << f.namespace_ << "\n";
    return usable ? kOk : kInvalid;
}

}  // namespace

Command add_queues(CLI::App& app) {
    auto flags = std::make_shared<QueuesFlags>();
    CLI::App* sub = app.add_subcommand(
        "queues", "The tenant's view: the queues a namespace can submit to, their quota and the largest pod that fits");
    sub->add_option("paths", flags->paths, "Sites (files or folders) and manifests (default: .)");
    sub->add_option("-n,--namespace", flags->namespace_, "The namespace (project) to look from")->required();
    sub->add_option("-o,--output", flags->output, "Output format: text or json");
    sub->add_option("--target", flags->target, "Override the sites' target (e.g. rhoai-3.5, kueue-0.20)");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Lists every LocalQueue in the namespace and every HardwareProfile of type Queue the OpenShift AI
dashboard offers there (in the namespace or in redhat-ods-applications / opendatahub, naming a
LocalQueue that exists in the namespace), each with its ClusterQueue and cohort, why it cannot admit
anything when it cannot (stopped, namespaceSelector, missing ClusterQueue or flavor, cohort cycle,
disabled profile, missing priority class), and per flavor and resource the nominal, guaranteed and
maximum burst quota, the allocatable of the flavor's largest node (site pools or Node objects) and
the largest pod that fits: min(maximum burst, that node).

Examples:
  queueforge queues --namespace llm-train examples/rhoai-3
  queueforge queues -n search -o json examples/multi-team | jq '.queues[] | {name, usable}'
  kubectl get clusterqueues,localqueues,resourceflavors,nodes -A -o yaml | queueforge queues -n team-a -

Exit codes: 0 at least one usable queue, 1 none (or invalid input), 2 usage error or an unreadable
path, 70 internal error.)");
    return {sub, [flags] { return run_queues(*flags); }};
}

}  // namespace queueforge::cli
