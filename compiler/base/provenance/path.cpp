// Field paths as diagnostics and explain spell them (provenance.hpp).
#include <queueforge/base/provenance.hpp>

namespace queueforge::provenance {

namespace {

bool simple_key(std::string_view k) {
    if (k.empty()) return false;
    for (char c : k) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
}

}  // namespace

std::string append_key(std::string_view path, std::string_view key) {
    std::string out;
    out.reserve(path.size() + key.size() + 5);
    out += path;
    if (simple_key(key)) {
        if (!path.empty()) out += '.';
        out += key;
    } else if (key.find(']') == std::string_view::npos && !key.starts_with('\'') && !key.starts_with('"') &&
               !key.empty()) {
        out += '[';
        out += key;
        out += ']';
    } else {
        out += "['";
        out += key;
        out += "']";
    }
    return out;
}

std::string append_index(std::string_view path, std::size_t i) {
    std::string out;
    out.reserve(path.size() + 6);
    out += path;
    out += '[';
    out += std::to_string(i);
    out += ']';
    return out;
}

std::optional<std::vector<PathStep>> parse_path(std::string_view path) {
    if (path.starts_with("object.")) path.remove_prefix(7);
    if (path.starts_with(".")) path.remove_prefix(1);
    std::vector<PathStep> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            // "a..b" and a trailing dot name no field.
            if (i + 1 >= path.size() || path[i + 1] == '.' || path[i + 1] == '[') return std::nullopt;
            ++i;
            continue;
        }
        PathStep step;
        if (path[i] == '[') {
            std::string_view rest = path.substr(i + 1);
            if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
                // A quoted key ends at the matching quote followed by ']'.
                const char q = rest.front();
                std::size_t close = rest.find(std::string{q, ']'}, 1);
                if (close == std::string_view::npos) return std::nullopt;
                step.key = std::string(rest.substr(1, close - 1));
                i += 1 + close + 2;
            } else {
                std::size_t close = rest.find(']');
                if (close == std::string_view::npos || close == 0) return std::nullopt;
                std::string_view inner = rest.substr(0, close);
                bool digits = inner.size() <= 9;
                for (char c : inner) digits = digits && c >= '0' && c <= '9';
                if (digits) {
                    step.is_index = true;
                    step.index = std::stoul(std::string(inner));
                } else {
                    step.key = std::string(inner);
                }
                i += 1 + close + 1;
            }
        } else {
            std::size_t end = i;
            while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
            step.key = std::string(path.substr(i, end - i));
            i = end;
            if (i < path.size() && path[i] == '.' && i + 1 >= path.size()) return std::nullopt;
        }
        steps.push_back(std::move(step));
    }
    return steps;
}

}  // namespace queueforge::provenance
