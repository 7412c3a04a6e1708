// Recording where a field of an emitted object came from (object.hpp's
// Provenance): lowering records, backends/explain reads.
#include <queueforge/base/provenance.hpp>

#include <algorithm>

namespace queueforge::provenance {

namespace {

// The child of `n` one path step names, and its position; the step is
// consumed from `path`. Non-allocating: this runs for every record.
const Node* step(const Node& n, std::string_view& path, std::size_t& position, bool& ok) {
    ok = true;
    if (path.starts_with('.')) path.remove_prefix(1);
    std::string_view key;
    bool bracket = false;
    if (path.starts_with('[')) {
        bracket = true;
        std::string_view rest = path.substr(1);
        if (rest.starts_with('\'') || rest.starts_with('"')) {
            const char close[] = {rest.front(), ']', '\0'};
            std::size_t end = rest.find(close, 1);
            if (end == std::string_view::npos) return ok = false, nullptr;
            key = rest.substr(1, end - 1);
            path.remove_prefix(1 + end + 2);
            bracket = false;  // quoted: always a key
        } else {
            std::size_t end = rest.find(']');
            if (end == std::string_view::npos || end == 0) return ok = false, nullptr;
            key = rest.substr(0, end);
            path.remove_prefix(1 + end + 1);
        }
    } else {
        std::size_t end = path.find_first_of(".[");
        key = path.substr(0, end);
        path.remove_prefix(end == std::string_view::npos ? path.size() : end);
        if (key.empty()) return ok = false, nullptr;
    }
    if (bracket && n.is_seq()) {
        std::size_t i = 0;
        if (key.size() > 9) return nullptr;
        for (char c : key) {
            if (c < '0' || c > '9') return nullptr;
            i = i * 10 + static_cast<std::size_t>(c - '0');
        }
        if (i >= n.items().size()) return nullptr;
        position = i;
        return &n.items()[i];
    }
    if (!n.is_map()) return nullptr;
    const auto& entries = n.entries();
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].key == key) {
            position = i;
            return &entries[i].value;
        }
    return nullptr;
}

}  // namespace

bool record(Object& o, std::string_view path, Mark mark, Derivation how, std::string_view rule) {
    if (path.starts_with("object.")) path.remove_prefix(7);
    Provenance::Address address{};
    std::size_t depth = 0;
    const Node* n = &o.doc;
    while (!path.empty() && path != ".") {
        std::size_t position = 0;
        bool ok = true;
        n = step(*n, path, position, ok);
        if (!n || depth == Provenance::kMaxDepth || position >= kUnaddressable) return false;
        address[depth++] = static_cast<std::uint8_t>(position);
    }
    record_at(o, address, depth, mark, how, rule);
    return true;
}

void record_at(Object& o, const Provenance::Address& node, std::size_t depth, Mark mark, Derivation how,
               std::string_view rule) {
    std::uint32_t index = 0;
    if (!rule.empty()) {
        // An object has a few dozen distinct rules; a scan keeps each once.
        auto it = std::find(o.rules.begin(), o.rules.end(), rule);
        if (it == o.rules.end()) it = o.rules.insert(o.rules.end(), std::string(rule));
        index = static_cast<std::uint32_t>(it - o.rules.begin()) + 1;
    }
    Provenance p;
    p.node = node;
    p.depth = static_cast<std::uint8_t>(depth);
    p.how = how;
    p.mark = mark;
    p.rule = index;
    o.provenance.push_back(p);
}

}  // namespace queueforge::provenance
