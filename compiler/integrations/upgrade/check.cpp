// upgrade-check: each cluster of the repository validated and built under
// both targets, the findings and the emitted objects compared, and the
// platform changes in between matched against the repository.
#include "integrations/upgrade/repo.hpp"

#include <queueforge/checks/validate.hpp>
#include <queueforge/engines/workloads.hpp>
#include <queueforge/frontend/discover.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/lower.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace queueforge::upgrade {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

using Key = std::tuple<std::string, std::string, std::string, int, int, int>;
Key key_of(const Diagnostic& d) {
    return {d.site, d.rule, d.file, d.mark.line, d.mark.col, static_cast<int>(d.severity)};
}

// Findings of one cluster under one target. Target lookup warnings ("facts
// for rhoai-2.13 taken from rhoai-2.10") are the same on every run and say
// nothing about the repository.
Diagnostics validate_under(const std::vector<std::string>& inputs, const Target& t, ObjectValidator& validator,
                           const std::string& site) {
    Diagnostics found;
    LoadedResources input = load_resources(inputs, found);
    ValidationOptions vo;
    vo.target = t;
    if (!found.has_errors()) validate_all(input, vo, validator, found);
    Diagnostics out;
    for (auto d : found.all()) {
        d.site = site;
        out.add(std::move(d));
    }
    return out;
}

// The objects a site compiles to for `t` (nullopt when it does not compile:
// its errors are among the findings).
std::optional<std::vector<Object>> build(const site::Site& s, const Target& t) {
    Diagnostics ignored;
    auto lowered = lower_site(s, ignored, {.target_override = t.name});
    if (!lowered || ignored.has_errors()) return std::nullopt;
    return std::move(lowered->objects);
}

}  // namespace

bool Report::breaks() const {
    for (const auto& d : started)
        if (d.severity == Severity::Error) return true;
    for (const auto& d : unchanged)
        if (d.severity == Severity::Error) return true;
    for (const auto& c : changes)
        if (c.severity == Severity::Error && !c.subjects.empty()) return true;
    return false;
}

std::optional<Report> check(const Options& opts, Diagnostics& diags) {
    auto from = find_target(opts.from);
    auto to = find_target(opts.to);
    if (!from.target || !to.target) {
        diags.error("", {}, !from.target ? "--from: " + from.error : "--to: " + to.error, "upgrade.target");
        return std::nullopt;
    }
    Report report;
    report.from = *from.target;
    report.to = *to.target;
    const bool both_ai = report.from.platform == Platform::OpenShiftAI && report.to.platform == Platform::OpenShiftAI;
    report.upgrade = both_ai ? report.from.release <= report.to.release : report.from.kueue <= report.to.kueue;

    const auto clusters = discover::find_clusters(opts.paths, {}, diags);
    if (clusters.empty() || diags.has_errors()) return std::nullopt;
    Repo repo;
    ObjectValidator validator({}, diags);
    Diagnostics before, after;
    for (const auto& cluster : clusters) {
        const std::string label = clusters.size() > 1 ? cluster.label : std::string();
        if (!label.empty()) report.sites.push_back(label);
        // The input itself must be readable: a broken file is an error of
        // the repository, not of either target.
        Diagnostics read;
        LoadedResources input = load_resources(cluster.inputs, read);
        report.sources.insert(report.sources.end(), input.sources.begin(), input.sources.end());
        if (read.has_errors()) {
            diags.append(read);
            return std::nullopt;
        }
        if (repo.first_input.empty() && !cluster.inputs.empty()) repo.first_input = cluster.inputs.front();
        for (auto& r : input.resources) {
            if (!is_site(r)) {
                repo.written.push_back(std::move(r));
                continue;
            }
            Diagnostics local;
            std::vector<SourceText> bases;
            auto s = load_site_document(r.doc, r.file, local, &bases);
            report.sources.insert(report.sources.end(), bases.begin(), bases.end());
            if (!s) continue;  // its errors are findings under both targets
            Repo::Site site{label.empty() ? cluster.label : label, r.file, false};
            auto old_objects = build(*s, report.from);
            auto new_objects = build(*s, report.to);
            if (old_objects) {
                for (const auto& o : *old_objects) {
                    if (o.api_version.starts_with("kueue.x-k8s.io/")) site.queues = true;
                    repo.emitted.push_back(resource_of(o, r.file));
                }
            }
            if (old_objects && new_objects) {
                diff::Side a{report.from.name, std::move(*old_objects), {}}, b{report.to.name, std::move(*new_objects), {}};
                Diagnostics ignored;
                auto review = diff::compare(a, {}, b, {}, {.simulate = false}, ignored);
                if (!review.objects.empty()) report.emitted.push_back({site.label, std::move(review.objects)});
            }
            if (r.file != "-" && r.file != "<stdin>") {
                Diagnostics ignored;
                auto files = read_sample_files(*s, std::filesystem::path(r.file).parent_path().string(), ignored);
                for (auto& x : files.resources) repo.samples.push_back(std::move(x));
            }
            repo.sites.push_back(std::move(site));
        }
        before.append(validate_under(cluster.inputs, report.from, validator, label));
        after.append(validate_under(cluster.inputs, report.to, validator, label));
    }

    // Findings matched by site, rule, position and severity (messages name
    // the target, so they differ even for the same problem).
    std::map<Key, int> old_count;
    for (const auto& d : before.all()) ++old_count[key_of(d)];
    std::map<Key, int> matched;
    for (const auto& d : after.all()) {
        auto k = key_of(d);
        if (old_count[k] > matched[k]) {
            ++matched[k];
            report.unchanged.push_back(d);
        } else {
            report.started.push_back(d);
        }
    }
    std::map<Key, int> used;
    for (const auto& d : before.all()) {
        auto k = key_of(d);
        if (used[k] < matched[k]) ++used[k];
        else report.stopped.push_back(d);
    }

    report.changes = platform_changes(report.from, report.to);
    // A site is compiled for the new target: what would break it shows as
    // findings of that compilation. A breaking change therefore concerns
    // the hand-written objects only, never what a site emits.
    std::set<std::string> site_files;
    for (const auto& s : repo.sites) site_files.insert(s.file);
    for (auto& c : report.changes) {
        c.subjects = subjects(c, repo, report.from, report.to, report.upgrade);
        if (c.severity == Severity::Error)
            std::erase_if(c.subjects, [&](const Subject& s) { return site_files.count(s.file) > 0; });
    }
    return report;
}

}  // namespace queueforge::upgrade
