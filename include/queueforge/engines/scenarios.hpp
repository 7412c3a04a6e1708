#pragma once
// `simulate` as users run it: a site and/or manifests in, sample workloads
// simulated together (in creation order: what is admitted, what waits, what
// preempts what) and each alone on the configured cluster with its running
// workloads (does it fit at all, and where), expectations checked.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/frontend/site.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::scenarios {

struct Expectation {
    std::string status;  // "Admitted" | "Pending" | "" (not set)
    std::string flavor;
    std::optional<bool> borrowing;
};

struct SampleReport {
    scheduler::WorkloadOutcome together;
    std::optional<scheduler::WorkloadOutcome> alone;  // samples only (site workloads and job manifests)
    std::optional<Expectation> expect;
    bool expectation_met = true;
    std::string expectation_detail;  // why not, when not met
    // Beyond Kueue: the admitted pod shape against the nodes of its flavor
    // (site pools or Node objects), for the together run and, prefixed
    // "alone: ", the alone run. Empty when it fits or nothing is known.
    std::string node_shape_problem;
    bool alone_node_shape = false;  // admitted alone, but its pods fit no node
    // Not admitted even alone, and not a sample declared `expect: {status:
    // Pending}` (one meant never to fit meets its expectation instead).
    bool never_fits() const {
        const bool meant_pending = expect && expect->status == "Pending" && expectation_met;
        return alone && !alone->admitted && !meant_pending;
    }
};

struct Report {
    int cycles = 0;
    std::vector<SampleReport> workloads;  // every workload of the together run, sorted by namespace/name
    std::vector<scheduler::ClusterQueueUsage> cluster_queues;
    std::vector<scheduler::TopologyOccupancy> topologies;  // TAS flavors: what the together run placed where
    std::vector<SourceText> sources;
    bool all_expectations_met = true;
    bool some_never_admitted = false;  // a sample that does not fit even alone
    bool node_shape_problems = false;  // some admitted pod (together or alone) fits no node of its flavor
};

struct Options {
    std::vector<std::string> paths;  // sites (files or folders with queueforge-site.yaml) and manifests
    std::string target;              // --target for sites
    int max_cycles = 0;
};

// What the paths hold, read and converted.
struct Sample {
    Resource workload;
    std::optional<Expectation> expect;
};
struct Inputs {
    std::vector<Resource> config;  // queue configuration, namespaces, running and pending Workloads
    std::vector<Sample> samples;   // site sample workloads and converted job manifests
    std::vector<std::pair<site::Site, std::string>> sites;  // with their file
    std::vector<SourceText> sources;
};
// Returns nullopt when the input could not be read (errors in diags).
std::optional<Inputs> load_inputs(const Options& opts, Diagnostics& diags);
// The inputs of one site already compiled (compile.hpp; the report's): its
// objects and its samples. The compilation's own findings are not repeated
// in `diags`; nullopt when it did not lower or a sample is invalid.
std::optional<Inputs> inputs_of(const Compilation& c, Diagnostics& diags);

// Namespaces as the API server keeps them: every Namespace carries the
// automatic kubernetes.io/metadata.name label, and the namespaces that
// Workloads and LocalQueues use exist.
void add_missing_namespaces(std::vector<Resource>& objects);

// Returns nullopt when the input could not be read (errors in diags).
std::optional<Report> run(const Options& opts, Diagnostics& diags);
// The simulation of inputs already read (opts.paths unused).
Report run(Inputs in, const Options& opts, Diagnostics& diags);

std::string format_json(const Report& r);
std::string format_text(const Report& r);

// The report's failures as findings at the samples' positions (rules
// sim.expectation, sim.never-admitted, sim.node-shape), for -o junit|sarif.
Diagnostics findings(const Report& r);

}  // namespace queueforge::scenarios
