#include "integrations/import/tree.hpp"

#include <queueforge/base/yaml_emit.hpp>

namespace queueforge::importer {

bool is_unset(const Node* n) {
    if (!n || n->is_null()) return true;
    return (n->is_map() || n->is_seq()) && n->size() == 0;
}

bool equivalent(const Node& a, const Node& b) {
    if (a.is_map() && b.is_map()) {
        std::size_t set_a = 0;
        for (const auto& e : a.entries()) {
            if (is_unset(&e.value)) continue;
            ++set_a;
            const Node* o = b.find(e.key);
            if (!o || !equivalent(e.value, *o)) return false;
        }
        std::size_t set_b = 0;
        for (const auto& e : b.entries())
            if (!is_unset(&e.value)) ++set_b;
        return set_a == set_b;
    }
    if (a.is_seq() && b.is_seq()) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!equivalent(a.items()[i], b.items()[i])) return false;
        return true;
    }
    if (a.is_scalar() && b.is_scalar()) return a.is_null() == b.is_null() && a.text() == b.text();
    return false;
}

namespace {

struct Walker {
    std::vector<Difference>& out;
    std::vector<std::string> keys;
    std::string path;
    bool in_list = false;

    void add(Difference::Type t, const Node* in, const Node* gen) {
        Difference d;
        d.type = t;
        d.in_list = in_list;
        if (!in_list) d.keys = keys;
        d.path = path;
        d.input = in;
        d.generated = gen;
        out.push_back(std::move(d));
    }

    void walk(const Node& in, const Node& gen) {
        if (in.is_map() && gen.is_map()) {
            for (const auto& e : in.entries()) {
                const Node* g = gen.find(e.key);
                if (is_unset(&e.value) && is_unset(g)) continue;
                enter(e.key);
                // Two maps are compared key by key even when one is empty, so
                // that a difference names the entry, not the whole map.
                if (g && e.value.is_map() && g->is_map()) walk(e.value, *g);
                else if (is_unset(g)) add(Difference::Added, &e.value, g);
                else if (is_unset(&e.value)) add(Difference::Missing, &e.value, g);
                else walk(e.value, *g);
                leave();
            }
            for (const auto& e : gen.entries()) {
                if (in.find(e.key) || is_unset(&e.value)) continue;
                enter(e.key);
                add(Difference::Missing, nullptr, &e.value);
                leave();
            }
            return;
        }
        if (in.is_seq() && gen.is_seq() && in.size() == gen.size()) {
            const bool was = in_list;
            const std::string base = path;
            in_list = true;
            for (std::size_t i = 0; i < in.size(); ++i) {
                path = base + "[" + std::to_string(i) + "]";
                walk(in.items()[i], gen.items()[i]);
            }
            path = base;
            in_list = was;
            return;
        }
        if (!equivalent(in, gen)) add(Difference::Changed, &in, &gen);
    }

    void enter(const std::string& key) {
        keys.push_back(key);
        path += (path.empty() ? "" : ".") + key;
    }
    void leave() {
        const std::string& key = keys.back();
        path.resize(path.size() - key.size() - (path.size() > key.size() ? 1 : 0));
        keys.pop_back();
    }
};

}  // namespace

std::vector<Difference> differences(const Node& input, const Node& generated) {
    std::vector<Difference> out;
    Walker w{out, {}, {}, false};
    w.walk(input, generated);
    return out;
}

void set_path(Node& root, const std::vector<std::string>& keys, Node value) {
    Node* cur = &root;
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        Node* next = cur->find(keys[i]);
        if (!next || !next->is_map()) next = &cur->set(keys[i], Node::mapping());
        cur = next;
    }
    if (!keys.empty()) cur->set(keys.back(), std::move(value));
}

std::string brief(const Node* n) {
    if (!n || n->is_null()) return "nothing";
    if (n->is_scalar()) {
        std::string t = n->text();
        if (t.size() > 60) t = t.substr(0, 57) + "...";
        return "\"" + t + "\"";
    }
    // One line of flow-ish text: the emitter's block output joined.
    std::string s = emit_yaml(*n);
    std::string flat;
    for (char c : s) flat += c == '\n' ? ' ' : c;
    while (!flat.empty() && flat.back() == ' ') flat.pop_back();
    if (flat.size() > 80) flat = flat.substr(0, 77) + "...";
    return "{" + flat + "}";
}

}  // namespace queueforge::importer
