#pragma once
// queueforge import --from runai: a Run:ai organisation (node pools,
// departments, projects with their namespaces and per-node-pool quota) → a
// site, a fidelity report of the migration, and each project's GPUs per pool
// under Run:ai's fair share (fairshare.hpp) and under Kueue's fair sharing for
// the generated site (the admission simulator), side by side.
//
// The export is what Run:ai's REST API returns (docs.nvidia.com/run-ai,
// reference/rest-api: GET /api/v1/node-pools, /api/v1/org-unit/departments,
// /api/v1/org-unit/projects), gathered in one YAML or JSON document or spread
// over several files:
//   nodePools:   [{name, labelKey, labelValue}]             (+ nodes, allocatable: see below)
//   departments: [{id, name, resources: [...]}]
//   projects:    [{id, name, parentId | parentName, requestedNamespace | status.namespace, resources: [...]}]
//   resources[]: {nodePool: {id, name}, gpu|cpu|memory: {deserved, limit, overQuotaWeight}, rank | priority}
// The previous API's spellings are read too (org/{org}/clusters/{cluster}/
// projects, ProjectV1 and DepartmentV1): nodePoolsResources for resources,
// maxAllowed for limit, departmentId | departmentName for the parent,
// namespace for the namespace, and the flat deservedGpus / maxAllowedGpus /
// gpuOverQuotaWeight of a project without node pools.
// Units follow the KAI scheduler's Queue (pkg/apis/scheduling/v2): GPUs in
// devices, CPU in millicores, memory in MiB (or memory.units: Mib, MB, GB).
// Node pools do not carry their size in Run:ai's API: `nodes` and
// `allocatable` (per node, as in a site's pool) are queueforge's addition,
// counted from `kubectl get nodes -l <labelKey>=<labelValue>`; without them a
// pool has no capacity and the before/after comparison leaves it out.
//
// Placement (runai.hpp's fields; site.cpp says what each becomes):
//   nodePools[].placementStrategy: {gpu, cpu}: binpack | spread (the previous
//     API and the KAI scheduler's SchedulingShard spec.placementStrategy,
//     pkg/apis/kai/v1/schedulingshard_types.go at the commit fairshare.hpp
//     names, both binpack by default), or schedulingConfiguration.
//     placementStrategy (the current API's NodepoolCreateRequest).
//   networkTopologies: [{id, name, levels}] (GET /api/v1/network-topologies:
//     name and the ordered node-label levels, highest first as in KAI's
//     Topology CRD; a level is a label key or {nodeLabel}); a node pool names
//     its topology by networkTopologyId (current API) or networkTopologyName.
//   nodePools[].topologyShape: the domains per parent at each level that is
//     not kubernetes.io/hostname, then the nodes per lowest domain (the site
//     pool's topology.shape) -- queueforge's addition like `nodes`, counted
//     from `kubectl get nodes -L <levels>`.
//   nodePools[].deviceClasses: the DRA DeviceClasses the pool's nodes offer
//     (names from `kubectl get deviceclasses`), queueforge's addition.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/mark.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::importer::runai {

inline constexpr double kUnlimited = -1;

struct Quota {  // one resource of one node pool
    double deserved = 0;
    double limit = kUnlimited;
    double weight = 1;       // overQuotaWeight
    bool weight_set = false;
    bool set = false;        // the entry names this resource
    Mark mark;
};

struct PoolResources {
    std::string pool;
    Mark mark;
    Quota gpu, cpu, memory;  // cpu in millicores, memory in MiB
    std::string rank;        // over-quota priority as written ("" = not set)
    int priority = 100;      // the KAI queue priority it stands for
};

struct NodePool {
    std::string name, label_key, label_value;
    std::optional<std::int64_t> nodes;
    std::vector<std::pair<std::string, std::string>> allocatable;  // per node
    double gpus_per_node = 0;
    // Placement strategy per resource as written, lowercased ("" = not set:
    // KAI's default binpack).
    std::string gpu_strategy, cpu_strategy;
    std::string topology;              // the network topology's name ("" = none)
    std::vector<std::int64_t> topology_shape;
    std::vector<std::string> device_classes;
    // The pool's other scheduler settings (schedulingConfiguration's keys
    // besides placementStrategy, and the KAI SchedulingShard's minRuntime,
    // kValue, queueDepthPerAction, args): key -> the value as written.
    std::vector<std::pair<std::string, std::string>> scheduler_options;
    std::string file;
    Mark mark;
};

struct NetworkTopology {
    std::string id, name;
    std::vector<std::string> levels;  // node labels, highest first
    std::string file;
    Mark mark;
};

