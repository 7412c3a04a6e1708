# Writes a C++ source holding every file under ROOT/templates,
# ROOT/schemas and ROOT/policies as a byte array, so the binary carries them. Run at build time
# by add_custom_command.
file(GLOB_RECURSE files RELATIVE "${ROOT}" "${ROOT}/templates/*" "${ROOT}/schemas/*" "${ROOT}/policies/*.yaml" "${ROOT}/compiler/checks/rules/catalogue/*.yaml")
list(SORT files)
set(body "// Generated from templates/, schemas/ and policies/ by cmake/embed_templates.cmake. Do not edit.\n#include <queueforge/base/templates.hpp>\n\n#include <algorithm>\n#include <array>\n\nnamespace queueforge {\nnamespace {\n")
set(table "")
set(i 0)
foreach(f IN LISTS files)
  file(READ "${ROOT}/${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND body "const unsigned char t${i}[] = {${hex}0x00};\n")
  file(SIZE "${ROOT}/${f}" size)
  string(APPEND table "    {\"${f}\", {reinterpret_cast<const char*>(t${i}), ${size}}},\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND body "struct Entry { std::string_view path; std::string_view data; };\nconst Entry entries[] = {\n${table}    {\"\", {}},\n};\n}  // namespace\n\n")
string(APPEND body [=[
std::optional<std::string_view> find_embedded(std::string_view path) {
    for (const auto& e : entries)
        if (!e.path.empty() && e.path == path) return e.data;
    return std::nullopt;
}

std::optional<std::string_view> find_template(std::string_view path) {
    return find_embedded("templates/" + std::string(path));
}

// Declared in compiler/checks/policy/builtin.hpp: the built-in policies are listed by folder.
std::vector<std::string> embedded_paths(std::string_view prefix) {
    std::vector<std::string> out;
    for (const auto& e : entries)
        if (!e.path.empty() && e.path.starts_with(prefix)) out.emplace_back(e.path);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> template_paths(std::string_view prefix) {
    std::vector<std::string> out;
    for (const auto& e : entries)
        if (e.path.starts_with("templates/") && e.path.substr(10, prefix.size()) == prefix)
            out.emplace_back(e.path.substr(10));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace queueforge
]=])
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
