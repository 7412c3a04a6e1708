#include <queueforge/lower.hpp>

#include "lower/context.hpp"
#include "lower/passes.hpp"
#include "lower/passthrough.hpp"
#include "lower/quota.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace queueforge {

using lower::Context;

namespace {

std::optional<Target> resolve_target(const site::Site& s, Diagnostics& diags, const LowerOptions& opts) {
    const auto& t = s.target;
    TargetLookup found;
    Mark at = t.mark;
    if (!opts.target_override.empty()) {
        found = find_target(opts.target_override);
        at = {};
    } else if (!t.name.value.empty()) {
        found = find_target(t.name.value);
    } else {
        // The map form names the same targets as the string form.
        const bool ai = !t.openshift_ai.value.empty();
        found = find_target((ai ? "rhoai-" : "kueue-") + (ai ? t.openshift_ai.value : t.kueue.value));
        at = ai ? t.openshift_ai.mark : t.kueue.mark;
    }
    if (!found.target) {
        diags.error(s.file, at, found.error, "site.target");
        return std::nullopt;
    }
    if (!found.warning.empty()) diags.warning(s.file, at, found.warning, "site.target");
    TargetOverrides o{t.kueue_api_version.value, t.dsc_api_version.value, t.cohort_api_version.value};
    if (o.kueue_api_version.empty() && o.dsc_api_version.empty() && o.cohort_api_version.empty()) return found.target;
    auto over = apply_overrides(*found.target, o);
    if (!over.target) {
        diags.error(s.file, t.mark, over.error, "site.target");
        return std::nullopt;
    }
    if (!over.warning.empty()) diags.warning(s.file, t.mark, over.warning, "site.target");
    return over.target;
}

template <class T>
void index_unique(Context& ctx, const std::vector<T>& items, std::map<std::string, const T*>& out, const char* what) {
    for (const auto& item : items) {
        auto [it, inserted] = out.try_emplace(item.name.value, &item);
        if (!inserted)
            ctx.error(item.name.mark,
                      std::string(what) + " \"" + item.name.value + "\" is defined twice (first at line " +
                          std::to_string(it->second->name.mark.line) + ")",
                      "site.duplicate-name");
    }
}

// Two site elements that lower to the same object would overwrite each other
// on apply; refuse them.
void check_duplicate_objects(Context& ctx) {
    std::map<std::tuple<std::string, std::string, std::string>, Mark> seen;
    for (const auto& o : ctx.objects) {
        auto [it, inserted] = seen.try_emplace({o.kind, o.namespace_, o.name}, o.origin);
        if (!inserted)
            ctx.error(o.origin,
                      o.kind + " \"" + (o.namespace_.empty() ? "" : o.namespace_ + "/") + o.name +
                          "\" would be emitted twice (first from line " + std::to_string(it->second.line) + ")",
                      "site.duplicate-object");
    }
}

}  // namespace

namespace {

// `releasable`: `s` itself when its teams' amounts may be released (Context).
std::optional<Lowered> lower_into_objects(const site::Site& s, site::Site* releasable, Diagnostics& diags, const LowerOptions& opts) {
    auto target = resolve_target(s, diags, opts);
    if (!target) return std::nullopt;
    std::size_t errors_before = diags.count(Severity::Error);
    Context ctx{s, diags, *target, {}, {}, {}, {}, {}, opts.provenance, releasable};
    index_unique(ctx, s.topologies, ctx.topologies, "topology");
    index_unique(ctx, s.pools, ctx.pools, "pool");
    index_unique(ctx, s.cohorts, ctx.cohorts, "cohort");
    index_unique(ctx, s.priority_classes, ctx.priority_classes, "priority class");
    std::map<std::string, const site::Team*> teams;
    index_unique(ctx, s.teams, teams, "team");

    lower::lower_namespaces(ctx);
    lower::lower_data_science_cluster(ctx);
    lower::lower_topologies(ctx);
    lower::lower_flavors(ctx);
    lower::lower_cohorts(ctx);
    lower::lower_priority_classes(ctx);
    // Summed before lower_teams may release the amounts; reported in this
    // pass's place below.
    Diagnostics share_sums;
    lower::check_share_sums(ctx, s.teams, share_sums);
    lower::lower_teams(ctx);
    lower::lower_tenant_rbac(ctx);
    lower::lower_hardware_profiles(ctx);
    lower::lower_kueue_operator(ctx);
    lower::lower_kueue_config(ctx);
    diags.append(std::move(share_sums));
    lower::apply_patches(ctx);
    lower::add_passthrough(ctx);
    check_duplicate_objects(ctx);

    for (const auto& w : s.workloads) {
        if (!w.priority_class.value.empty() && !ctx.priority_classes.count(w.priority_class.value))
            ctx.error(w.priority_class.mark, "workload \"" + w.name.value + "\": unknown priority class \"" + w.priority_class.value + "\"", "site.unknown-priority-class");
        if (w.expect && !w.expect->flavor.value.empty() && !ctx.pools.count(w.expect->flavor.value))
            ctx.error(w.expect->flavor.mark, "workload \"" + w.name.value + "\": expected flavor \"" + w.expect->flavor.value + "\" is not a pool", "site.unknown-pool");
        const std::string& f = w.file.value;
        if (!f.empty() && (f.front() == '/' || f == ".." || f.starts_with("../") || f.find("/../") != std::string::npos || f.ends_with("/..")))
            ctx.error(w.file.mark, "workload \"" + w.name.value + "\": file \"" + f + "\" must be a relative path inside the site's folder; not read", "site.path");
    }
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;

    std::stable_sort(ctx.objects.begin(), ctx.objects.end(), [](const Object& a, const Object& b) {
        return std::tie(a.wave, a.kind_rank, a.namespace_, a.name) < std::tie(b.wave, b.kind_rank, b.namespace_, b.name);
    });
    return Lowered{std::move(ctx.target), std::move(ctx.objects)};
}

}  // namespace

std::optional<Lowered> lower_site(const site::Site& s, Diagnostics& diags, const LowerOptions& opts) {
    return lower_into_objects(s, nullptr, diags, opts);
}

std::optional<Lowered> lower_site_releasing_quota(site::Site& s, Diagnostics& diags, const LowerOptions& opts) {
    return lower_into_objects(s, &s, diags, opts);
}

}  // namespace queueforge
