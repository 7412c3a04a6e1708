// The entry points: evaluating a loaded set over one cluster, and the
// validate/check hook that finds the clusters in the input -- a site is
// compiled so that policies see what it renders (and its pools as Nodes).
#include <queueforge/lower.hpp>
#include <queueforge/policy.hpp>
#include <queueforge/site_parse.hpp>

#include "policy/cluster.hpp"
#include "policy/evaluate.hpp"

#include <set>

namespace queueforge::policy {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

struct ClusterInput {
    std::vector<Resource> objects;
    std::optional<Target> target;
};

// The pools of a site as Node objects (allocatable = nodes x per-node
// allocatable), as validate_all builds them for its capacity check.
void add_pool_nodes(const site::Site& s, const std::string& file, std::vector<Resource>& out) {
    for (const auto& p : s.pools) {
        if (!p.nodes || p.allocatable.empty()) continue;
        Node doc = Node::mapping(p.mark);
        doc.set("apiVersion", Node::string("v1"));
        doc.set("kind", Node::string("Node"));
        Node meta = Node::mapping(p.mark);
        meta.set("name", Node::string(p.name.value + ".pool"));
        Node labels = Node::mapping();
        for (const auto& [k, v] : p.node_labels) labels.set(k.value, Node::string(v.value));
        meta.set("labels", std::move(labels));
        doc.set("metadata", std::move(meta));
        Node alloc = Node::mapping();
        for (const auto& a : p.allocatable)
            if (auto total = a.absolute->mul(p.nodes->value)) alloc.set(a.resource, Node::string(total->to_string()));
        Node status = Node::mapping();
        status.set("allocatable", std::move(alloc));
        doc.set("status", std::move(status));
        Resource r;
        r.file = file;
        r.doc = std::move(doc);
        r.ref = {"v1", "Node", "", p.name.value + ".pool"};
        out.push_back(std::move(r));
    }
}

// A site's rendered objects, positioned at the site elements they come from.
// Compile problems were reported by validate_all already, so they are dropped.
std::optional<ClusterInput> render_site(const Resource& r, const std::optional<Target>& target) {
    Diagnostics ignored;
    auto s = parse_site(r.doc, r.file, ignored);
    if (!s) return std::nullopt;
    LowerOptions lo;
    if (target) lo.target_override = target->name;
    auto lowered = lower_site(*s, ignored, lo);
    if (!lowered) return std::nullopt;
    ClusterInput c;
    c.target = lowered->target;
    for (auto& o : lowered->objects) {
        Resource g;
        g.file = r.file;
        g.doc = std::move(o.doc);
        g.doc.set_mark(o.origin);
        g.ref = {o.api_version, o.kind, o.namespace_, o.name};
        c.objects.push_back(std::move(g));
    }
    add_pool_nodes(*s, r.file, c.objects);
    return c;
}

}  // namespace

Outcome evaluate(const PolicySet& set, const std::vector<Resource>& objects, const std::optional<Target>& target,
                 const Options& opts, Diagnostics& diags) {
    const Data& d = set.data();
    if (d.policies.empty() && d.admission.empty()) return {};
    Cluster c(objects, target, opts.cost_limit);
    std::set<std::string> failed;
    for (const auto& p : d.policies) evaluate_policy(p, c, diags, failed);
    evaluate_admission(d, c, diags, failed);
    return {{failed.begin(), failed.end()}};
}

void check_policies(LoadedResources& input, const Options& opts, const std::optional<Target>& target,
                    Diagnostics& diags) {
    Diagnostics found;
    PolicySet set = load_policies(opts, found, &input.sources);

    // One site is one cluster, and the manifests beside it belong to it; with
    // several sites each is its own cluster and the manifests another.
    std::vector<ClusterInput> sites;
    std::vector<const Resource*> plain;
    for (const auto& r : input.resources) {
        if (!is_site(r)) plain.push_back(&r);
        else if (auto c = render_site(r, target)) sites.push_back(std::move(*c));
    }
    std::set<std::string> failed;
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

    // The loaded policies restate these checks of the compiler; keeping both
    // would report everything twice, and --disable could not silence it. A
    // policy that failed to evaluate leaves the compiler's check in place.
    std::set<std::string> dropped = set.data().replaced;
    for (const auto& p : set.data().policies)
        if (failed.count(p.id))
            for (const auto& rule : p.replaces) dropped.erase(rule);
    if (!dropped.empty()) {
        Diagnostics kept;
        for (const auto& d : diags.all())
            if (!dropped.count(d.rule)) kept.add(d);
        diags = std::move(kept);
    }
    diags.append(found);
}

}  // namespace queueforge::policy
