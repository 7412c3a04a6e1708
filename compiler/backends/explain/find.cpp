// KIND/NAME and field paths as users type them, with suggestions when they
// name nothing.
#include <queueforge/backends/explain.hpp>

#include "frontend/site/reader.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::explain {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// kubectl's spellings: the kind in any case, its plural, its short names.
bool kind_matches(const std::string& kind, std::string_view typed) {
    const std::string k = lower(kind), t = lower(typed);
    if (t == k) return true;
    if (t == k + (k.ends_with("s") ? "es" : "s")) return true;
    static const std::map<std::string, std::string> kShort = {
        {"cq", "clusterqueue"}, {"lq", "localqueue"}, {"rf", "resourceflavor"}, {"flavor", "resourceflavor"},
        {"flavors", "resourceflavor"}, {"wpc", "workloadpriorityclass"}, {"ns", "namespace"},
        {"dsc", "datasciencecluster"}};
    auto it = kShort.find(t);
    return it != kShort.end() && it->second == k;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

std::string list(const std::vector<std::string>& names, std::size_t max) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < max; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > max) out += ", ... (" + std::to_string(names.size() - max) + " more)";
    return out;
}

}  // namespace

std::string object_ref(const Object& o) {
    return o.kind + "/" + (o.namespace_.empty() ? "" : o.namespace_ + "/") + o.name;
}

const Object* find_object(const std::vector<Object>& objects, std::string_view ref, std::string& error) {
    auto parts = split(ref, '/');
    if (parts.size() < 2 || parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](auto p) { return p.empty(); })) {
        error = "\"" + std::string(ref) + "\" is not KIND/NAME or KIND/NAMESPACE/NAME (e.g. ClusterQueue/llm)";
        return nullptr;
    }
    const std::string_view kind = parts[0], name = parts.back();
    const std::string_view ns = parts.size() == 3 ? parts[1] : std::string_view{};
    std::vector<const Object*> of_kind;
    for (const auto& o : objects)
        if (kind_matches(o.kind, kind)) of_kind.push_back(&o);

    std::vector<const Object*> hits;
    for (const Object* o : of_kind)
        if (o->name == name && (parts.size() == 2 || o->namespace_ == ns)) hits.push_back(o);
    if (hits.size() == 1) return hits.front();
    if (hits.size() > 1) {
        // KIND/NAME of a namespaced kind is enough while the name is unique.
        std::vector<std::string> refs;
        for (const Object* o : hits) refs.push_back(object_ref(*o));
        error = std::string(ref) + " is ambiguous: " + list(refs, 10) + "; name the namespace (KIND/NAMESPACE/NAME)";
        return nullptr;
    }

    std::vector<std::string> all;
    for (const auto& o : objects) all.push_back(object_ref(o));
    error = "the site produces no " + std::string(ref);
    if (of_kind.empty()) {
        std::set<std::string> kinds;
        for (const auto& o : objects) kinds.insert(o.kind);
        std::vector<std::string> kv(kinds.begin(), kinds.end());
        // Case does not count, as for kind_matches.
        std::vector<std::string> lowered;
        for (const auto& k : kv) lowered.push_back(lower(k));
        std::string hint = site::did_you_mean(lower(kind), lowered);
        for (std::size_t i = 0; i < kv.size(); ++i)
            if (!hint.empty() && lowered[i] == hint) hint = kv[i];
        error += "; it produces no object of kind \"" + std::string(kind) + "\"";
        if (!hint.empty()) error += "; did you mean " + hint + "?";
        else error += " (kinds: " + list(kv, 10) + ")";
        return nullptr;
    }
    // Compare with the kind as written in the output so only the name counts.
    std::vector<std::string> same_kind;
    for (const Object* o : of_kind) same_kind.push_back(object_ref(*o));
    std::string typed = of_kind.front()->kind + "/" + (parts.size() == 3 ? std::string(ns) + "/" : "") + std::string(name);
    std::string hint = site::did_you_mean(typed, same_kind);
    if (hint.empty()) {
        // A namespaced name given without its namespace, or the other way round.
        for (const Object* o : of_kind)
            if (o->name == name || (o->namespace_ + "/" + o->name) == name) hint = object_ref(*o);
    }
    if (!hint.empty())
        error += "; did you mean " + hint + "?";
    else
        error += " (" + of_kind.front()->kind + ": " + list(same_kind, 10) + ")";
    return nullptr;
}

std::string unknown_field_message(const Resolver& r, std::string_view path) {
    const std::string ref = object_ref(r.object());
    auto steps = parse_path(path);
    if (!steps)
        return "\"" + std::string(path) +
               "\" is not a field path (e.g. spec.resourceGroups[0].flavors[1].resources[2].nominalQuota, "
               "metadata.labels[queueforge.io/team])";
    std::string msg = "no field " + std::string(path) + " in " + ref;
    std::string hint = site::did_you_mean(path, r.paths());
    if (!hint.empty()) return msg + "; did you mean " + hint + "?";
    // Otherwise say what the deepest existing part of the path holds.
    const Node* n = &r.object().doc;
    std::string at;
    for (const auto& s : *steps) {
        const Node* next = nullptr;
        if (s.is_index && n->is_seq() && s.index < n->items().size()) next = &n->items()[s.index];
        else if (n->is_map()) next = n->find(s.is_index ? std::to_string(s.index) : s.key);
        if (!next) break;
        at = s.is_index && n->is_seq() ? append_index(at, s.index) : append_key(at, s.is_index ? std::to_string(s.index) : s.key);
        n = next;
    }
    const std::string where = at.empty() ? "the object" : at;
    if (n->is_map()) {
        std::vector<std::string> keys;
        for (const auto& e : n->entries()) keys.push_back(e.key);
        msg += "; " + where + " has " + (keys.empty() ? std::string("no fields") : list(keys, 20));
    } else if (n->is_seq()) {
        msg += "; " + where + " is a list of " + std::to_string(n->items().size()) + " item" +
               (n->items().size() == 1 ? "" : "s");
    } else {
        msg += "; " + where + " is a value, not a map or list";
    }
    return msg;
}

}  // namespace queueforge::explain
