// model::FieldReader (field_reader.hpp): typed fields with positioned findings.
#include <queueforge/base/node_read.hpp>
#include <queueforge/model/field_reader.hpp>

#include <cctype>
#include <cmath>
#include <string_view>

namespace queueforge::model {

std::string scalar_text(const Node* n) { return queueforge::text(n); }

Diagnostic FieldReader::finding(Severity s, const Node* at, const std::string& msg, const std::string& rule) const {
    return object_finding(r, s, at, r.ref.display() + ": " + msg, rule);
}

void FieldReader::error(const Node* at, const std::string& msg, const std::string& rule) const {
    diags.add(finding(Severity::Error, at, msg, rule));
}

void FieldReader::warning(const Node* at, const std::string& msg, const std::string& rule) const {
    diags.add(finding(Severity::Warning, at, msg, rule));
}

const Node* FieldReader::map_at(const Node* n, const char* key) const {
    if (!n || !n->is_map()) return nullptr;
    const Node* v = n->find(key);
    if (!v || v->is_null()) return nullptr;
    if (!v->is_map()) {
        error(v, std::string("field ") + key + " must be a map; ignored");
        return nullptr;
    }
    return v;
}

const Node* FieldReader::seq_at(const Node* n, const char* key) const {
    if (!n || !n->is_map()) return nullptr;
    const Node* v = n->find(key);
    if (!v || v->is_null()) return nullptr;
    if (!v->is_seq()) {
        error(v, std::string("field ") + key + " must be a list; ignored");
        return nullptr;
    }
    return v;
}

std::string FieldReader::str_at(const Node* n, const char* key) const {
    if (!n || !n->is_map()) return {};
    const Node* v = n->find(key);
    if (!v || v->is_null()) return {};
    if (!v->is_scalar()) {
        error(v, std::string("field ") + key + " must be a scalar; ignored");
        return {};
    }
    return v->text();
}

std::optional<std::int64_t> FieldReader::int_at(const Node* n, const char* key) const {
    if (!n || !n->is_map()) return std::nullopt;
    const Node* v = n->find(key);
    if (!v || v->is_null()) return std::nullopt;
    auto i = v->is_scalar() ? v->as_int() : std::nullopt;
    if (!i) {
        // Quoted integers ("3") are what some generators write; accept them.
        std::string t = scalar_text(v);
        bool digits = !t.empty();
        std::size_t start = (t.size() > 1 && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
        for (std::size_t k = start; k < t.size(); ++k)
            if (!std::isdigit(static_cast<unsigned char>(t[k]))) digits = false;
        if (digits && t.size() < 19) return std::stoll(t);
        error(v, std::string("field ") + key + " must be an integer; ignored");
        return std::nullopt;
    }
    return i;
}

std::optional<bool> FieldReader::bool_at(const Node* n, const char* key) const {
    if (!n || !n->is_map()) return std::nullopt;
    const Node* v = n->find(key);
    if (!v || v->is_null()) return std::nullopt;
    std::string t = scalar_text(v);
    if (t == "true") return true;
    if (t == "false") return false;
    error(v, std::string("field ") + key + " must be a boolean; ignored");
    return std::nullopt;
}

std::optional<Quantity> FieldReader::quantity(const Node* v, const std::string& what) const {
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_scalar()) {
        error(v, what + " must be a quantity");
        return std::nullopt;
    }
    std::string err;
    auto q = Quantity::parse(v->text(), &err);
    if (!q) error(v, what + ": invalid quantity \"" + v->text() + "\": " + err);
    return q;
}

std::optional<std::int64_t> parse_go_duration(const std::string& text) {
    std::string_view s = text;
    bool neg = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s == "0") return 0;
    if (s.empty()) return std::nullopt;
    long double total = 0;
    while (!s.empty()) {
        std::size_t i = 0;
        long double v = 0;
        bool digits = false;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0'), digits = true;
        if (i < s.size() && s[i] == '.') {
            ++i;
            long double scale = 0.1L;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') v += (s[i++] - '0') * scale, scale /= 10, digits = true;
        }
        if (!digits) return std::nullopt;
        std::size_t u = i;
        while (u < s.size() && !(s[u] >= '0' && s[u] <= '9') && s[u] != '.') ++u;
        const std::string_view unit = s.substr(i, u - i);
        long double mult;
        if (unit == "ns") mult = 1;
        else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") mult = 1e3L;
        else if (unit == "ms") mult = 1e6L;
        else if (unit == "s") mult = 1e9L;
        else if (unit == "m") mult = 60e9L;
        else if (unit == "h") mult = 3600e9L;
        else return std::nullopt;
        total += v * mult;
        s.remove_prefix(u);
    }
    if (total > 9.2e18L) return std::nullopt;  // Go: invalid duration (overflow)
    const auto ns = static_cast<std::int64_t>(std::llroundl(total));
    return neg ? -ns : ns;
}

}  // namespace queueforge::model
