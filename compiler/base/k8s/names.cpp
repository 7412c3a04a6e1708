#include <queueforge/base/names.hpp>

namespace queueforge {

namespace {

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

bool label_chars(std::string_view s) {
    if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
    for (char c : s)
        if (!lower_alnum(c) && c != '-') return false;
    return true;
}

// The "name" part of a qualified name: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?
bool qualified_chars(std::string_view s) {
    if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
    for (char c : s)
        if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
    return true;
}

const char* kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name', or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const char* kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const char* kQualifiedMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName', or 'my.name', or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const char* kLabelValueMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

}  // namespace

std::string check_dns1123_label(std::string_view s) {
    if (s.size() > 63) return "must be no more than 63 characters";
    if (!label_chars(s)) return kLabelMsg;
    return {};
}

std::string check_dns1123_subdomain(std::string_view s) {
    if (s.size() > 253) return "must be no more than 253 characters";
    std::size_t start = 0;
    while (true) {
        std::size_t dot = s.find('.', start);
        std::string_view part = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (!label_chars(part)) return kSubdomainMsg;
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return {};
}

std::string check_qualified_name(std::string_view s) {
    std::string_view name = s;
    std::size_t slash = s.find('/');
    if (slash != std::string_view::npos) {
        std::string_view prefix = s.substr(0, slash);
        name = s.substr(slash + 1);
        if (prefix.empty()) return "prefix part must be non-empty";
        std::string p = check_dns1123_subdomain(prefix);
        if (!p.empty()) return "prefix part " + p;
        if (name.find('/') != std::string_view::npos) return kQualifiedMsg;
    }
    if (name.empty()) return "name part must be non-empty";
    if (name.size() > 63) return "name part must be no more than 63 characters";
    if (!qualified_chars(name)) return kQualifiedMsg;
    return {};
}

std::string check_label_value(std::string_view s) {
    if (s.size() > 63) return "must be no more than 63 characters";
    if (!s.empty() && !qualified_chars(s)) return kLabelValueMsg;
    return {};
}

}  // namespace queueforge
