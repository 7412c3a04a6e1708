#pragma once
// `queueforge diff`: what a change does to the cluster's queues, not only to
// the YAML. Two builds of the same sites (two revisions, a revision and the
// index, or a revision and the work tree) are compared object by object and
// field by field, quotas before -> after; their sample workloads are
// simulated on both sides; with a snapshot of running Workloads, the running
// workloads the change would preempt or strand are named, and removed
// ClusterQueues / ResourceFlavors they still use are flagged (Kueue's
// finalizers would block the deletion).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::diff {

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
    // Admitted in the base, and in the head Pending, preempted, gone from
    // the running cluster's quota, or admitted without one of the flavors it
    // had (diff --fail-on regression).
    bool regression = false;
};

// A ClusterQueue's nominal quota that the change sets below what the running
// workloads admitted there use now (needs --running).
struct QuotaBelowUsage {
    std::string cluster_queue, flavor, resource;
    std::string quota;   // the head's nominalQuota ("0" when the entry is gone)
    std::string usage;   // the running workloads' resourceUsage, summed
    std::vector<std::string> workloads;  // "ns/name"
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
    std::vector<QuotaBelowUsage> below_usage;
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

// `base_paths` / `head_paths`: the sites' folders or files on each side (as
// build_side read them, under the sides' roots); an empty list means the
// side has no such site (added or removed): nothing is simulated then.
Review compare(const Side& base, const std::vector<std::string>& base_paths, const Side& head,
               const std::vector<std::string>& head_paths, const Options& opts, Diagnostics& diags);

// ---- Several sites: diff --base REF [PATH...] over a GitOps repository ----

// One side of a repository-wide review: where a revision, the index or the
// work tree was written out.
struct Tree {
    std::string root;   // the folder repository paths are relative to
    std::string label;  // "HEAD~1:", "index:", "" (prefix of file names in findings)
    std::string name;   // "HEAD~1 (1a2b3c4)", "the index (staged changes)", "the work tree"
};

// How a site fared between the sides. Sites are matched by path (their
// folder, or their file when it is not called queueforge-site.yaml); a site
// that exists only in the base and one that exists only in the head with the
// same metadata.name are one site, "Renamed" (its folder moved), and their
// objects are compared.
struct SiteReview {
    std::string site;          // repository path as discovery labels it (the head's, the base's when removed)
    std::string change;        // Added, Removed, Renamed, Changed, Unchanged
    std::string renamed_from;  // Renamed: the base's path
    Review review;
};

struct MultiReview {
    std::string base, head;
    std::vector<SiteReview> sites;  // by site path
};

// Discovers the sites beneath `repo_paths` on both sides (discover.hpp),
// pairs them, builds and compares each pair. Returns nullopt, with errors in
// `diags`, when a site is invalid on a side that has it, or when neither side
// holds a site. Findings name files "<label><repository path>" and carry
// their site (Diagnostic::site); `sources` receives the files read.
std::optional<MultiReview> compare_sites(const Tree& base, const Tree& head, const std::vector<std::string>& repo_paths,
                                         const Options& opts, Diagnostics& diags, std::vector<SourceText>& sources);

// What diff --fail-on understands, in --help order.
const std::vector<std::string>& fail_on_kinds();
// Whether `r` has something of `kind` (one of fail_on_kinds()):
//   any               a site added, removed or renamed, an object changed
//   regression        AdmissionChange::regression
//   deletion-blocked  a removed ClusterQueue/ResourceFlavor still in use
//   quota-below-usage QuotaBelowUsage
bool has(const MultiReview& r, const std::string& kind);

std::string render_text(const Review& r);
std::string render_json(const Review& r);
std::string render_markdown(const Review& r);

std::string render_text(const MultiReview& r);
std::string render_json(const MultiReview& r);
// One pull-request comment, starting with the line `<!-- queueforge-diff -->`
// (CI jobs find their earlier comment by it): a summary table (site | objects changed |
// admission regressions | verdict), then each changed site's details, long
// lists collapsed; at most `max_chars` characters (GitHub's comment limit is
// 65,536), cut at a site boundary with a note saying what was left out.
std::string render_markdown(const MultiReview& r, std::size_t max_chars = 65000);

}  // namespace queueforge::diff
