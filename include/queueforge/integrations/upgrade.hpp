#pragma once
// `queueforge upgrade-check --from TARGET --to TARGET [PATH...]`: what
// changes for this repository when its cluster moves from one target to
// another (an OpenShift AI or Kueue upgrade, or a downgrade):
//
//  - platform changes (release_notes.hpp): API versions and fields served,
//    defaults, limits, DataScienceCluster components and states, the
//    operator's behaviour (autoCreateQueues), support statements; each with
//    the release note it comes from and the objects of the repository it
//    concerns (a change that concerns nothing here is listed apart);
//  - findings: every cluster validated under both targets (validate's
//    checks: schemas, Kueue's rules, cross-object and target rules), and the
//    findings that start, stop or stay;
//  - emitted objects: each site built for both targets, object by object
//    (diff.hpp), e.g. apiVersion kueue.x-k8s.io/v1beta1 -> v1beta2.
//
// The repository breaks on the new target when it has a finding at error
// level there, or a platform change at error level concerns it.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/platform.hpp>
#include <queueforge/frontend/release_notes.hpp>
#include <queueforge/integrations/diff.hpp>

#include <optional>
#include <string>
#include <vector>

namespace queueforge::upgrade {

// Something in the repository a change concerns.
struct Subject {
    std::string what;  // "ClusterQueue llm", "site clusters/prod", "DataScienceCluster default-dsc"
    std::string file;
    Mark mark;
};

struct Change {
    std::string id;        // the release note's id ("kueue-v1beta1-unserved"), "matrix-<fact>" without one
    std::string release;   // "OpenShift AI 3.5", "Kueue 0.20"
    Severity severity = Severity::Note;  // Error: breaks the repository; Warning: needs an action; Note: informs
    std::string what;
    std::string detail;    // the values before -> after, for facts of the target matrix
    std::string source;
    std::vector<Subject> subjects;  // empty: it does not concern this repository
    platform::Concerns concerns = platform::Concerns::Always;
};

struct SiteObjects {
    std::string site;  // the site's path as discovery labels it
    std::vector<diff::ObjectChange> objects;
};

struct Report {
    Target from, to;
    bool upgrade = true;                 // false: `to` is older than `from`
    std::vector<Change> changes;         // in release order (downgrades: newest first)
    std::vector<Diagnostic> started;     // findings under `to` only
    std::vector<Diagnostic> stopped;     // findings under `from` only
    std::vector<Diagnostic> unchanged;   // findings under both (as reported under `to`)
    std::vector<SiteObjects> emitted;    // sites whose output differs between the targets
    std::vector<std::string> sites;      // clusters covered when several
    std::vector<SourceText> sources;

    // Errors under `to`, or an error-level change that concerns the repository.
    bool breaks() const;
};

struct Options {
    std::vector<std::string> paths;  // sites and manifests ("." when empty)
    std::string from, to;            // target names
};

// nullopt, with the reason in `diags`, when a target is unknown or the input
// cannot be read.
std::optional<Report> check(const Options& opts, Diagnostics& diags);

// The platform changes between two targets, unconcerned (no subjects).
std::vector<Change> platform_changes(const Target& from, const Target& to);

std::string render_text(const Report& r);
// {apiVersion: queueforge.io/v1alpha1, kind: UpgradeCheck, from, to, direction: upgrade|downgrade,
//  breaks, changes: [{id, release, severity, what, detail, source, concerns: [{what, file, line, column}]}],
//  findings: {started: [...], stopped: [...], unchanged: [...]} (each {severity, rule, file, line,
//  column, message, site}), emitted: [{site, objects: [{kind, namespace, name, change,
//  fields: [{path, before, after}]}]}]}
std::string render_json(const Report& r);
// The findings formats (sarif, junit, github): the findings that start on
// `to` and the changes that concern the repository, as rule ids
// upgrade.breaking (error), upgrade.action (warning) and upgrade.change
// (note), positioned at the first object each concerns.
Diagnostics as_findings(const Report& r);

}  // namespace queueforge::upgrade
