// The entry points: evaluating a loaded set over one cluster, and the
// validate/check hook that finds the clusters in the input.
#include <queueforge/checks/policy.hpp>

#include "checks/policy/cluster.hpp"
#include "checks/policy/evaluate.hpp"
#include "checks/policy/sites.hpp"

#include <set>

namespace queueforge::policy {

Outcome evaluate(const PolicySet& set, const std::vector<Resource>& objects, const std::optional<Target>& target,
                 const Options& opts, Diagnostics& diags) {
    const Data& d = set.data();
    if (d.policies.empty() && d.admission.empty()) return {};
    Cluster c(objects, target, opts.cost_limit);
    std::set<std::string> failed;
    for (const auto& p : d.policies) {
        evaluate_policy(p, c, diags, failed);
        if (reads_objects(p)) c.forget_conversions();
    }
    evaluate_admission(d, c, diags, failed);
    return {{failed.begin(), failed.end()}};
}

namespace {

// Evaluates over the clusters of the input: one site is one cluster, and
// the manifests beside it belong to it; with several sites each is its own
// cluster and the manifests another. Returns the policies that failed.
std::set<std::string> evaluate_input(const PolicySet& set, const LoadedResources& input, const Options& opts,
                                     const std::optional<Target>& target, Diagnostics& found) {
    std::set<std::string> failed;
    if (set.data().policies.empty() && set.data().admission.empty()) return failed;
    std::vector<ClusterInput> sites;
    std::vector<const Resource*> plain;
    for (const auto& r : input.resources) {
        if (!is_site(r)) plain.push_back(&r);
        else if (auto c = render_site(r, target)) sites.push_back(std::move(*c));
    }
    auto run = [&](const std::vector<Resource>& objects, const std::optional<Target>& t) {
        for (auto& id : evaluate(set, objects, t, opts, found).failed) failed.insert(std::move(id));
    };
    if (sites.empty()) {
        run(input.resources, target);  // the common case: no copy
    } else if (sites.size() == 1) {
        auto& only = sites.front();
        std::vector<Resource> all;
        all.reserve(plain.size() + only.objects.size());
        for (const Resource* r : plain) all.push_back(*r);
        for (auto& r : only.objects) all.push_back(std::move(r));
        run(all, only.target);
    } else {
        for (const auto& s : sites) run(s.objects, s.target);
        std::vector<Resource> rest;
        for (const Resource* r : plain) rest.push_back(*r);
        if (!rest.empty()) run(rest, target);
    }
    return failed;
}

}  // namespace

std::vector<std::string> check_policies(LoadedResources& input, const Options& opts, const std::optional<Target>& target,
                    Diagnostics& diags) {
    Diagnostics found;
    PolicySet set = load_policies(opts, found, &input.sources);
    const std::set<std::string> failed = evaluate_input(set, input, opts, target, found);

    // The loaded policies restate these checks of the compiler; keeping both
    // would report everything twice, and --disable could not silence it. A
    // policy that failed to evaluate leaves the compiler's check in place.
    std::set<std::string> dropped = set.data().replaced;
    for (const auto& p : set.data().policies)
        if (failed.count(p.id))
            for (const auto& rule : p.replaces) dropped.erase(rule);
    if (!dropped.empty()) diags.erase_if([&dropped](const Diagnostic& d) { return dropped.count(d.rule) > 0; });
    diags.append(std::move(found));
    return set.ids();
}

}  // namespace queueforge::policy
