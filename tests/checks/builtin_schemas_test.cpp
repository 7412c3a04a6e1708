// The built-in schemas under schemas/kueue and schemas/opendatahub are our own
// condensed copies of the upstream CRDs' openAPIV3Schema. These tests keep them
// honest: each one is walked in parallel with the CRD version it stands for
// (from ../shared/upstream), and every constraint that matters for validation
// must be equal; each must also be embedded in the binary and load cleanly.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/templates.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Builtin {
    std::string file;     // relative to the repository root (and the embedded name)
    std::string crd;      // relative to QF_SHARED_DIR
    std::string version;  // spec.versions[].name in that CRD
};

std::vector<Builtin> builtins() {
    const std::string kueue_crds = "upstream/kueue/v0.19.2/kueue.x-k8s.io_";
    const std::string dsc_crd = "upstream/opendatahub/odh-bundle_3.5.0/datasciencecluster.opendatahub.io_datascienceclusters.yaml";
    const std::pair<const char*, const char*> kueue[] = {
        {"resourceflavor", "resourceflavors"}, {"clusterqueue", "clusterqueues"},
        {"localqueue", "localqueues"},         {"cohort", "cohorts"},
        {"workloadpriorityclass", "workloadpriorityclasses"}, {"workload", "workloads"},
        {"admissioncheck", "admissionchecks"}, {"topology", "topologies"}};
    std::vector<Builtin> out;
    for (const char* v : {"v1beta1", "v1beta2"})
        for (const auto& [stem, plural] : kueue)
            out.push_back({std::string("schemas/kueue/") + v + "/" + stem + ".yaml", kueue_crds + plural + ".yaml", v});
    out.push_back({"schemas/kueue/v1alpha1/cohort.yaml", "upstream/kueue/v0.10.6/kueue.x-k8s.io_cohorts.yaml", "v1alpha1"});
    out.push_back({"schemas/opendatahub/v1/datasciencecluster.yaml", dsc_crd, "v1"});
    out.push_back({"schemas/opendatahub/v2/datasciencecluster.yaml", dsc_crd, "v2"});
    const std::string dsci_crd = "upstream/opendatahub/odh-bundle_3.5.0/dscinitialization.opendatahub.io_dscinitializations.yaml";
    out.push_back({"schemas/opendatahub/v1/dscinitialization.yaml", dsci_crd, "v1"});
    out.push_back({"schemas/opendatahub/v2/dscinitialization.yaml", dsci_crd, "v2"});
    return out;
}

// Subtrees deliberately left opaque in our schemas. At these paths only `type`
// is compared and ours must preserve unknown fields; nothing below is walked.
struct Exclusion {
    const char* file_suffix;  // matched against the end of Builtin::file
    const char* path;
    const char* reason;
};
const Exclusion kExclusions[] = {
    {"/workload.yaml", "spec.podSets[].template",
     "corev1.PodTemplateSpec: ~9000 lines per version upstream (containers, volumes, affinity, ...); "
     "condensed once in schemas/definitions/k8s.yaml (containers, names, quantities) and pulled in with $ref"},
    {"/dscinitialization.yaml", "status", "written by the operator, never by users; accepted as written"},
};

bool applies(const Exclusion& e, const std::string& file) {
    const std::string suffix = e.file_suffix;
    return file.size() >= suffix.size() && file.compare(file.size() - suffix.size(), std::string::npos, suffix) == 0;
}

const Exclusion* excluded(const std::string& file, const std::string& path) {
    for (const auto& e : kExclusions)
        if (path == e.path && applies(e, file)) return &e;
    return nullptr;
}

// The keywords our schemas may use: the structural-schema subset of a CRD's
// openAPIV3Schema that queueforge's validator implements, and $ref to a shared
// definition (schemas/definitions/, expanded before compilation).
const std::set<std::string> kAllowedKeywords = {"$ref",
    "type", "properties", "required", "items", "additionalProperties", "enum", "pattern", "format",
    "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "maxProperties", "nullable",
    "default", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type",
    "x-kubernetes-validations"};
const std::set<std::string> kAllowedRuleKeys = {"rule", "message", "messageExpression", "fieldPath", "reason"};

