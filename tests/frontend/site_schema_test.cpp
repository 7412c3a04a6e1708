// The site file's JSON Schema (schemas/site.schema.json) describes what the
// parser reads: every field the examples and starter sites use is in it.
#include "test_util.hpp"

#include <queueforge/base/node_json.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;
using json = nlohmann::json;

namespace {

const json* resolve(const json& root, const json* s) {
    while (s && s->contains("$ref")) {
        std::string ref = (*s)["$ref"];
        s = &root["definitions"][ref.substr(ref.rfind('/') + 1)];
    }
    return s;
}

// Walks `doc` along the schema; reports every key the schema does not know.
void walk(const json& root, const json* schema, const Node& doc, const std::string& path, std::vector<std::string>& unknown) {
    schema = resolve(root, schema);
    if (!schema) return;
    if (schema->contains("oneOf")) {
        for (const auto& alt : (*schema)["oneOf"]) {
            const json* a = resolve(root, &alt);
            bool is_obj = a->value("type", "") == "object";
            bool is_arr = a->value("type", "") == "array";
            if ((doc.is_map() && is_obj) || (doc.is_seq() && is_arr)) {
                walk(root, a, doc, path, unknown);
                return;
            }
        }
        return;
    }
    if (doc.is_map() && schema->contains("properties")) {
        for (const auto& e : doc.entries()) {
            if (!(*schema)["properties"].contains(e.key)) {
                unknown.push_back(path + "." + e.key);
                continue;
            }
            walk(root, &(*schema)["properties"][e.key], e.value, path + "." + e.key, unknown);
        }
    } else if (doc.is_seq() && schema->contains("items")) {
        for (const auto& i : doc.items()) walk(root, &(*schema)["items"], i, path + "[]", unknown);
    }
}

}  // namespace

TEST_CASE("site schema: is embedded, and knows every field the examples and starter sites use") {
    auto text = find_embedded("schemas/site.schema.json");
    REQUIRE(text);
    json schema = json::parse(*text);
    CHECK(schema["$schema"] == "http://json-schema.org/draft-07/schema#");
    std::vector<std::pair<std::string, std::string>> sites;
    for (const char* ex : {"seed-minimal", "multi-team", "rhoai-3", "tas", "gitops-repo/base", "gitops-repo/clusters/prod",
                           "gitops-repo/clusters/staging", "gitops-repo/clusters/dev"})
        sites.emplace_back(ex, qf_test::read_text(qf_test::source_dir() / "examples" / ex / "queueforge-site.yaml"));
    for (const auto& p : template_paths("sites/")) sites.emplace_back(p, std::string(*find_template(p)));
    for (const auto& [name, site] : sites) {
        INFO(name);
        Diagnostics d;
        auto docs = load_yaml(name, site, d);
        REQUIRE(docs.size() == 1);
        std::vector<std::string> unknown;
        walk(schema, &schema, docs[0].root, "", unknown);
        CHECK(unknown.empty());
        for (const auto& u : unknown) UNSCOPED_INFO(u);
    }
}

TEST_CASE("site schema: a field the schema lacks is caught by the walk") {
    json schema = json::parse(*find_embedded("schemas/site.schema.json"));
    Diagnostics d;
    auto docs = load_yaml("x", "apiVersion: a\nspec:\n  teams:\n    - {name: a, quotta: []}\n", d);
    std::vector<std::string> unknown;
    walk(schema, &schema, docs[0].root, "", unknown);
    CHECK(unknown == std::vector<std::string>{".spec.teams[].quotta"});
}

TEST_CASE("site: teamDefaults takes exactly what the README and the schema say", "[site][defects]") {
    json schema = json::parse(*find_embedded("schemas/site.schema.json"));
    std::vector<std::string> in_schema;
    for (const auto& [k, v] : schema["properties"]["spec"]["properties"]["teamDefaults"]["properties"].items()) in_schema.push_back(k);
    std::sort(in_schema.begin(), in_schema.end());
    // The README's row names the same settings, before "What names or sizes a team".
    std::string readme = qf_test::read_text(qf_test::source_dir() / "README.md");
    auto row = readme.find("| `teamDefaults` |");
    REQUIRE(row != std::string::npos);
    std::string line = readme.substr(row, readme.find('\n', row) - row);
    line = line.substr(0, line.find("What names or sizes"));
    std::vector<std::string> in_readme;
    for (auto b = line.find('`', line.find('|', 1)); b != std::string::npos; b = line.find('`', line.find('`', b + 1) + 1))
        in_readme.push_back(line.substr(b + 1, line.find('`', b + 1) - b - 1));
    std::sort(in_readme.begin(), in_readme.end());
    CHECK(in_readme == in_schema);

    // Every one of them parses; a per-team setting is named as such.
    std::string site = "apiVersion: queueforge.io/v1alpha1\nkind: Site\nmetadata: {name: s}\nspec:\n  target: kueue-0.19\n"
                       "  teamDefaults:\n    queueingStrategy: StrictFIFO\n    preemption: {withinClusterQueue: LowerPriority}\n"
                       "    flavorFungibility: {whenCanBorrow: MayStopSearch}\n    fairSharingWeight: 2\n    stopPolicy: None\n"
                       "    defaultQueue: false\n    localQueue: jobs\n";
    Diagnostics ok;
    CHECK(parse_site_text("s.yaml", site + "  teams: [{name: a, namespaces: [a]}]\n", ok));
    INFO(qf_test::messages(ok));
    CHECK_FALSE(ok.has_errors());
    Diagnostics bad;
    parse_site_text("s.yaml", site + "    cohort: shared\n  teams: [{name: a, namespaces: [a]}]\n", bad);
    REQUIRE(bad.has_errors());
    CHECK(qf_test::messages(bad).find("14:5 spec.teamDefaults: \"cohort\" is set per team") != std::string::npos);
}
