#include "checks/policy/findings.hpp"

#include "checks/policy/field_path.hpp"

namespace queueforge::policy {

void report(const Cluster& c, const Finding& f, Diagnostics& out) {
    const Resource& r = c.objects[f.object];
    const Node* at = f.field_path.empty() ? nullptr : resolve_field_path(r.doc, f.field_path);
    out.add(object_finding(r, f.severity, at, f.message, f.rule, f.field_path));
}

std::string describe(const cel::Value& v) {
    if (v.kind() == cel::Value::Kind::String) return v.as_string();
    if (v.is_error()) return v.error_message();
    return v.debug_string();
}

std::string excerpt(const std::string& expression) {
    std::string s;
    bool space = false;
    for (char ch : expression) {
        const bool ws = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
        if (ws) {
            space = !s.empty();
            continue;
        }
        if (space) s += ' ';
        space = false;
        s += ch;
    }
    constexpr std::size_t kMax = 80;
    if (s.size() > kMax) {
        std::size_t cut = kMax - 3;
        // Not inside a UTF-8 sequence: back up over continuation bytes.
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        s = s.substr(0, cut) + "...";
    }
    return s;
}

}  // namespace queueforge::policy
