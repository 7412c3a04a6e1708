// How an overlay's document tree merges into its base's (spec.extends; the
// table in README, "Repositories with several clusters"). Nodes keep the
// marks they were read with, so the merged tree still says, for every value,
// which file and line set it.
#include "frontend/site/extends.hpp"

#include <algorithm>
#include <optional>

namespace queueforge::site {

namespace {

constexpr const char* kDelete = "$delete";

// The identity of a named list's item, or nullopt for an item that has none
// (merged as a new item; the site parser reports what is missing).
std::optional<std::string> item_key(const std::string& shape, const Node& item) {
    if (!item.is_map()) return std::nullopt;
    if (shape == "spec.patches") {
        // A patch is about one object: kind, namespace and name together.
        std::string key;
        for (const char* f : {"kind", "namespace", "name"}) {
            const Node* v = item.find(f);
            key += (v && v->is_scalar() ? v->text().str() : std::string()) + "/";
        }
        return key;
    }
    const std::string field = named_list_key(shape);
    const Node* v = item.find(field);
    if (!v || !v->is_scalar() || v->is_null()) return std::nullopt;
    return v->text();
}

std::string describe(const std::string& shape, const Node& item) {
    if (shape == "spec.patches") {
        std::string s;
        for (const char* f : {"kind", "namespace", "name"})
            if (const Node* v = item.find(f); v && v->is_scalar() && !v->text().empty())
                s += (s.empty() ? "" : "/") + v->text();
        return s;
    }
    const Node* v = item.find(named_list_key(shape));
    return v ? v->text() : "";
}

// A new item carries no $delete marker into the merged tree.
Node without_marker(Node item) {
    if (item.is_map()) item.erase(kDelete);
    return item;
}

Node merge_named_list(Node base, const Node& over, const std::string& shape, const std::string& file,
                      Diagnostics& diags) {
    Node::Items items = std::move(base.items());
    const std::string item_shape = shape + "[]";
    for (const Node& o : over.items()) {
        const auto key = item_key(shape, o);
        auto at = items.end();
        if (key)
            at = std::find_if(items.begin(), items.end(), [&](const Node& b) { return item_key(shape, b) == key; });
        const Node* del = o.is_map() ? o.find(kDelete) : nullptr;
        if (del) {
            if (del->kind() != Node::Kind::Bool || !del->as_bool()) {
                diags.error(file, del->mark(),
                            shape + ": " + kDelete + " takes true (remove the item the base defines); got \"" +
                                del->text() + "\"",
                            "extends.delete");
                continue;
            }
            if (!key) {
                diags.error(file, o.mark(),
                            shape + ": an item with " + kDelete + " must name the item to remove (" +
                                named_list_key(shape) + ")",
                            "extends.delete");
                continue;
            }
            if (at == items.end())
                diags.warning(file, del->mark(),
                              shape + ": \"" + describe(shape, o) +
                                  "\" is not defined by the base, so there is nothing to delete",
                              "extends.delete-missing");
            else
                items.erase(at);
            continue;
        }
        if (at == items.end())
            items.push_back(without_marker(o));
        else
            *at = merge_nodes(std::move(*at), o, item_shape, file, diags);
    }
    Node out = Node::sequence(over.mark());
    for (auto& i : items) out.push(std::move(i));
    return out;
}

}  // namespace

std::string named_list_key(const std::string& shape) {
    if (shape == "spec.topologies" || shape == "spec.pools" || shape == "spec.cohorts" || shape == "spec.priorityClasses" ||
        shape == "spec.teams" || shape == "spec.workloads" || shape == "spec.workloads[].podSets" ||
        shape == "spec.patches" || shape == "spec.hardwareProfiles.profiles")
        return "name";
    if (shape == "spec.teams[].quota" || shape == "spec.cohorts[].quota") return "pool";
    return "";
}

Node merge_nodes(Node base, const Node& over, const std::string& shape, const std::string& file, Diagnostics& diags) {
    if (base.is_map() && over.is_map()) {
        // A map stays where the base defined it (an object's origin), each
        // key the overlay sets is the overlay's; the document itself, its
        // metadata and spec are the overlay's (the site being read).
        if (shape.empty() || shape == "spec" || shape == "metadata") base.set_mark(over.mark());
        for (const auto& e : over.entries()) {
            auto& entries = base.entries();
            auto at = std::find_if(entries.begin(), entries.end(), [&](const Node::Entry& b) { return b.key == e.key; });
            if (e.value.is_null()) {
                if (at != entries.end()) entries.erase(at);
                continue;
            }
            const std::string child = shape.empty() ? e.key.str() : shape + "." + e.key;
            if (at == entries.end()) {
                entries.push_back({e.key, e.key_mark(), merge_nodes(Node(), e.value, child, file, diags)});
            } else {
                at->value = merge_nodes(std::move(at->value), e.value, child, file, diags);
                // The key is the overlay's where its value is (a key's file
                // is its value's); a map that stays where the base defined
                // it keeps the base's key.
                if (at->value.mark().file == e.value.mark().file) at->set_key_mark(e.key_mark());
            }
        }
        return base;
    }
    if (base.is_seq() && over.is_seq() && !named_list_key(shape).empty())
        return merge_named_list(std::move(base), over, shape, file, diags);
    if (over.is_seq() && !named_list_key(shape).empty()) {
        // A new named list: its $delete items have nothing to remove.
        return merge_named_list(Node::sequence(over.mark()), over, shape, file, diags);
    }
    return over;
}

}  // namespace queueforge::site
