#pragma once
// Shared by the tests of compiler/checks/rules (one file per subject in this
// folder): objects from YAML text, the per-object and cross-object entry
// points, and expectations on findings by rule id, path and position.
#include <catch2/catch.hpp>

#include <queueforge/checks/rules.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rules_test {

using namespace queueforge;

// YAML written as raw string literals starts right after `R"(` plus one
// newline; dropping that newline makes line 1 the first line of the text.
inline std::string yaml(const char* text) {
    std::string s = text;
    if (!s.empty() && s.front() == '\n') s.erase(0, 1);
    return s;
}

inline LoadedResources load(const std::string& text) {
    LoadedResources in;
    Diagnostics d;
    load_resources_from_text("x.yaml", text, in, d);
    INFO(text);
    REQUIRE_FALSE(d.has_errors());
    return in;
}

inline Diagnostics check(const std::string& text) {
    auto in = load(text);
    Diagnostics d;
    for (const auto& r : in.resources) rules::check_object(r, d);
    return d;
}

inline Diagnostics cross(const std::string& text, std::optional<std::string> target = std::nullopt) {
    auto in = load(text);
    rules::CrossOptions o;
    if (target) {
        auto t = find_target(*target);
        REQUIRE(t.target);
        o.target = t.target;
    }
    Diagnostics d;
    rules::check_cross_objects(in.resources, o, d);
    return d;
}

inline std::vector<Diagnostic> of_rule(const Diagnostics& d, const std::string& rule) {
    std::vector<Diagnostic> out;
    for (const auto& x : d.all())
        if (x.rule == rule) out.push_back(x);
    return out;
}

inline std::string dump(const Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all())
        s += std::string(severity_name(x.severity)) + " [" + x.rule + "] " + x.path + " @" + std::to_string(x.mark.line) +
             ":" + std::to_string(x.mark.col) + " " + x.message + "\n";
    return s;
}

// Exactly one finding with `rule` at `path`, `line`:`col`; returns it.
inline Diagnostic one(const Diagnostics& d, const std::string& rule, const std::string& path, int line, int col) {
    INFO(dump(d));
    auto found = of_rule(d, rule);
    REQUIRE(found.size() == 1);
    CHECK(found[0].path == path);
    CHECK(found[0].mark.line == line);
    CHECK(found[0].mark.col == col);
    CHECK(found[0].file == "x.yaml");
    return found[0];
}

inline void none(const Diagnostics& d, const std::string& rule) {
    INFO(dump(d));
    CHECK(of_rule(d, rule).empty());
}

inline void no_errors(const Diagnostics& d) {
    INFO(dump(d));
    CHECK(d.count(Severity::Error) == 0);
}

inline bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }


// A ClusterQueue whose resourceGroups are `groups` (indented under spec).
inline std::string cq(const std::string& spec_extra, const std::string& groups, const std::string& api = "v1beta2") {
    return "apiVersion: kueue.x-k8s.io/" + api +
           "\n"                                  // 1
           "kind: ClusterQueue\n"                // 2
           "metadata:\n"                         // 3
           "  name: team-a\n"                    // 4
           "spec:\n"                             // 5
           "  namespaceSelector: {}\n" +         // 6
           spec_extra + "  resourceGroups:\n" +  // 7 when spec_extra is empty
           groups;
}

inline const char* const kGoodGroups = R"(  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: default-flavor
      resources:
      - name: cpu
        nominalQuota: 9
      - name: memory
        nominalQuota: 36Gi
)";


inline const char* const kFlavor = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default-flavor
)";

}  // namespace rules_test