// Scalar keywords compared as written (absent on one side and present on the
// other is a difference too).
const char* const kScalarKeywords[] = {
    "type", "pattern", "format", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
    "maxProperties", "nullable", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-list-type", "x-kubernetes-map-type"};
// Keywords of the CRDs that carry no validation meaning.
const std::set<std::string> kIgnoredCrdKeywords = {"description", "title", "example", "externalDocs"};

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// n[key] without yaml-cpp's pitfalls: a missing key (or a non-map) gives a
// valid Undefined node, so lookups can be chained.
YAML::Node G(const YAML::Node& n, const std::string& key) {
    if (!n.IsDefined() || !n.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node v = n[key];
    return v.IsDefined() ? v : YAML::Node(YAML::NodeType::Undefined);
}

bool is_true(const YAML::Node& n) { return n.IsDefined() && n.IsScalar() && n.Scalar() == "true"; }

std::string show(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "<absent>";
    YAML::Emitter e;
    e << YAML::Flow << n;
    return e.c_str();
}

bool yaml_equal(const YAML::Node& a, const YAML::Node& b) {
    bool a_absent = !a.IsDefined() || a.IsNull(), b_absent = !b.IsDefined() || b.IsNull();
    if (a_absent || b_absent) return a_absent == b_absent;
    if (a.Type() != b.Type()) return false;
    if (a.IsScalar()) return a.Scalar() == b.Scalar();
    if (a.size() != b.size()) return false;
    if (a.IsSequence()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!yaml_equal(a[i], b[i])) return false;
        return true;
    }
    for (const auto& kv : a) {
        const YAML::Node other = b[kv.first.Scalar()];
        if (!other.IsDefined() || !yaml_equal(kv.second, other)) return false;
    }
    return true;
}

std::set<std::string> scalar_set(const YAML::Node& n) {
    std::set<std::string> out;
    if (n.IsDefined() && n.IsSequence())
        for (const auto& x : n) out.insert(x.IsScalar() ? x.Scalar() : show(x));
    return out;
}

std::string join(const std::set<std::string>& s) {
    std::string out = "[";
    for (const auto& x : s) out += (out.size() > 1 ? ", " : "") + x;
    return out + "]";
}

std::string at(const std::string& path) { return path.empty() ? "<root>" : path; }

// Walks `ours` and the CRD schema `crd` in parallel; appends one line per difference.
class Comparer {
public:
    Comparer(std::string file) : file_(std::move(file)) {}
    std::vector<std::string> problems;
    std::set<std::string> exclusions_hit;

    void compare(const YAML::Node& ours, const YAML::Node& crd, const std::string& path) {
        if (const Exclusion* e = excluded(file_, path)) {
            exclusions_hit.insert(e->path);
            if (!yaml_equal(G(ours, "type"), G(crd, "type")))
                fail(path, "type", show(G(ours, "type")), show(G(crd, "type")));
            if (!is_true(G(ours, "x-kubernetes-preserve-unknown-fields")))
                problems.push_back(at(path) + ": excluded subtree must set x-kubernetes-preserve-unknown-fields: true");
            return;
        }
        for (const auto& kv : crd) {
            const std::string k = kv.first.Scalar();
            if (kIgnoredCrdKeywords.count(k) || kAllowedKeywords.count(k)) continue;
            if (k == "anyOf" && is_int_or_string_anyof(crd)) continue;
            problems.push_back(at(path) + ": CRD uses keyword '" + k + "' that this test does not compare");
        }
        for (const char* k : kScalarKeywords)
            if (!yaml_equal(G(ours, k), G(crd, k))) fail(path, k, show(G(ours, k)), show(G(crd, k)));
        if (!yaml_equal(G(ours, "default"), G(crd, "default")))
            fail(path, "default", show(G(ours, "default")), show(G(crd, "default")));
        if (!yaml_equal(G(ours, "x-kubernetes-list-map-keys"), G(crd, "x-kubernetes-list-map-keys")))
            fail(path, "x-kubernetes-list-map-keys", show(G(ours, "x-kubernetes-list-map-keys")),
                 show(G(crd, "x-kubernetes-list-map-keys")));
        for (const char* k : {"enum", "required"}) {
            auto a = scalar_set(G(ours, k)), b = scalar_set(G(crd, k));
            if (a != b || G(ours, k).IsDefined() != G(crd, k).IsDefined()) fail(path, k, join(a), join(b));
        }
        compare_rules(G(ours, "x-kubernetes-validations"), G(crd, "x-kubernetes-validations"), path);

        // properties: the same names on both sides, each compared recursively.
        const YAML::Node op = G(ours, "properties"), cp = G(crd, "properties");
        if (cp.IsDefined())
            for (const auto& kv : cp) {
                const std::string name = kv.first.Scalar();
                const std::string child = path.empty() ? name : path + "." + name;
                if (!op.IsDefined() || !op[name].IsDefined()) {
                    problems.push_back(child + ": in the CRD but missing from ours");
                    continue;
                }
                compare(op[name], kv.second, child);
            }
        if (op.IsDefined())
            for (const auto& kv : op) {
                const std::string name = kv.first.Scalar();
                if (!cp.IsDefined() || !cp[name].IsDefined())
                    problems.push_back((path.empty() ? name : path + "." + name) + ": in ours but not in the CRD");
            }
        compare_child(G(ours, "items"), G(crd, "items"), path + "[]", "items");
        const YAML::Node oa = G(ours, "additionalProperties"), ca = G(crd, "additionalProperties");
        if (oa.IsDefined() && ca.IsDefined() && oa.IsMap() && ca.IsMap())
            compare(oa, ca, path + "{}");
        else if (!yaml_equal(oa, ca))
            fail(path, "additionalProperties", show(oa), show(ca));
    }

private:
    std::string file_;

    void fail(const std::string& path, const std::string& what, const std::string& ours, const std::string& crd) {
        problems.push_back(at(path) + ": " + what + " differs: ours " + ours + ", CRD " + crd);
    }

    void compare_child(const YAML::Node& ours, const YAML::Node& crd, const std::string& path, const char* what) {
        if (ours.IsDefined() && crd.IsDefined())
            compare(ours, crd, path);
        else if (ours.IsDefined() != crd.IsDefined())
            problems.push_back(path + ": " + what + (ours.IsDefined() ? " only in ours" : " only in the CRD"));
    }

    static bool is_int_or_string_anyof(const YAML::Node& crd) {
        const YAML::Node any = G(crd, "anyOf");
        return is_true(G(crd, "x-kubernetes-int-or-string")) && any.IsSequence() && any.size() == 2 &&
               G(any[0], "type").Scalar() == "integer" && G(any[1], "type").Scalar() == "string";
    }

    // CEL rules: the same set of rule strings at each path, and for each rule
    // the same message (and messageExpression/fieldPath/reason when present).
    void compare_rules(const YAML::Node& ours, const YAML::Node& crd, const std::string& path) {
        std::map<std::string, YAML::Node> a, b;
        if (ours.IsDefined())
            for (const auto& r : ours) {
                const YAML::Node& e = r;
                a[G(e, "rule").Scalar()] = e;
            }
        if (crd.IsDefined())
            for (const auto& r : crd) {
                const YAML::Node& e = r;
                b[G(e, "rule").Scalar()] = e;
            }
        for (const auto& [rule, entry] : b) {
            auto it = a.find(rule);
            if (it == a.end())
                problems.push_back(at(path) + ": CEL rule missing from ours: " + rule);
            else if (!yaml_equal(it->second, entry))
                problems.push_back(at(path) + ": CEL rule differs: ours " + show(it->second) + ", CRD " + show(entry));
        }
        for (const auto& [rule, entry] : a)
            if (!b.count(rule)) problems.push_back(at(path) + ": CEL rule only in ours: " + rule);
    }
};

YAML::Node crd_version_schema(const YAML::Node& crd, const std::string& version) {
    for (const auto& v : G(G(crd, "spec"), "versions"))
        if (G(v, "name").Scalar() == version) return G(G(v, "schema"), "openAPIV3Schema");
    return YAML::Node(YAML::NodeType::Undefined);
}

// Structural checks on one of our schema nodes; no CRD needed.
void lint(const YAML::Node& n, const std::string& path, std::vector<std::string>& problems) {
    if (!n.IsMap()) {
        problems.push_back(at(path) + ": schema is not a mapping");
        return;
    }
    for (const auto& kv : n)
        if (!kAllowedKeywords.count(kv.first.Scalar()))
            problems.push_back(at(path) + ": keyword '" + kv.first.Scalar() + "' is not part of the structural schema subset");
    const std::string type = G(n, "type").IsDefined() ? G(n, "type").Scalar() : "";
    const bool int_or_string = G(n, "x-kubernetes-int-or-string").IsDefined();
    if (type.empty() && !int_or_string && !G(n, "x-kubernetes-preserve-unknown-fields").IsDefined())
        problems.push_back(at(path) + ": no type (structural schemas need one unless int-or-string)");
    if (int_or_string && !type.empty()) problems.push_back(at(path) + ": int-or-string must not set a type");
    if ((G(n, "properties").IsDefined() || G(n, "additionalProperties").IsDefined() || G(n, "required").IsDefined()) && type != "object")
        problems.push_back(at(path) + ": properties/additionalProperties/required on a non-object");
    if (G(n, "items").IsDefined() != (type == "array")) problems.push_back(at(path) + ": arrays need items, and only arrays");
    if (G(n, "properties").IsDefined() && G(n, "additionalProperties").IsDefined())
        problems.push_back(at(path) + ": properties and additionalProperties are mutually exclusive");
    for (const auto& r : G(n, "required"))
        if (!G(G(n, "properties"), r.Scalar()).IsDefined()) problems.push_back(at(path) + ": required '" + r.Scalar() + "' is not a property");
    if (G(n, "x-kubernetes-list-type").IsDefined() && G(n, "x-kubernetes-list-type").Scalar() == "map") {
        const YAML::Node keys = G(n, "x-kubernetes-list-map-keys"), items = G(n, "items");
        if (!keys.IsDefined() || keys.size() == 0) problems.push_back(at(path) + ": list-type map without list-map-keys");
        for (const auto& k : keys) {
            const YAML::Node prop = G(G(items, "properties"), k.Scalar());
            bool req = scalar_set(G(items, "required")).count(k.Scalar()) > 0;
            if (!prop.IsDefined()) problems.push_back(at(path) + ": list-map key '" + k.Scalar() + "' is not an item property");
            else if (!req && !G(prop, "default").IsDefined())
                problems.push_back(at(path) + ": list-map key '" + k.Scalar() + "' must be required or defaulted");
        }
    }
    for (const auto& r : G(n, "x-kubernetes-validations")) {
        if (!G(r, "rule").IsDefined() || G(r, "rule").Scalar().empty()) problems.push_back(at(path) + ": CEL entry without rule");
        for (const auto& kv : r)
            if (!kAllowedRuleKeys.count(kv.first.Scalar()))
                problems.push_back(at(path) + ": CEL entry key '" + kv.first.Scalar() + "' is not allowed");
    }
    for (const auto& kv : G(n, "properties")) {
        const std::string name = kv.first.Scalar();
        lint(kv.second, path.empty() ? name : path + "." + name, problems);
    }
    if (G(n, "items").IsDefined()) lint(G(n, "items"), path + "[]", problems);
    if (G(n, "additionalProperties").IsDefined() && G(n, "additionalProperties").IsMap())
        lint(G(n, "additionalProperties"), path + "{}", problems);
}

std::string lines(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += "  " + s + "\n";
    return out;
}

}  // namespace

