// Object-level changes between two builds: added, removed and changed
// objects, changed fields (list items that have a `name` matched by name, so
// a reordered flavor list reads as what it is), and quotas before -> after.
#include "integrations/diff/compare.hpp"

#include <queueforge/base/node_json.hpp>

#include <algorithm>
#include <map>
#include <tuple>

namespace queueforge::diff::detail {

namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name

std::string text_of(const Node* n) {
    if (!n) return "";
    if (n->is_scalar()) return n->kind() == Node::Kind::Null ? "null" : n->text();
    return to_json(*n).dump();
}

std::string item_label(const Node& item, std::size_t i) {
    if (item.is_map())
        if (const Node* name = item.find("name"); name && name->is_scalar()) return "[" + name->text() + "]";
    return "[" + std::to_string(i) + "]";
}

void diff_nodes(const Node* a, const Node* b, const std::string& path, std::vector<FieldChange>& out) {
    if (a && b && a->same_as(*b)) return;
    if (a && b && a->is_map() && b->is_map()) {
        for (const auto& e : a->entries()) diff_nodes(&e.value, b->find(e.key), path.empty() ? e.key.str() : path + "." + e.key, out);
        for (const auto& e : b->entries())
            if (!a->find(e.key)) diff_nodes(nullptr, &e.value, path.empty() ? e.key.str() : path + "." + e.key, out);
        return;
    }
    if (a && b && a->is_seq() && b->is_seq()) {
        // Match items by label; unmatched ones are added or removed.
        std::map<std::string, const Node*> left, right;
        std::vector<std::string> order;
        for (std::size_t i = 0; i < a->items().size(); ++i) {
            std::string l = item_label(a->items()[i], i);
            if (left.emplace(l, &a->items()[i]).second) order.push_back(l);
        }
        for (std::size_t i = 0; i < b->items().size(); ++i) {
            std::string l = item_label(b->items()[i], i);
            if (right.emplace(l, &b->items()[i]).second && !left.count(l)) order.push_back(l);
        }
        if (left.size() != a->items().size() || right.size() != b->items().size()) {
            out.push_back({path, text_of(a), text_of(b)});  // duplicate names: compare whole
            return;
        }
        for (const auto& l : order) {
            auto ia = left.find(l);
            auto ib = right.find(l);
            diff_nodes(ia == left.end() ? nullptr : ia->second, ib == right.end() ? nullptr : ib->second, path + l, out);
        }
        return;
    }
    out.push_back({path, text_of(a), text_of(b)});
}

// (flavor, resource) -> field -> value of a ClusterQueue's resourceGroups.
using Quotas = std::map<std::pair<std::string, std::string>, std::map<std::string, std::string>>;

Quotas quotas_of(const Object& o) {
    Quotas q;
    const Node* rgs = o.doc.find("spec") ? o.doc.find("spec")->find("resourceGroups") : nullptr;
    if (!rgs || !rgs->is_seq()) return q;
    for (const auto& rg : rgs->items()) {
        const Node* flavors = rg.is_map() ? rg.find("flavors") : nullptr;
        if (!flavors || !flavors->is_seq()) continue;
        for (const auto& f : flavors->items()) {
            const Node* fname = f.is_map() ? f.find("name") : nullptr;
            const Node* res = f.is_map() ? f.find("resources") : nullptr;
            if (!fname || !res || !res->is_seq()) continue;
            for (const auto& r : res->items()) {
                const Node* rname = r.is_map() ? r.find("name") : nullptr;
                if (!rname) continue;
                auto& fields = q[{fname->text(), rname->text()}];
                for (const char* field : {"nominalQuota", "borrowingLimit", "lendingLimit"})
                    if (const Node* v = r.find(field)) fields[field] = v->text();
            }
        }
    }
    return q;
}

}  // namespace

void diff_objects(const std::vector<Object>& base, const std::vector<Object>& head, Review& r) {
    std::map<Key, const Object*> a, b;
    for (const auto& o : base) a[{o.kind, o.namespace_, o.name}] = &o;
    for (const auto& o : head) b[{o.kind, o.namespace_, o.name}] = &o;
    std::map<Key, int> keys;
    for (const auto& [k, o] : a) keys[k] |= 1;
    for (const auto& [k, o] : b) keys[k] |= 2;
    for (const auto& [k, where] : keys) {
        ObjectChange c{std::get<0>(k), std::get<1>(k), std::get<2>(k), "", {}};
        const Object* oa = where & 1 ? a[k] : nullptr;
        const Object* ob = where & 2 ? b[k] : nullptr;
        if (!oa) c.change = "Added";
        else if (!ob) c.change = "Removed";
        else {
            diff_nodes(&oa->doc, &ob->doc, "", c.fields);
            if (c.fields.empty()) continue;
            c.change = "Changed";
        }
        if (c.kind == "ClusterQueue") {
            Quotas qa = oa ? quotas_of(*oa) : Quotas{}, qb = ob ? quotas_of(*ob) : Quotas{};
            std::map<std::pair<std::string, std::string>, int> frs;
            for (const auto& [fr, f] : qa) frs[fr] |= 1;
            for (const auto& [fr, f] : qb) frs[fr] |= 2;
            for (const auto& entry : frs) {
                const auto& fr = entry.first;  // a lambda may not capture a structured binding in clang 14
                for (const char* field : {"nominalQuota", "borrowingLimit", "lendingLimit"}) {
                    auto get = [&](const Quotas& q) -> std::string {
                        auto it = q.find(fr);
                        if (it == q.end()) return "";
                        auto f = it->second.find(field);
                        return f == it->second.end() ? "" : f->second;
                    };
                    std::string before = get(qa), after = get(qb);
                    if (before != after) r.quotas.push_back({c.name, fr.first, fr.second, field, before, after});
                }
            }
        }
        r.objects.push_back(std::move(c));
    }
}

}  // namespace queueforge::diff::detail
