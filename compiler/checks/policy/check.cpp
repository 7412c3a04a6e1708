// The entry points: evaluating a loaded set over one cluster, and the
// validate/check hook that finds the clusters in the input.
#include <queueforge/checks/policy.hpp>

#include "checks/policy/cluster.hpp"
#include "checks/policy/evaluate.hpp"
#include "checks/policy/sites.hpp"
#include "base/threads/side_by_side.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace queueforge::policy {

namespace {

// Policies over a large input are shared out between two threads, each with
// its own Cluster (its conversions are its own); below this many objects one
// thread is quicker than starting a second.
constexpr std::size_t kPoliciesSideBySideFrom = 2000;

unsigned policy_threads(std::size_t objects, std::size_t policies, unsigned asked) {
    if (policies < 2) return 1;
    if (asked > 0) return std::min<unsigned>(asked, static_cast<unsigned>(policies));
    if (objects < kPoliciesSideBySideFrom) return 1;
    return std::thread::hardware_concurrency() >= 2 ? 2 : 1;
}

// Evaluates the policies with `threads` threads taking the next policy in
// turn; each policy's findings are kept apart and joined in the policies'
// order, so the output is the one thread's, whichever thread ran what. Each
// thread makes its Cluster at the same time; the caller's thread makes `c`,
// which the caller keeps.
void evaluate_policies(const Data& d, std::optional<Cluster>& c, const std::vector<Resource>& objects,
                       const std::optional<Target>& target, const Options& opts, unsigned threads, Diagnostics& diags,
                       std::set<std::string>& failed) {
    std::vector<Diagnostics> found(d.policies.size());
    std::vector<std::set<std::string>> failed_by(threads);
    std::atomic<std::size_t> next{0};
    auto work = [&](unsigned t, Cluster& cluster) {
        for (std::size_t i = next++; i < d.policies.size(); i = next++) {
            evaluate_policy(d.policies[i], cluster, found[i], failed_by[t]);
            if (reads_objects(d.policies[i])) cluster.forget_conversions();
        }
    };
    // Threads 0 .. threads - 2 each run beside the rest, with a Cluster of
    // their own; the last is the caller's, with `c`.
    std::function<void(unsigned)> from = [&](unsigned t) {
        if (t + 1 == threads) {
            c.emplace(objects, target, opts.cost_limit);
            return work(t, *c);
        }
        side_by_side(
            [&] {
                Cluster own(objects, target, opts.cost_limit);
                work(t, own);
            },
            [&] { from(t + 1); });
    };
    from(0);
    for (auto& f : found) diags.append(std::move(f));
    for (auto& f : failed_by) failed.insert(f.begin(), f.end());
}

}  // namespace

Outcome evaluate(const PolicySet& set, const std::vector<Resource>& objects, const std::optional<Target>& target,
                 const Options& opts, Diagnostics& diags) {
    const Data& d = set.data();
    if (d.policies.empty() && d.admission.empty()) return {};
    std::optional<Cluster> c;
    std::set<std::string> failed;
    if (const unsigned threads = policy_threads(objects.size(), d.policies.size(), opts.threads); threads > 1) {
        evaluate_policies(d, c, objects, target, opts, threads, diags, failed);
    } else {
        c.emplace(objects, target, opts.cost_limit);
        for (const auto& p : d.policies) {
            evaluate_policy(p, *c, diags, failed);
            if (reads_objects(p)) c->forget_conversions();
        }
    }
    evaluate_admission(d, *c, diags, failed);
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
