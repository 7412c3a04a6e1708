#pragma once
// `queueforge diff`: what a change does to the cluster's queues, not only to
// the YAML. Two builds of the same sites (two revisions, a revision and the
// index, or a revision and the work tree) are compared object by object and
// field by field, quotas before -> after; their sample workloads are
// simulated on both sides; with a snapshot of running Workloads, the running
// workloads the change would preempt or strand are named, and removed
// ClusterQueues / ResourceFlavors they still use are flagged (Kueue's
// finalizers would block the deletion).
#include <queueforge/diagnostics.hpp>
#include <queueforge/object.hpp>
#include <queueforge/resource.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::review {

struct FieldChange {
    std::string path;    // e.g. spec.resourceGroups[0].flavors[a100].resources[nvidia.com/gpu].nominalQuota
    std::string before;  // "" when added
    std::string after;   // "" when removed
};

struct ObjectChange {
    std::string kind, namespace_, name;
    std::string change;  // Added, Removed, Changed
    std::vector<FieldChange> fields;  // Changed only
};

struct QuotaChange {
    std::string cluster_queue, flavor, resource;
    std::string field;  // nominalQuota, borrowingLimit, lendingLimit
    std::string before, after;  // "" = unset
};

// A sample workload (site `workloads:` / job manifests) or a running one.
struct AdmissionChange {
    std::string namespace_, name;
    bool running = false;  // from the cluster snapshot
    std::string before, after;  // "Admitted on a100", "Admitted on h100 (borrowing)", "Pending: <reason>"
    std::string impact;         // running only: "preempted", "loses its quota", ""
};

struct BlockedDeletion {
    std::string kind, name;
    std::vector<std::string> used_by;  // "ns/name" of running workloads
};

struct Side {
    std::string name;                 // "HEAD~1 (1a2b3c4)", "the index (staged changes)", "the work tree"
    std::vector<Object> objects;      // the sites' build output
    std::vector<SourceText> sources;
};

struct Review {
    std::string base, head;
    std::vector<ObjectChange> objects;        // by kind, namespace, name
    std::vector<QuotaChange> quotas;          // by ClusterQueue, flavor, resource, field
    std::vector<AdmissionChange> admissions;  // changed ones only
    std::vector<BlockedDeletion> blocked;
    bool simulated = false;
};

// Builds every site folder of `site_dirs` (relative to `root`) into a Side.
// Findings name files as `<label><path>` ("HEAD~1:clusters/prod/...") rather
// than where the revision was written out. nullopt with errors in `diags`
// when a site is missing or invalid on that side.
std::optional<Side> build_side(const std::string& side_name, const std::string& label, const std::string& root,
                               const std::vector<std::string>& site_dirs, const std::string& target, Diagnostics& diags);

struct Options {
    // Files of running Workloads (`kubectl get workloads -A -o yaml`), optional.
    std::vector<std::string> running;
    std::string target;
    bool simulate = true;
};

// `base_root` / `head_root` hold the two sides' files (site_dirs relative to each).
Review compare(const Side& base, const std::string& base_root, const Side& head, const std::string& head_root,
               const std::vector<std::string>& site_dirs, const Options& opts, Diagnostics& diags);

std::string render_text(const Review& r);
std::string render_json(const Review& r);
std::string render_markdown(const Review& r);

}  // namespace queueforge::review