TEST_CASE("schemas: every built-in schema matches its upstream CRD version", "[slow]") {
    const fs::path shared = QF_SHARED_DIR;
    if (!fs::exists(shared / "upstream")) {
        WARN("skipped: " << shared << " (upstream CRDs) is not available");
        return;
    }
    for (const auto& b : builtins()) {
        CAPTURE(b.file, b.crd, b.version);
        const fs::path crd_path = shared / b.crd;
        if (!fs::exists(crd_path)) {
            WARN("skipped " << b.file << ": " << crd_path << " not found");
            continue;
        }
        const YAML::Node ours = YAML::LoadFile(std::string(QF_SOURCE_DIR) + "/" + b.file);
        const YAML::Node crd = crd_version_schema(YAML::LoadFile(crd_path.string()), b.version);
        REQUIRE(crd.IsDefined());
        Comparer c(b.file);
        c.compare(ours, crd, "");
        // Every exclusion that applies to this file must still match a real path.
        for (const auto& e : kExclusions) {
            if (applies(e, b.file) && !c.exclusions_hit.count(e.path))
                c.problems.push_back(std::string("exclusion ") + e.path + " matched nothing (" + e.reason + ")");
        }
        INFO(b.file << " vs " << b.crd << " " << b.version << ":\n" << lines(c.problems));
        CHECK(c.problems.empty());
    }
}

