// Which record answers for a field: its own, else its node's mark when the
// node was copied from the site, else the nearest recorded ancestor's, else
// the object's origin (object.hpp).
#include <queueforge/base/provenance.hpp>

#include <algorithm>

namespace queueforge {

const char* derivation_name(Derivation d) {
    switch (d) {
    case Derivation::Object: return "object";
    case Derivation::Written: return "written";
    case Derivation::Share: return "share";
    case Derivation::TeamDefaults: return "teamDefaults";
    case Derivation::Default: return "default";
    case Derivation::Target: return "target";
    case Derivation::ZeroFilled: return "zero-filled";
    case Derivation::Formed: return "formed";
    case Derivation::Generated: return "generated";
    }
    return "written";
}

}  // namespace queueforge

namespace queueforge::provenance {

namespace {

const char* kWrittenRule = "written in the site";

void append_position(std::string& out, std::size_t i) {
    using provenance::kUnaddressable;
    out += static_cast<char>(static_cast<unsigned char>(i < kUnaddressable ? i : kUnaddressable));
}

std::string_view key_of(const Provenance& p) {
    return {reinterpret_cast<const char*>(p.node.data()), p.depth};
}

}  // namespace

Resolver::Resolver(const Object& o) : obj_(&o) {
    by_node_.reserve(o.provenance.size());
    for (const auto& p : o.provenance) by_node_[key_of(p)] = &p;
}

FieldOrigin Resolver::from_record(const std::string& path, const Node* n, const Provenance& p) const {
    FieldOrigin f;
    f.path = path;
    f.value = n;
    f.mark = p.mark;
    f.how = p.how;
    if (p.rule > 0 && p.rule <= obj_->rules.size()) f.rule = obj_->rules[p.rule - 1];
    if (f.rule.empty()) f.rule = p.how == Derivation::Written ? kWrittenRule : derivation_name(p.how);
    f.from = path;
    f.own = true;
    return f;
}

FieldOrigin Resolver::whole() const {
    auto it = by_node_.find("");
    if (it != by_node_.end()) return from_record("", &obj_->doc, *it->second);
    // Objects lowered without records (a pass that records nothing) still
    // have the site element they came from.
    FieldOrigin f;
    f.value = &obj_->doc;
    f.mark = obj_->origin;
    f.how = Derivation::Object;
    f.rule = obj_->kind + " from the site";
    f.own = true;
    return f;
}

FieldOrigin Resolver::answer(const std::string& path, const std::string& address, const Node* n,
                             const FieldOrigin& parent) const {
    if (auto it = by_node_.find(address); it != by_node_.end()) return from_record(path, n, *it->second);
    if (n->mark().known()) {
        FieldOrigin f;
        f.path = path;
        f.value = n;
        f.mark = n->mark();
        f.how = Derivation::Written;
        f.rule = "copied from the site as written";
        f.from = path;
        f.own = true;
        return f;
    }
    FieldOrigin f = parent;
    f.path = path;
    f.value = n;
    f.own = false;
    return f;
}

std::optional<FieldOrigin> Resolver::field(std::string_view path) const {
    auto steps = parse_path(path);
    if (!steps) return std::nullopt;
    FieldOrigin cur = whole();
    const Node* n = &obj_->doc;
    std::string at, address;
    for (const auto& s : *steps) {
        const Node* next = nullptr;
        std::size_t position = 0;
        if (s.is_index && n->is_seq()) {
            if (s.index < n->items().size()) next = &n->items()[s.index];
            position = s.index;
            if (next) at = append_index(at, s.index);
        } else if (n->is_map()) {
            // "[12]" on a map means the key "12".
            const std::string key = s.is_index ? std::to_string(s.index) : s.key;
            const auto& entries = n->entries();
            for (std::size_t i = 0; i < entries.size() && !next; ++i)
                if (entries[i].key == key) {
                    next = &entries[i].value;
                    position = i;
                }
            if (next) at = append_key(at, key);
        }
        if (!next) return std::nullopt;
        append_position(address, position);
        n = next;
        cur = answer(at, address, n, cur);
    }
    return cur;
}

// Pre-order over the document with each node's path and address.
template <class Visit>
void Resolver::walk(const Node& n, std::string& path, std::string& address, Visit& visit) const {
    visit(n, path, address);
    const std::size_t path_len = path.size(), address_len = address.size();
    if (n.is_map()) {
        const auto& entries = n.entries();
        for (std::size_t i = 0; i < entries.size(); ++i) {
            path = append_key(path, entries[i].key);
            append_position(address, i);
            walk(entries[i].value, path, address, visit);
            path.resize(path_len);
            address.resize(address_len);
        }
    } else if (n.is_seq()) {
        const auto& items = n.items();
        for (std::size_t i = 0; i < items.size(); ++i) {
            path = append_index(path, i);
            append_position(address, i);
            walk(items[i], path, address, visit);
            path.resize(path_len);
            address.resize(address_len);
        }
    }
}

std::vector<FieldOrigin> Resolver::leaves() const {
    // Recursion carries each node's answer down to its children, which
    // inherit it when they have none of their own.
    struct Collect {
        const Resolver& r;
        std::vector<FieldOrigin>& out;
        std::string path, address;
        void children(const Node& n, const FieldOrigin& here) {
            const std::size_t path_len = path.size(), address_len = address.size();
            const std::size_t count = n.is_map() ? n.entries().size() : n.items().size();
            for (std::size_t i = 0; i < count; ++i) {
                const Node& child = n.is_map() ? n.entries()[i].value : n.items()[i];
                path = n.is_map() ? append_key(path, n.entries()[i].key) : append_index(path, i);
                append_position(address, i);
                node(child, r.answer(path, address, &child, here));
                path.resize(path_len);
                address.resize(address_len);
            }
        }
        void node(const Node& n, FieldOrigin here) {
            if ((n.is_map() || n.is_seq()) && n.size() > 0) children(n, here);
            else out.push_back(std::move(here));
        }
    };
    std::vector<FieldOrigin> out;
    Collect c{*this, out, {}, {}};
    c.node(obj_->doc, whole());
    return out;
}

std::vector<FieldOrigin> Resolver::recorded() const {
    std::vector<FieldOrigin> out;
    auto visit = [&](const Node& n, const std::string& path, const std::string& address) {
        if (address.empty()) return;
        if (auto it = by_node_.find(address); it != by_node_.end()) out.push_back(from_record(path, &n, *it->second));
    };
    std::string path, address;
    walk(obj_->doc, path, address, visit);
    return out;
}

std::vector<std::string> Resolver::paths() const {
    std::vector<std::string> out;
    auto visit = [&](const Node&, const std::string& path, const std::string& address) {
        if (!address.empty()) out.push_back(path);
    };
    std::string path, address;
    walk(obj_->doc, path, address, visit);
    return out;
}

}  // namespace queueforge::provenance
