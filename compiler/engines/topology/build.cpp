// The domain tree of a topology (Kueue: tas_topology_tree.go, tas_nodes_cache.go,
// pkg/util/tas/node.go at ff69552e).
#include "engines/topology/snapshot.hpp"
#include <queueforge/base/text.hpp>

#include <algorithm>
#include <map>
#include <climits>
#include <set>

namespace queueforge::topology {

int Snapshot::resource_index(const std::string& r) const {
    auto it = std::lower_bound(resources.begin(), resources.end(), r);
    if (it == resources.end() || *it != r) return -1;
    return static_cast<int>(it - resources.begin());
}

namespace {

std::string join(const std::vector<std::string>& v, std::size_t from = 0) {
    if (from >= v.size()) return {};
    return queueforge::join(std::vector<std::string>(v.begin() + static_cast<std::ptrdiff_t>(from), v.end()), ",");
}

}  // namespace

Topology::Topology() : impl_(std::make_shared<Snapshot>()) {}
Topology::Topology(Topology&&) noexcept = default;
Topology& Topology::operator=(Topology&&) noexcept = default;
Topology::Topology(const Topology&) = default;
Topology& Topology::operator=(const Topology&) = default;
Topology::~Topology() = default;

const std::vector<std::string>& Topology::levels() const { return impl_->levels; }
std::vector<Topology::LeafInfo> Topology::leaves() const {
    std::vector<LeafInfo> out;
    out.reserve(impl_->leaves.size());
    for (const auto& l : impl_->leaves) out.push_back({l.id, impl_->domains[static_cast<std::size_t>(l.domain)].values});
    std::sort(out.begin(), out.end(), [](const LeafInfo& a, const LeafInfo& b) { return a.values < b.values; });
    return out;
}

const std::vector<std::string>& Topology::excluded_nodes() const { return impl_->excluded; }
std::size_t Topology::leaf_count() const { return impl_->leaves.size(); }

std::optional<Topology> Topology::build(const TopologySpec& spec, std::string* error) {
    auto fail = [&](std::string msg) -> std::optional<Topology> {
        if (error) *error = std::move(msg);
        return std::nullopt;
    };
    // Topology.spec.levels (apis/kueue/v1beta2/topology_types.go): 1-16 levels,
    // unique node labels, kubernetes.io/hostname only as the lowest level.
    if (spec.levels.empty()) return fail("topology \"" + spec.name + "\": no levels (Kueue requires 1 to 16)");
    if (spec.levels.size() > kMaxLevels)
        return fail("topology \"" + spec.name + "\": " + std::to_string(spec.levels.size()) +
                    " levels (Kueue allows at most 16)");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < spec.levels.size(); ++i) {
        const auto& l = spec.levels[i];
        if (l.empty()) return fail("topology \"" + spec.name + "\": level " + std::to_string(i) + " has no node label");
        if (!seen.insert(l).second) return fail("topology \"" + spec.name + "\": level \"" + l + "\" is repeated");
        if (l == kHostnameLabel && i + 1 != spec.levels.size())
            return fail("topology \"" + spec.name + "\": " + std::string(kHostnameLabel) +
                        " must be the lowest level, it is level " + std::to_string(i) + " of " +
                        std::to_string(spec.levels.size()));
    }
    if (spec.nodes.size() > kMaxNodes)
        return fail("topology \"" + spec.name + "\": " + std::to_string(spec.nodes.size()) +
                    " nodes, more than the limit of " + std::to_string(kMaxNodes));

    auto built = std::make_shared<Snapshot>();
    Snapshot& s = *built;
    s.name = spec.name;
    s.levels = spec.levels;
    s.lowest_is_hostname = spec.levels.back() == kHostnameLabel;
    s.flavor_tolerations = spec.flavor_tolerations;
    s.per_level.resize(s.levels.size());

    std::set<std::string> res;
    for (const auto& n : spec.nodes) {
        for (const auto& [r, _] : n.allocatable) res.insert(r);
        for (const auto& [r, _] : n.non_tas_usage) res.insert(r);
    }
    res.insert("pods");
    s.resources.assign(res.begin(), res.end());
    const std::size_t R = s.resources.size();