TEST_CASE("schemas: the CRD walker reports differences") {
    const YAML::Node crd = YAML::Load(R"(
type: object
properties:
  spec:
    type: object
    required: [a]
    properties:
      a: {type: string, enum: [X, Y], maxLength: 5}
      q: {anyOf: [{type: integer}, {type: string}], x-kubernetes-int-or-string: true, pattern: '^[0-9]+$'}
      l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name], items: {type: object, required: [name], properties: {name: {type: string}}}}
    x-kubernetes-validations:
      - {rule: self.a != 'X', message: no X}
)");
    const YAML::Node same = YAML::Load(R"(
type: object
properties:
  spec:
    type: object
    required: [a]
    properties:
      a: {type: string, enum: [Y, X], maxLength: 5}
      q: {x-kubernetes-int-or-string: true, pattern: '^[0-9]+$'}
      l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name], items: {type: object, required: [name], properties: {name: {type: string}}}}
    x-kubernetes-validations:
      - {rule: self.a != 'X', message: no X}
)");
    const YAML::Node different = YAML::Load(R"(
type: object
properties:
  spec:
    type: object
    properties:
      a: {type: string, enum: [X], maxLength: 6}
      q: {x-kubernetes-int-or-string: true, pattern: '^[0-9]*$'}
      l: {type: array, x-kubernetes-list-type: atomic, items: {type: object, required: [name], properties: {name: {type: string}}}}
      extra: {type: string}
    x-kubernetes-validations:
      - {rule: self.a != 'X', message: not X}
      - {rule: self.a != 'Z', message: no Z}
)");
    Comparer ok("t.yaml");
    ok.compare(same, crd, "");
    INFO(lines(ok.problems));
    CHECK(ok.problems.empty());

    Comparer bad("t.yaml");
    bad.compare(different, crd, "");
    const std::string all = lines(bad.problems);
    INFO(all);
    for (const char* expected : {"spec: required differs", "spec.a: enum differs", "spec.a: maxLength differs",
                                 "spec.q: pattern differs", "spec.l: x-kubernetes-list-type differs",
                                 "spec.l: x-kubernetes-list-map-keys differs", "spec.extra: in ours but not in the CRD",
                                 "spec: CEL rule differs", "spec: CEL rule only in ours: self.a != 'Z'"})
        CHECK(all.find(expected) != std::string::npos);

    Comparer missing("t.yaml");
    YAML::Node partial = YAML::Clone(same);
    partial["properties"]["spec"]["properties"].remove("q");
    missing.compare(partial, crd, "");
    CHECK(lines(missing.problems).find("spec.q: in the CRD but missing from ours") != std::string::npos);
}

