#include "checks/policy/vap_names.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>

namespace queueforge::policy {

namespace {

// The API server's field.Invalid / field.Duplicate wording.
std::string invalid(const std::string& path, const std::string& value, const std::string& why) {
    return path + ": Invalid value: \"" + value + "\": " + why;
}

}  // namespace

std::string check_cel_variable_name(std::string_view name) {
    // validation.go isCELIdentifier: IDENT ::= [_a-zA-Z][_a-zA-Z0-9]* - RESERVED.
    static constexpr std::array<std::string_view, 21> reserved{
        "true", "false", "null",   "in",      "as",        "break",  "const",
        "continue", "else", "for", "function", "if",       "import", "let",
        "loop", "package", "namespace", "return", "var",   "void",   "while"};
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    bool ok = !name.empty() && letter(name.front());
    for (char c : name) ok = ok && (letter(c) || (c >= '0' && c <= '9'));
    if (!ok) return "name is not a valid CEL identifier";
    if (std::find(reserved.begin(), reserved.end(), name) != reserved.end())
        return "name is not a valid CEL identifier (\"" + std::string(name) + "\" is a reserved word)";
    return {};
}

DocReader::NameCheck match_condition_names(DocReader& rd) {
    auto seen = std::make_shared<std::set<std::string>>();
    auto count = std::make_shared<std::size_t>(0);
    return [&rd, seen, count](const std::string& name, const std::string& path, Mark at) {
        if (++*count == kMaxMatchConditions + 1) {
            const std::string list = path.substr(0, path.rfind('['));
            rd.error(at, list + ": Too many: must have at most " + std::to_string(kMaxMatchConditions) + " items",
                     kInvalidNameRule);
        }
        if (name.empty()) {
            rd.error(at, path + ": Required value", kInvalidNameRule);
            return false;
        }
        if (std::string why = check_qualified_name(name); !why.empty()) {
            rd.error(at, invalid(path, name, why), kInvalidNameRule);
            return false;
        }
        if (!seen->insert(name).second) {
            rd.error(at, path + ": Duplicate value: \"" + name + "\"", kInvalidNameRule);
            return false;
        }
        return true;
    };
}

DocReader::NameCheck variable_names(DocReader& rd) {
    auto first = std::make_shared<std::map<std::string, std::string>>();  // name -> path of its first use
    return [&rd, first](const std::string& name, const std::string& path, Mark at) {
        if (name.find_first_not_of(" \t\n\r") == std::string::npos) {
            rd.error(at, path + ": Required value: name is not specified", kInvalidNameRule);
            return false;
        }
        if (std::string why = check_cel_variable_name(name); !why.empty()) {
            rd.error(at, invalid(path, name, why), kInvalidNameRule);
            return false;
        }
        auto [it, fresh] = first->try_emplace(name, path);
        if (!fresh)
            rd.warning(at,
                       path + ": variable \"" + name + "\" is already defined at " + it->second +
                           "; the API server accepts this and every expression sees only the last definition",
                       kDuplicateVariableRule);
        return true;
    };
}

bool check_object_name(DocReader& rd, const std::string& name, const std::string& path, Mark at) {
    if (std::string why = check_dns1123_subdomain(name); !why.empty()) {
        rd.error(at, invalid(path, name, why), kInvalidNameRule);
        return false;
    }
    return true;
}

}  // namespace queueforge::policy
