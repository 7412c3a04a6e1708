#include "integrations/import/compare.hpp"

#include "integrations/import/tree.hpp"

#include <queueforge/base/quantity.hpp>

#include <algorithm>
#include <unordered_set>

namespace queueforge::importer {

namespace {

Node* ensure_map(Node& parent, const char* key) {
    Node* n = parent.find(key);
    if (!n || n->is_null()) return &parent.set(key, Node::mapping());
    return n->is_map() ? n : nullptr;
}

void fill(Node* map, const char* key, const char* value) {
    if (!map) return;
    const Node* n = map->find(key);
    if (!n || n->is_null()) map->set(key, Node::string(value));
}

void respell(Node* map, const char* key, const char* from, const char* to) {
    if (!map) return;
    if (Node* n = map->find(key); n && n->is_scalar() && n->text() == from) *n = Node::string(to);
}

void rename(Node* map, const char* from, const char* to) {
    if (!map || map->find(to)) return;
    if (const Node* n = map->find(from)) {
        Node v = *n;
        map->erase(from);
        map->set(to, std::move(v));
    }
}

void canonical_quantity(Node* map, const char* key) {
    if (!map) return;
    Node* n = map->find(key);
    if (!n || !n->is_scalar() || n->is_null()) return;
    if (auto q = Quantity::parse(n->text())) *n = Node::string(q->to_string());
}

void fair_sharing(Node* spec) {
    if (!spec) return;
    Node* fs = spec->find("fairSharing");
    if (!fs || !fs->is_map()) return;
    fill(fs, "weight", "1");
    canonical_quantity(fs, "weight");
}

// coveredResources and each flavor's resources are sets to Kueue (the
// webhook only asks that the two orders agree); flavor order is preference
// and stays.
void resource_groups(Node* spec) {
    if (!spec) return;
    Node* groups = spec->find("resourceGroups");
    if (!groups || !groups->is_seq()) return;
    for (auto& g : groups->items()) {
        if (!g.is_map()) continue;
        if (Node* covered = g.find("coveredResources"); covered && covered->is_seq())
            std::stable_sort(covered->items().begin(), covered->items().end(),
                             [](const Node& a, const Node& b) { return a.text() < b.text(); });
        Node* flavors = g.find("flavors");
        if (!flavors || !flavors->is_seq()) continue;
        for (auto& f : flavors->items()) {
            Node* res = f.is_map() ? f.find("resources") : nullptr;
            if (!res || !res->is_seq()) continue;
            std::stable_sort(res->items().begin(), res->items().end(),
                             [](const Node& a, const Node& b) { return text_at(a, {"name"}) < text_at(b, {"name"}); });
            for (auto& r : res->items()) {
                if (!r.is_map()) continue;
                for (const char* k : {"nominalQuota", "borrowingLimit", "lendingLimit"}) canonical_quantity(&r, k);
            }
        }
    }
}

void drop_empty_values(Node* list) {
    if (!list || !list->is_seq()) return;
    for (auto& t : list->items())
        if (t.is_map())
            if (const Node* v = t.find("value"); v && v->is_scalar() && v->text().empty()) t.erase("value");
}

constexpr std::string_view kOwnedLabels[] = {"app.kubernetes.io/managed-by", "app.kubernetes.io/part-of",
                                             "app.kubernetes.io/component", "queueforge.io/team", "queueforge.io/pool"};
constexpr std::string_view kOwnedAnnotations[] = {"argocd.argoproj.io/sync-wave", "argocd.argoproj.io/sync-options"};

// Labels and annotations queueforge writes on every object it produces.
bool owned(const std::vector<std::string>& keys) {
    if (keys.size() != 3 || keys[0] != "metadata") return false;
    if (keys[1] == "labels") return std::find(std::begin(kOwnedLabels), std::end(kOwnedLabels), keys[2]) != std::end(kOwnedLabels);
    if (keys[1] == "annotations")
        return std::find(std::begin(kOwnedAnnotations), std::end(kOwnedAnnotations), keys[2]) != std::end(kOwnedAnnotations);
    return false;
}

const Node* at_keys(const Node& root, const std::vector<std::string>& keys) {
    const Node* cur = &root;
    for (const auto& k : keys) {
        if (!cur->is_map()) return nullptr;
        cur = cur->find(k);
        if (!cur) return nullptr;
    }
    return cur;
}

// Where to point at a path in the input: the deepest node that exists.
Mark mark_at(const Item& it, const std::vector<std::string>& keys) {
    const Node* cur = &it.doc;
    Mark m = it.mark();
    for (const auto& k : keys) {
        const Node::Entry* e = cur->is_map() ? cur->find_entry(k) : nullptr;
        if (!e) break;
        if (e->key_mark().known()) m = e->key_mark();
        cur = &e->value;
    }
    return m;
}

}  // namespace

Node normalized(const Node& doc, Kind kind) {
    Node n = doc;
    if (!n.is_map()) return n;
    // Labels and annotations compare entry by entry (queueforge's own are
    // told apart from the object's).
    if (Node* meta = ensure_map(n, "metadata")) {
        ensure_map(*meta, "labels");
        ensure_map(*meta, "annotations");
    }
    auto spec = [&]() { return ensure_map(n, "spec"); };
    switch (kind) {
    case Kind::ClusterQueue: {
        Node* s = spec();
        if (!s) break;
        rename(s, "cohort", "cohortName");
        fill(s, "queueingStrategy", "BestEffortFIFO");
        fill(s, "stopPolicy", "None");
        Node* ff = ensure_map(*s, "flavorFungibility");
        fill(ff, "whenCanBorrow", "MayStopSearch");
        fill(ff, "whenCanPreempt", "TryNextFlavor");
        // Kueue before 0.15 spells MayStopSearch as Borrow and Preempt.
        respell(ff, "whenCanBorrow", "Borrow", "MayStopSearch");
        respell(ff, "whenCanPreempt", "Preempt", "MayStopSearch");
        Node* pre = ensure_map(*s, "preemption");
        fill(pre, "reclaimWithinCohort", "Never");
        fill(pre, "withinClusterQueue", "Never");
        fill(pre ? ensure_map(*pre, "borrowWithinCohort") : nullptr, "policy", "Never");
        fair_sharing(s);
        resource_groups(s);
        break;
    }
    case Kind::Cohort: {
        Node* s = spec();
        rename(s, "parent", "parentName");
        fair_sharing(s);
        resource_groups(s);
        break;
    }
    case Kind::LocalQueue: {
        Node* s = spec();
        fill(s, "stopPolicy", "None");
        fair_sharing(s);
        break;
    }
    case Kind::ResourceFlavor: {
        Node* s = spec();
        if (!s) break;
        drop_empty_values(s->find("nodeTaints"));
        drop_empty_values(s->find("tolerations"));
        break;
    }
    case Kind::DataScienceCluster:
        if (Node* kueue = at(n, {"spec", "components", "kueue"}); kueue && kueue->is_map())
            fill(kueue, "autoCreateQueues", "false");
        break;
    default:
        break;
    }
    return n;
}

Comparison compare(const std::vector<Object>& generated, const Model& model, const std::vector<Item>& items) {
    Comparison out;
    std::unordered_set<std::string> passthrough;
    for (const auto& [i, _] : model.passthrough)
        passthrough.insert(object_key(items[i].kind_name, items[i].ns, items[i].name));
    std::vector<char> seen(items.size(), 0);
    // Differences queueforge decides by itself (its own labels, the API
    // version of the target) are reported once per field and value.
    struct Repeated {
        std::size_t count = 0;
        std::size_t item = 0;
        Mark mark;
        std::string message;
    };
    std::map<std::string, Repeated> repeated;

    for (const auto& o : generated) {
        const std::string key = object_key(o.kind, o.namespace_, o.name);
        auto found = model.expected.find(key);
        if (found == model.expected.end()) {
            if (passthrough.count(key)) continue;
            const auto& owners = o.origin.line > 0 && static_cast<std::size_t>(o.origin.line) < model.owners.size()
                                     ? model.owners[static_cast<std::size_t>(o.origin.line)]
                                     : model.owners[0];
            if (owners.empty()) continue;
            const std::string id = o.kind + "/" + (o.namespace_.empty() ? "" : o.namespace_ + "/") + o.name;
            if (o.kind == "Cohort" && is_unset(at(o.doc, {"spec"})))
                out.findings.push_back({Severity::Note, owners.front(), items[owners.front()].mark(),
                                        id + " is not in the input; the site writes an empty one, which is what Kueue "
                                             "makes of a cohort that queues only name",
                                        "import.implicit-cohort"});
            else
                out.findings.push_back({Severity::Warning, owners.front(), items[owners.front()].mark(),
                                        "the site also produces " + id + ", which is not in the input",
                                        "import.extra-object"});
            continue;
        }
        const std::size_t idx = found->second;
        const Item& it = items[idx];
        seen[idx] = 1;
        Node in = normalized(it.doc, it.kind);
        Node gen = normalized(o.doc, it.kind);
        if (it.kind == Kind::DataScienceCluster) {
            // A component the input leaves out is not installed: Removed.
            Node* in_spec = ensure_map(in, "spec");
            Node* ic = in_spec ? ensure_map(*in_spec, "components") : nullptr;
            if (const Node* gc = at(gen, {"spec", "components"}); gc && gc->is_map() && ic) {
                for (const auto& e : gc->entries()) {
                    if (text_at(e.value, {"managementState"}) != "Removed") continue;
                    if (!ic->find(e.key)) {
                        Node removed = Node::mapping();
                        removed.set("managementState", Node::string("Removed"));
                        ic->set(e.key, std::move(removed));
                    }
                }
            }
        }
        const bool lenient = it.kind == Kind::DataScienceCluster || it.kind == Kind::Namespace;
        std::string reason;
        Patch additions;
        for (const auto& d : differences(in, gen)) {
            if (d.path == "apiVersion") {
                auto& r = repeated[std::string("apiVersion") + '\0' + it.kind_name + '\0' + it.api_version + '\0' +
                                   o.api_version];
                if (r.count++ == 0)
                    r = {1, idx, mark_at(it, {"apiVersion"}),
                         it.display() + " is " + it.api_version + " in the input; the site's target writes " +
                             o.api_version};
                continue;
            }
            if (owned(d.keys) && d.type != Difference::Added) {
                if (d.type == Difference::Changed) {
                    auto& r = repeated[d.path + '\0' + text(d.input) + '\0' + text(d.generated)];
                    if (r.count++ == 0)
                        r = {1, idx, mark_at(it, d.keys),
                             d.path + " is " + brief(d.input) + " on " + it.display() + "; queueforge writes " +
                                 brief(d.generated) + " (its own label or annotation)"};
                }
                continue;
            }
            if (d.type == Difference::Added && !d.in_list) {
                const Node* value = at_keys(it.doc, d.keys);
                set_path(additions.merge, d.keys, value ? *value : *d.input);
                additions.fields.emplace_back(d.path, mark_at(it, d.keys));
                continue;
            }
            if (lenient && d.type == Difference::Missing) {
                out.findings.push_back({Severity::Warning, idx, mark_at(it, d.keys),
                                        it.display() + ": the site also sets " + d.path + " to " + brief(d.generated) +
                                            ", which the input does not",
                                        "import.difference"});
                continue;
            }
            if (reason.empty()) {
                if (d.type == Difference::Added)
                    reason = "its " + d.path + " lies inside a list, where no site field or patch can add it";
                else if (d.type == Difference::Missing)
                    reason = "the site would also set " + d.path + " to " + brief(d.generated);
                else
                    reason = "the site cannot say " + d.path + " " + brief(d.input) + " (it builds " +
                             brief(d.generated) + ")";
            }
        }
        if (!reason.empty()) out.exclude.emplace_back(idx, reason);
        else if (additions.merge.size()) out.additions.emplace(idx, std::move(additions));
    }
    for (const auto& [_, idx] : model.expected)
        if (!seen[idx]) out.exclude.emplace_back(idx, "the site does not produce it");
    for (auto& [_, r] : repeated) {
        std::string msg = r.message;
        if (r.count > 1) msg += " (and " + std::to_string(r.count - 1) + " more)";
        out.findings.push_back({Severity::Warning, r.item, r.mark, msg, "import.queueforge-metadata"});
    }
    std::sort(out.exclude.begin(), out.exclude.end());
    return out;
}

}  // namespace queueforge::importer
