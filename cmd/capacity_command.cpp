#include "cli.hpp"

#include <queueforge/engines/capacity.hpp>
#include <queueforge/frontend/discover.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

namespace queueforge::cli {

namespace {

struct CapacityFlags {
    std::string site = ".";
    std::string output = "text";
    std::string target;
    GateFlags gate;
};

// One site's tables (or JSON document, without its final newline when it is
// one of several).
int capacity_of(const CapacityFlags& f, const std::string& site, const std::string& label) {
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto r = capacity::load(site, {.target = f.target}, diags, sources);
    if (int rc = report(diags, sources, f.gate); rc != kOk) return rc;
    if (!r) return kInvalid;
    std::string out = f.output == "json" ? capacity::render_json(*r) : capacity::render_text(*r);
    if (!label.empty() && f.output == "json" && !out.empty() && out.back() == '\n') out.pop_back();
    std::cout << out;
    std::cout.flush();
    return std::cout.good() ? kOk : kInvalid;
}

int run_capacity(const CapacityFlags& f) {
    if (f.output != "text" && f.output != "json") {
        std::cerr << "queueforge capacity: unknown output format \"" << f.output << "\" (text, json)\n";
        return kUsage;
    }
    // Every site beneath the path, each on its own (discover.hpp).
    Diagnostics found;
    const auto clusters = discover::find_clusters({f.site}, {}, found);
    if (int rc = report(found, {}, f.gate); rc != kOk || clusters.empty()) return rc == kOk ? kInvalid : rc;
    std::vector<std::pair<std::string, std::string>> sites;  // label, site file
    for (const auto& c : clusters)
        if (!c.site_file.empty()) sites.emplace_back(c.label, c.site_file);
    if (sites.size() <= 1) return capacity_of(f, sites.empty() ? f.site : sites.front().second, "");
    // Several: "# site: clusters/prod" before each table; JSON wraps them in
    // {"sites": [{"site": ..., "capacity": ...}]}.
    int worst = kOk;
    if (f.output == "json") std::cout << "{\"sites\": [";
    for (std::size_t i = 0; i < sites.size(); ++i) {
        if (f.output == "json")
            std::cout << (i ? ", " : "") << "{\"site\": " << nlohmann::json(sites[i].first).dump() << ", \"capacity\": ";
        else std::cout << (i ? "\n" : "") << "# site: " << sites[i].first << "\n";
        const int rc = capacity_of(f, sites[i].second, sites[i].first);
        worst = std::max(worst, rc);
        if (f.output == "json") std::cout << (rc == kOk ? "}" : "null}");
    }
    if (f.output == "json") std::cout << "]}\n";
    std::cout.flush();
    return std::cout.good() ? worst : kInvalid;
}

}  // namespace

Command add_capacity(CLI::App& app) {
    auto flags = std::make_shared<CapacityFlags>();
    CLI::App* sub = app.add_subcommand(
        "capacity", "Physical capacity, quotas, guaranteed and burst amounts per pool, team and cohort");
    sub->add_option("site", flags->site, "Site file, or a folder: every site beneath it (default: .)");
    sub->add_option("-o,--output", flags->output, "Output format: text (aligned tables) or json");
    sub->add_option("--target", flags->target, "Override the site's target (e.g. rhoai-3.5, kueue-0.13)");
    add_gate_flags(*sub, flags->gate);
    sub->footer(R"(Per pool: nodes x allocatable against the sum of nominal quotas (commit ratio) and the
largest pod one node holds. Per team: nominal, limits, guaranteed (never lent: nominal -
lendingLimit), max burst (nominal + borrowingLimit, capped by what the cohort tree lends).
Per cohort: the tree and its totals. Computed from the compiled ClusterQueues and Cohorts.

A folder holding several sites prints each ("# site: clusters/prod" before its tables; -o json:
{"sites": [{"site", "capacity"}]}).

Examples:
  queueforge capacity examples/multi-team
  queueforge capacity queueforge-site.yaml -o json | jq '.pools[] | {name, resources}'
  queueforge capacity site.yaml --target rhoai-3.5

Exit codes: 0 ok, 1 invalid input or a finding at error level, 2 usage error or an unreadable path, 70 internal
error.)");
    return {sub, [flags] { return run_capacity(*flags); }};
}

}  // namespace queueforge::cli
