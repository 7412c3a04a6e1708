// Teams from ClusterQueues and the LocalQueues that point at them: quota,
// queue settings (the common ones hoisted into teamDefaults), namespaces and
// the namespace selector.
#include "integrations/import/model_parts.hpp"
#include "integrations/import/tree.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace queueforge::importer {

namespace {

constexpr const char* kNameLabel = "kubernetes.io/metadata.name";

// The queue settings a team may give, with the value Kueue (and queueforge)
// use when it is not given. Only these are hoisted into teamDefaults: each
// has a spelling for its default, so a team that differs can say so.
struct Setting {
    const char* key;       // site path, dotted
    const char* fallback;  // value when unset
};
constexpr Setting kSettings[] = {
    {"localQueue", "default"},
    {"defaultQueue", "true"},
    {"queueingStrategy", "BestEffortFIFO"},
    {"preemption.reclaimWithinCohort", "Never"},
    {"preemption.withinClusterQueue", "Never"},
    {"preemption.borrowWithinCohort.policy", "Never"},
    {"flavorFungibility.whenCanBorrow", "MayStopSearch"},
    {"flavorFungibility.whenCanPreempt", "TryNextFlavor"},
    {"stopPolicy", "None"},
};

bool one_of(const std::string& v, std::initializer_list<const char*> allowed) {
    for (const char* a : allowed)
        if (v == a) return true;
    return false;
}

struct Draft {
    std::size_t item = 0;
    std::string name;
    std::string cluster_queue;
    std::vector<std::pair<std::string, std::size_t>> namespaces;  // namespace -> LocalQueue item
    bool select_all = false;
    Node selector;  // explicit selector, or null
    std::string cohort;
    std::map<std::string, std::string> settings;  // kSettings key -> value (absent = Kueue's default)
    Node threshold, preference, weight;
    bool has_queues = false;
    Node quota;
};

// Settings from the ClusterQueue's spec. Values outside the enums are left
// out: the comparison then finds the difference and keeps the queue whole.
void read_settings(const Node& spec, Draft& d) {
    auto put = [&](const char* key, std::string v, std::initializer_list<const char*> allowed) {
        if (!v.empty() && one_of(v, allowed)) d.settings[key] = std::move(v);
    };
    put("queueingStrategy", text_at(spec, {"queueingStrategy"}), {"BestEffortFIFO", "StrictFIFO"});
    put("preemption.reclaimWithinCohort", text_at(spec, {"preemption", "reclaimWithinCohort"}), {"Never", "LowerPriority", "Any"});
    put("preemption.withinClusterQueue", text_at(spec, {"preemption", "withinClusterQueue"}),
        {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
    put("preemption.borrowWithinCohort.policy", text_at(spec, {"preemption", "borrowWithinCohort", "policy"}),
        {"Never", "LowerPriority"});
    // Kueue before 0.15 spells MayStopSearch as Borrow and Preempt.
    std::string borrow = text_at(spec, {"flavorFungibility", "whenCanBorrow"});
    put("flavorFungibility.whenCanBorrow", borrow == "Borrow" ? "MayStopSearch" : borrow, {"MayStopSearch", "TryNextFlavor"});
    std::string preempt = text_at(spec, {"flavorFungibility", "whenCanPreempt"});
    put("flavorFungibility.whenCanPreempt", preempt == "Preempt" ? "MayStopSearch" : preempt, {"MayStopSearch", "TryNextFlavor"});
    put("stopPolicy", text_at(spec, {"stopPolicy"}), {"None", "Hold", "HoldAndDrain"});
    if (const Node* t = at(spec, {"preemption", "borrowWithinCohort", "maxPriorityThreshold"}); t && t->kind() == Node::Kind::Int)
        d.threshold = *t;
    std::string pref = text_at(spec, {"flavorFungibility", "preference"});
    if (one_of(pref, {"BorrowingOverPreemption", "PreemptionOverBorrowing"})) d.preference = Node::string(pref);
    d.weight = fair_sharing_weight(at(spec, {"fairSharing"}));
}

std::string value_or_default(const Draft& d, const Setting& s) {
    auto it = d.settings.find(s.key);
    return it == d.settings.end() ? s.fallback : it->second;
}

// Whether the team has an opinion on the setting (LocalQueue settings only
// matter to teams that have LocalQueues).
bool votes(const Draft& d, const Setting& s) {
    std::string_view k = s.key;
    return d.has_queues || (k != "localQueue" && k != "defaultQueue");
}

// The most common value of each setting when more than half the teams (and
// at least two) share it and it is not the default anyway.
std::map<std::string, std::string> hoist(const std::vector<Draft>& drafts) {
    std::map<std::string, std::string> out;
    for (const auto& s : kSettings) {
        std::map<std::string, std::size_t> count;
        std::size_t voters = 0;
        for (const auto& d : drafts)
            if (votes(d, s)) ++count[value_or_default(d, s)], ++voters;
        std::string best;
        std::size_t n = 0;
        for (const auto& [v, c] : count)
            if (c > n) best = v, n = c;
        if (n >= 2 && n * 2 > voters && best != s.fallback) out[s.key] = best;
    }
    return out;
}

// Writes "a.b.c" = value into a map, creating the inner maps.
void put_path(Node& m, std::string_view key, Node value) {
    std::vector<std::string> keys;
    for (std::size_t start = 0;;) {
        auto dot = key.find('.', start);
        keys.emplace_back(key.substr(start, dot - start));
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    set_path(m, keys, std::move(value));
}

Node setting_node(std::string_view key, const std::string& v) {
    if (key == "defaultQueue") return Node::boolean(v == "true");
    return Node::string(v);
}

// The selector the site writes for a list of namespaces (lower/selector.cpp),
// or an empty list when `sel` is not of that shape.
std::vector<std::string> namespaces_of_site_selector(const Node& sel) {
    if (!sel.is_map() || sel.size() != 1) return {};
    if (const Node* ml = sel.find("matchLabels"); ml && ml->is_map() && ml->size() == 1) {
        const Node* v = ml->find(kNameLabel);
        if (v && v->is_scalar()) return {v->text()};
        return {};
    }
    const Node* me = sel.find("matchExpressions");
    if (!me || !me->is_seq() || me->size() != 1) return {};
    const Node& x = me->items()[0];
    if (!x.is_map() || x.size() != 3 || text_at(x, {"key"}) != kNameLabel || text_at(x, {"operator"}) != "In") return {};
    const Node* values = x.find("values");
    if (!values || !values->is_seq() || values->size() < 2) return {};
    std::vector<std::string> out;
    for (const auto& v : values->items()) out.push_back(v.text());
    return out;
}

std::string unique_name(std::string want, std::set<std::string>& taken) {
    if (taken.insert(want).second) return want;
    for (int n = 2;; ++n) {
        std::string suffix = "-" + std::to_string(n);
        std::string candidate = want.substr(0, 63 - suffix.size()) + suffix;
        if (taken.insert(candidate).second) return candidate;
    }
}

}  // namespace

void add_teams(Assembly& a) {
    a.teams = Node::sequence();
    a.team_defaults = Node::mapping();

    // Team names: queueforge's own team label when the object is queueforge's, else the queue's name.
    std::vector<Draft> drafts;
    std::set<std::string> taken;
    std::unordered_map<std::string, std::size_t> team_of_queue;
    std::vector<std::size_t> queues = a.queues;
    std::stable_sort(queues.begin(), queues.end(), [&](std::size_t x, std::size_t y) { return a.item(x).name < a.item(y).name; });
    for (std::size_t i : queues) {
        const Item& it = a.item(i);
        Draft d;
        d.item = i;
        d.cluster_queue = it.name;
        std::string label = text_at(it.doc, {"metadata", "labels", "queueforge.io/team"});
        bool ours = text_at(it.doc, {"metadata", "labels", "app.kubernetes.io/managed-by"}) == "queueforge";
        std::string want = ours && check_dns1123_label(label).empty() ? label : it.name;
        d.name = unique_name(want, taken);
        d.cohort = cohort_of(it.doc);
        if (const Node* spec = it.doc.find("spec")) read_settings(*spec, d);
        d.quota = quota_from_groups(at(it.doc, {"spec", "resourceGroups"}));
        team_of_queue[it.name] = drafts.size();
        drafts.push_back(std::move(d));
    }

    std::unordered_set<std::string> all_queues;
    for (const auto& it : a.in.items)
        if (it.kind == Kind::ClusterQueue) all_queues.insert(it.name);
    // LocalQueues by team and name.
    std::vector<std::map<std::string, std::vector<std::size_t>>> by_name(drafts.size());
    for (std::size_t i : a.local_queues) {
        const Item& it = a.item(i);
        std::string cq = text_at(it.doc, {"spec", "clusterQueue"});
        auto team = team_of_queue.find(cq);
        if (team == team_of_queue.end()) {
            bool present = all_queues.count(cq) > 0;
            a.unused[i] = "its ClusterQueue \"" + cq + "\" " + (present ? "is kept as passthrough" : "is not in the input");
            continue;
        }
        if (!check_dns1123_label(it.name).empty()) {
            a.unused[i] = "its name is not a DNS-1123 label, which a team's localQueue must be";
            continue;
        }
        by_name[team->second][it.name].push_back(i);
    }
    for (std::size_t t = 0; t < drafts.size(); ++t) {
        Draft& d = drafts[t];
        // The site gives a team one LocalQueue name: the one most of its
        // namespaces use (ties: the first name).
        std::string chosen;
        std::size_t n = 0;
        for (const auto& [name, lqs] : by_name[t])
            if (lqs.size() > n) chosen = name, n = lqs.size();
        bool all_default = true;
        for (const auto& [name, lqs] : by_name[t]) {
            for (std::size_t i : lqs) {
                if (name != chosen) {
                    a.unused[i] = "team \"" + d.name + "\" already has LocalQueues named \"" + chosen +
                                  "\" and the site gives each team one LocalQueue name";
                    continue;
                }
                d.namespaces.emplace_back(a.item(i).ns, i);
                if (text_at(a.item(i).doc, {"metadata", "annotations", "kueue.x-k8s.io/default-queue"}) != "true")
                    all_default = false;
            }
        }
        d.has_queues = !d.namespaces.empty();
        if (d.has_queues) {
            d.settings["localQueue"] = chosen;
            d.settings["defaultQueue"] = all_default ? "true" : "false";
        }

        // Namespaces in the selector's order when the selector is the one the
        // site writes for them; otherwise the selector is kept as written.
        const Node* sel = at(a.item(d.item).doc, {"spec", "namespaceSelector"});
        std::sort(d.namespaces.begin(), d.namespaces.end());
        std::vector<std::string> have;
        for (const auto& [ns, _] : d.namespaces) have.push_back(ns);
        std::vector<std::string> listed = sel ? namespaces_of_site_selector(*sel) : std::vector<std::string>{};
        std::vector<std::string> listed_sorted = listed;
        std::sort(listed_sorted.begin(), listed_sorted.end());
        if (sel && sel->is_map() && sel->size() == 0) {
            d.select_all = true;
        } else if (!listed.empty() && listed_sorted == have &&
                   std::adjacent_find(listed_sorted.begin(), listed_sorted.end()) == listed_sorted.end()) {
            std::map<std::string, std::size_t> lq_of(d.namespaces.begin(), d.namespaces.end());
            std::vector<std::pair<std::string, std::size_t>> ordered;
            for (const auto& ns : listed) ordered.emplace_back(ns, lq_of.at(ns));
            d.namespaces = std::move(ordered);
        } else if (sel) {
            d.selector = *sel;
        }
    }

    auto defaults = hoist(drafts);
    for (const auto& s : kSettings)
        if (auto it = defaults.find(s.key); it != defaults.end()) put_path(a.team_defaults, s.key, setting_node(s.key, it->second));

    for (const auto& d : drafts) {
        Node team = Node::mapping();
        team.set("name", Node::string(d.name));
        if (d.cluster_queue != d.name) team.set("clusterQueue", Node::string(d.cluster_queue));
        Node namespaces = Node::sequence();
        for (const auto& [ns, _] : d.namespaces) namespaces.push(Node::string(ns));
        if (namespaces.size()) team.set("namespaces", std::move(namespaces));
        if (d.select_all) team.set("namespaceSelector", Node::string("all"));
        else if (!d.selector.is_null()) team.set("namespaceSelector", d.selector);
        if (!d.cohort.empty()) team.set("cohort", Node::string(d.cohort));
        for (const auto& s : kSettings) {
            if (!votes(d, s)) continue;
            std::string mine = value_or_default(d, s);
            auto hoisted = defaults.find(s.key);
            std::string effective = hoisted == defaults.end() ? s.fallback : hoisted->second;
            if (mine != effective) put_path(team, s.key, setting_node(s.key, mine));
        }
        if (!d.threshold.is_null()) put_path(team, "preemption.borrowWithinCohort.maxPriorityThreshold", d.threshold);
        if (!d.preference.is_null()) put_path(team, "flavorFungibility.preference", d.preference);
        if (!d.weight.is_null()) team.set("fairSharingWeight", d.weight);
        team.set("quota", d.quota);

        stamp(team, a.model.element({d.item}));
        // Each namespace stands for its LocalQueue.
        if (Node* list = team.find("namespaces"))
            for (std::size_t k = 0; k < list->items().size(); ++k)
                list->items()[k].set_mark(a.model.element({d.namespaces[k].second}));
        a.teams.push(std::move(team));

        a.produce(d.item, "ClusterQueue", "", d.cluster_queue);
        for (const auto& [ns, lq] : d.namespaces) {
            a.produce(lq, "LocalQueue", ns, a.item(lq).name);
            a.team_namespaces.emplace_back(ns, lq);
        }
    }
}

}  // namespace queueforge::importer