struct OrgUnit {
    std::string id, name, parent;  // parent: the department's name (projects)
    std::vector<std::string> namespaces;
    // Workload time limits the project sets (ProjectV1: trainingJobTimeLimitSecs,
    // interactiveJobTimeLimitSecs), field name -> seconds.
    std::vector<std::pair<std::string, double>> time_limits;
    std::vector<PoolResources> resources;
    std::string file;
    Mark mark;
};

struct PriorityClass {
    std::string name;
    std::int64_t value = 0;
};

struct Organization {
    std::vector<NodePool> pools;
    std::vector<NetworkTopology> topologies;
    std::vector<OrgUnit> departments, projects;
    std::vector<PriorityClass> priority_classes;  // the export's, else KAI's defaults

    const NodePool* pool(const std::string& name) const;
    const NetworkTopology* topology(const std::string& name) const;
    const OrgUnit* department(const std::string& name) const;
};

// Reads and checks the export. Errors (positioned, naming the Run:ai object):
// unreadable files, duplicate node-pool names, projects without namespaces,
// unknown node pools or departments, limits below deserved, weights <= 0,
// fractional GPU deserved. nullopt when any error was found.
std::optional<Organization> read_organization(const std::vector<std::string>& paths, Diagnostics& diags,
                                              std::vector<SourceText>* sources = nullptr);
std::optional<Organization> read_organization_text(const std::string& path, const std::string& text,
                                                   Diagnostics& diags);

enum class WeightMode { Average, Split };

struct MigrationOptions {
    std::string target = "rhoai-3.5";
    std::string site_name = "runai";
    WeightMode weights = WeightMode::Average;
};

// One Run:ai setting and what became of it.
struct FidelityItem {
    std::string object;    // "project llm", "department research", "node pool a100", "organization"
    std::string setting;   // "gpu deserved (a100)", "over-quota weight", ...
    std::string runai;     // the value in Run:ai
    std::string kueue;     // how it is expressed ("" when it is not)
    std::string status;    // "exact", "approximated", "not expressible"
    std::string note;
};

struct Migration {
    Node site;
    std::vector<FidelityItem> fidelity;
    // Team name -> the Run:ai project it stands for (split mode makes one
    // team per project and node pool).
    std::map<std::string, std::string> team_project;
    std::map<std::string, std::string> team_pool;  // split teams only
};

std::optional<Migration> migrate(const Organization& org, const MigrationOptions& opts, Diagnostics& diags);

std::string render_site(const Migration& m);

// Builds the generated site as `path` (the file it is written to) and copies
// its errors as runai.site: false when the site does not build for the
// target (a target without Cohorts, an unsupported release).
bool check_site(const Migration& m, const std::string& path, Diagnostics& diags);

// GPUs each project asks for in each pool: (a) everything (every project asks
// for each pool's whole capacity in the pools its quota names), or (b) a
// scenario file: `demands: [{project, pool, gpus}]`.
struct Demand {
    std::string project, pool;
    double gpus = 0;
};
std::vector<Demand> demand_everything(const Organization& org);
std::optional<std::vector<Demand>> read_demands(const std::string& path, const Organization& org, Diagnostics& diags);

struct ComparisonRow {
    std::string project, department, pool;
    double demand = 0;
    double deserved = 0;
    double runai = 0;  // KAI fair share
    double kueue = 0;  // admitted by the simulator
};

struct Comparison {
    std::string scenario;  // "everyone asks for everything" or the file
    std::vector<ComparisonRow> rows;  // by pool, then project in export order
};

// Run:ai side: fair share per pool (departments, then projects). Kueue side:
// the generated site compiled and simulated with one 1-GPU Workload per
// demanded GPU, pinned to its pool by the pool's node labels.
std::optional<Comparison> compare(const Organization& org, const Migration& m, const MigrationOptions& opts,
                                  const std::vector<Demand>& demands, const std::string& scenario,
                                  Diagnostics& diags);

std::string render_report_text(const Migration& m, const std::vector<Comparison>& comparisons);
nlohmann::ordered_json render_report_json(const Migration& m, const std::vector<Comparison>& comparisons);
// The comparison as a Markdown table (README), and the whole report in
// Markdown: the fidelity table, then each comparison under its scenario.
std::string render_comparison_markdown(const Comparison& c);
std::string render_report_markdown(const Migration& m, const std::vector<Comparison>& comparisons);
// One self-contained HTML page (inline CSS, no scripts), input text escaped,
// differences highlighted.
std::string render_report_html(const Migration& m, const std::vector<Comparison>& comparisons);
// The same as one <section id="runai-migration"> with inline styles, for
// `queueforge report --runai EXPORT` (a section of the site's HTML report).
std::string render_report_section(const Migration& m, const std::vector<Comparison>& comparisons);

}  // namespace queueforge::importer::runai