    // Per level: domain ID -> index. Values are joined with ',' as Kueue's
    // DomainID does.
    std::vector<std::unordered_map<std::string, int>> index(s.levels.size());
    for (const auto& n : spec.nodes) {
        // tas_nodes_cache.go: only Ready, schedulable nodes (without the
        // scheduler-library integration); node.go: the flavor's labels and
        // every level label.
        bool serves = n.ready && !n.unschedulable;
        for (const auto& [k, v] : spec.flavor_node_labels) {
            auto it = n.labels.find(k);
            if (it == n.labels.end() || it->second != v) serves = false;
        }
        std::vector<std::string> values;
        values.reserve(s.levels.size());
        for (const auto& l : s.levels) {
            auto it = n.labels.find(l);
            if (it == n.labels.end()) {
                serves = false;
                break;
            }
            values.push_back(it->second);
        }
        if (!serves) {
            s.excluded.push_back(n.name);
            continue;
        }
        std::string leaf_id = s.lowest_is_hostname ? values.back() : join(values);
        auto [it, inserted] = index.back().try_emplace(leaf_id, -1);
        if (inserted) {
            // Create the leaf and, bottom up, every missing ancestor.
            int child = -1;
            for (int lvl = static_cast<int>(s.levels.size()) - 1; lvl >= 0; --lvl) {
                std::vector<std::string> prefix(values.begin(), values.begin() + lvl + 1);
                std::string id = lvl + 1 == static_cast<int>(s.levels.size()) ? leaf_id : join(prefix);
                auto& slot = index[lvl];
                auto found = slot.find(id);
                int di;
                bool created = false;
                if (found == slot.end() || (lvl + 1 == static_cast<int>(s.levels.size()) && found->second < 0)) {
                    di = static_cast<int>(s.domains.size());
                    Domain d;
                    d.values = std::move(prefix);
                    d.level = lvl;
                    s.domains.push_back(std::move(d));
                    s.per_level[lvl].push_back(di);
                    slot[id] = di;
                    created = true;
                } else {
                    di = found->second;
                }
                if (child >= 0) {
                    s.domains[child].parent = di;
                    s.domains[di].children.push_back(child);
                }
                if (!created) break;
                child = di;
            }
            int di = index.back()[leaf_id];
            Leaf leaf;
            leaf.domain = di;
            leaf.id = leaf_id;
            leaf.free.assign(R, 0);
            if (s.lowest_is_hostname) {
                leaf.node = static_cast<int>(s.nodes.size());
                s.nodes.push_back(NodeInfo{n.name, n.labels, n.taints});
            }
            s.domains[di].leaf = static_cast<int>(s.leaves.size());
            s.leaf_by_id[leaf_id] = static_cast<int>(s.leaves.size());
            s.leaves.push_back(std::move(leaf));
        }
        Leaf& leaf = s.leaves[s.leaf_by_id[leaf_id]];
        // Amounts are checked on the way in (Kueue's int64s); sums saturate.
        auto add = [](std::int64_t& to, std::int64_t v) {
            if (__builtin_add_overflow(to, v, &to)) to = v < 0 ? INT64_MIN : INT64_MAX;
        };
        for (const auto& [r, v] : n.allocatable) add(leaf.free[s.resource_index(r)], v);
        // tas_non_tas_pod_cache.go: the usage of the node's non-TAS pods
        // (given here already summed, pods included).
        for (const auto& [r, v] : n.non_tas_usage) add(leaf.free[s.resource_index(r)], v == INT64_MIN ? INT64_MAX : -v);
    }
    for (auto& level : s.per_level) {
        std::sort(level.begin(), level.end(),
                  [&](int a, int b) { return s.domains[a].values < s.domains[b].values; });
        for (std::size_t i = 0; i < level.size(); ++i) s.domains[level[i]].rank = static_cast<int>(i);
    }
    Topology t;
    t.usage_.assign(s.leaves.size() * s.resources.size(), 0);
    t.impl_ = std::move(built);
    return t;
}

std::string Topology::summary(const Assignment& a) const {
    const Snapshot& s = *impl_;
    const bool up = s.lowest_is_hostname && s.levels.size() > 1;
    const std::string& label = s.levels[up ? s.levels.size() - 2 : s.levels.size() - 1];
    std::string name = label.substr(label.rfind('/') == std::string::npos ? 0 : label.rfind('/') + 1);
    if (name.starts_with("topology-") && name.size() > 9) name = name.substr(9);
    std::map<std::string, std::int64_t> per;
    for (const auto& d : a.domains) {
        std::string id;
        for (std::size_t k = 0; k < d.values.size(); ++k) id += (k ? "," : "") + d.values[k];
        auto leaf = s.leaf_by_id.find(id);
        std::string value = d.values.empty() ? std::string() : d.values.back();
        if (leaf != s.leaf_by_id.end()) {
            const Domain& dom = s.domains[static_cast<std::size_t>(s.leaves[leaf->second].domain)];
            const Domain& shown = up && dom.parent >= 0 ? s.domains[static_cast<std::size_t>(dom.parent)] : dom;
            value = shown.values.back();
        }
        per[value] += d.count;
    }
    std::string out = name + " ";
    bool first = true;
    for (const auto& [v, n] : per) {
        out += (first ? "" : ", ") + v + ": " + std::to_string(n);
        first = false;
    }
    return out;
}

std::string to_text(const Assignment& a) {
    std::string out;
    for (const auto& d : a.domains) {
        if (!out.empty()) out += ", ";
        for (std::size_t i = 0; i < d.values.size(); ++i) {
            if (i) out += '/';
            out += d.values[i];
        }
        out += ": " + std::to_string(d.count);
    }
    return out;
}

}  // namespace queueforge::topology