TEST_CASE("schemas: built-in schemas use only structural-schema keywords and are well-formed") {
    for (const auto& b : builtins()) {
        CAPTURE(b.file);
        const YAML::Node ours = YAML::LoadFile(std::string(QF_SOURCE_DIR) + "/" + b.file);
        std::vector<std::string> problems;
        lint(ours, "", problems);
        // The object envelope every built-in schema starts with.
        for (const char* k : {"apiVersion", "kind", "metadata"})
            if (!G(G(ours, "properties"), k).IsDefined()) problems.push_back(std::string("missing top-level property ") + k);
        if (G(G(G(ours, "properties"), "metadata"), "type").Scalar() != "object")
            problems.push_back("metadata must be {type: object}");
        INFO(lines(problems));
        CHECK(problems.empty());
    }
}

TEST_CASE("schemas: every built-in schema is embedded, loads as one document, and the list is complete") {
    std::set<std::string> listed;
    for (const auto& b : builtins()) {
        CAPTURE(b.file);
        listed.insert(b.file);
        auto text = queueforge::find_embedded(b.file);
        REQUIRE(text);
        CHECK(std::string(*text) == read_text(fs::path(QF_SOURCE_DIR) / b.file));
        queueforge::Diagnostics diags;
        auto docs = queueforge::load_yaml(b.file, std::string(*text), diags);
        CHECK_FALSE(diags.has_errors());
        REQUIRE(docs.size() == 1);
        REQUIRE(docs[0].root.is_map());
        const queueforge::Node* type = docs[0].root.find("type");
        REQUIRE(type);
        CHECK(type->is_string());
    }
    // A schema file added under schemas/kueue or schemas/opendatahub must be added to the table above.
    std::set<std::string> on_disk;
    for (const char* dir : {"schemas/kueue", "schemas/opendatahub"})
        for (const auto& e : fs::recursive_directory_iterator(fs::path(QF_SOURCE_DIR) / dir))
            if (e.is_regular_file())
                on_disk.insert(fs::relative(e.path(), QF_SOURCE_DIR).generic_string());
    CHECK(on_disk == listed);
}
