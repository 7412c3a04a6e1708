// queueforge import: manifests → site → the same manifests. The round trips
// compare with a normaliser of their own (not the importer's), so a bug in
// the importer's comparison cannot hide a bug in its inference.
#include "test_util.hpp"

#include <queueforge/integrations/import.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/base/yaml_emit.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <set>

using namespace queueforge;
namespace fs = std::filesystem;

namespace {

std::vector<Resource> resources_of(const std::string& text, const std::string& file = "input.yaml") {
    LoadedResources out;
    Diagnostics diags;
    load_resources_from_text(file, text, out, diags);
    INFO(render_text(diags, out.sources));
    REQUIRE_FALSE(diags.has_errors());
    return std::move(out.resources);
}

struct Imported {
    std::optional<ImportResult> result;
    Diagnostics diags;
    std::string text;  // the site file

    std::size_t count(const std::string& rule) const {
        return std::count_if(diags.all().begin(), diags.all().end(), [&](const Diagnostic& d) { return d.rule == rule; });
    }
    bool mentions(const std::string& rule, const std::string& part) const {
        for (const auto& d : diags.all())
            if (d.rule == rule && d.message.find(part) != std::string::npos) return true;
        return false;
    }
};

Imported import_text(const std::string& text, ImportOptions opts = {}) {
    Imported r;
    r.result = import_site(resources_of(text), r.diags, opts);
    if (r.result) r.text = render_imported_site(*r.result);
    return r;
}

// Builds a site file's text, as `queueforge build` does.
std::vector<Object> build(const std::string& site_text) {
    Diagnostics diags;
    auto lowered = compile_site("imported.yaml", site_text, diags);
    INFO(site_text);
    INFO(render_text(diags, {{"imported.yaml", site_text}}));
    REQUIRE(lowered);
    REQUIRE_FALSE(diags.has_errors());
    return lowered->objects;
}

std::vector<Object> build_example(const std::string& example, const std::string& target = {}) {
    auto path = qf_test::source_dir() / "examples" / example / "queueforge-site.yaml";
    Diagnostics diags;
    auto lowered = compile_site(path.string(), qf_test::read_text(path), diags, {.target_override = target});
    REQUIRE(lowered);
    return lowered->objects;
}

// ---- an independent semantic normaliser -----------------------------------

bool quantity_key(const std::string& k) {
    return k == "nominalQuota" || k == "borrowingLimit" || k == "lendingLimit" || k == "weight";
}

// Canonical text of a value: maps sorted by key, unset entries dropped,
// quantities in canonical form, scalars by text.
std::string canon(const Node& n, const std::string& key = {}) {
    if (n.is_map()) {
        std::map<std::string, std::string> m;
        for (const auto& e : n.entries()) {
            if (e.value.is_null() || ((e.value.is_map() || e.value.is_seq()) && e.value.size() == 0)) continue;
            m[e.key] = canon(e.value, e.key);
        }
        std::string s = "{";
        for (const auto& [k, v] : m) s += k + ":" + v + ",";
        return s + "}";
    }
    if (n.is_seq()) {
        std::string s = "[";
        for (const auto& i : n.items()) s += canon(i) + ",";
        return s + "]";
    }
    if (quantity_key(key))
        if (auto q = Quantity::parse(n.text())) return q->to_string();
    return n.text();
}

Node* child(Node& n, const char* key) {
    if (!n.is_map()) return nullptr;
    Node* c = n.find(key);
    if (!c) c = &n.set(key, Node::mapping());
    return c;
}

void dflt(Node* m, const char* key, const char* value) {
    if (m && m->is_map() && (!m->find(key) || m->find(key)->is_null())) m->set(key, Node::string(value));
}

// CRD defaults Kueue's API server fills in, equivalent spellings, and
// queueforge's own labels and annotations removed.
Node semantic(const Node& doc) {
    Node n = doc;
    n.erase("status");
    if (Node* meta = n.find("metadata")) {
        for (const char* k : {"managedFields", "resourceVersion", "uid", "creationTimestamp", "generation"}) meta->erase(k);
        if (Node* l = meta->find("labels"))
            for (const char* k : {"app.kubernetes.io/managed-by", "app.kubernetes.io/part-of", "app.kubernetes.io/component",
                                  "queueforge.io/team", "queueforge.io/pool"})
                l->erase(k);
        if (Node* a = meta->find("annotations"))
            for (const char* k : {"argocd.argoproj.io/sync-wave", "argocd.argoproj.io/sync-options",
                                  "kubectl.kubernetes.io/last-applied-configuration"})
                a->erase(k);
    }
    const std::string kind = n.find("kind") ? n.find("kind")->text() : "";
    n.erase("apiVersion");
    Node* spec = n.find("spec");
    if (kind == "ClusterQueue" && spec && spec->is_map()) {
        if (Node* c = spec->find("cohort")) {
            Node v = *c;
            spec->erase("cohort");
            spec->set("cohortName", v);
        }
        dflt(spec, "queueingStrategy", "BestEffortFIFO");
        dflt(spec, "stopPolicy", "None");
        Node* ff = child(*spec, "flavorFungibility");
        dflt(ff, "whenCanBorrow", "MayStopSearch");
        dflt(ff, "whenCanPreempt", "TryNextFlavor");
        if (Node* b = ff->find("whenCanBorrow"); b && b->text() == "Borrow") *b = Node::string("MayStopSearch");
        if (Node* p = ff->find("whenCanPreempt"); p && p->text() == "Preempt") *p = Node::string("MayStopSearch");
        Node* pre = child(*spec, "preemption");
        dflt(pre, "reclaimWithinCohort", "Never");
        dflt(pre, "withinClusterQueue", "Never");
        dflt(child(*pre, "borrowWithinCohort"), "policy", "Never");
        if (Node* rgs = spec->find("resourceGroups"); rgs && rgs->is_seq())
            for (auto& g : rgs->items()) {
                if (Node* cov = g.find("coveredResources"))
                    std::sort(cov->items().begin(), cov->items().end(),
                              [](const Node& a, const Node& b) { return a.text() < b.text(); });
                if (Node* fl = g.find("flavors"))
                    for (auto& f : fl->items())
                        if (Node* res = f.find("resources"))
                            std::sort(res->items().begin(), res->items().end(), [](const Node& a, const Node& b) {
                                return a.find("name")->text() < b.find("name")->text();
                            });
            }
    }
    if (kind == "LocalQueue" && spec) dflt(spec, "stopPolicy", "None");
    // A component the DataScienceCluster leaves out is not installed, as if
    // Removed; the 3.5 CRD defaults the kueue component's autoCreateQueues to false.
    if (kind == "DataScienceCluster" && spec && spec->is_map())
        if (Node* comps = spec->find("components"); comps && comps->is_map()) {
            if (Node* kueue = comps->find("kueue"); kueue && kueue->is_map() &&
                                                   doc.find("apiVersion")->text().ends_with("/v2"))
                dflt(kueue, "autoCreateQueues", "false");
            std::vector<std::string> removed;
            for (const auto& e : comps->entries())
                if (e.value.is_map() && e.value.size() == 1 && e.value.find("managementState") &&
                    e.value.find("managementState")->text() == "Removed")
                    removed.push_back(e.key);
            for (const auto& k : removed) comps->erase(k);
        }
    if (kind == "Cohort" && spec)
        if (Node* p = spec->find("parent")) {
            Node v = *p;
            spec->erase("parent");
            spec->set("parentName", v);
        }
    return n;
}

std::string identity(const Node& doc) {
    const Node* meta = doc.find("metadata");
    auto get = [&](const char* k) { return meta && meta->find(k) ? meta->find(k)->text().str() : std::string(); };
    return doc.find("kind")->text() + "/" + get("namespace") + "/" + get("name");
}

// Every input object has a semantically equal rebuilt one and nothing else
// is rebuilt. Returns the differences, empty when none.
std::vector<std::string> semantic_differences(const std::vector<Node>& input, const std::vector<Object>& rebuilt) {
    std::map<std::string, std::string> want, got;
    for (const auto& d : input) want[identity(d)] = canon(semantic(d));
    for (const auto& o : rebuilt) got[identity(o.doc)] = canon(semantic(o.doc));
    std::vector<std::string> out;
    for (const auto& [id, v] : want) {
        auto it = got.find(id);
        if (it == got.end()) out.push_back("missing " + id);
        else if (it->second != v) out.push_back("differs " + id + "\n  input:   " + v + "\n  rebuilt: " + it->second);
    }
    for (const auto& [id, _] : got)
        if (!want.count(id)) out.push_back("extra " + id);
    return out;
}

std::vector<Node> docs_of(const std::vector<Object>& objects) {
    std::vector<Node> out;
    for (const auto& o : objects) out.push_back(o.doc);
    return out;
}

std::vector<Node> docs_of_text(const std::string& text) {
    std::vector<Node> out;
    for (auto& r : resources_of(text)) out.push_back(std::move(r.doc));
    return out;
}

// import models HardwareProfiles only when none counts an accelerator (whose
// pool a build's output does not name): the examples' profiles come back
// whole through spec.passthrough (and still rebuild byte for byte). How many
// of those a stream holds. Team members (their RoleBindings), display names
// (the Namespaces' openshift.io/display-name) and the Kueue CR
// (spec.kueueOperator) are modelled.
std::size_t platform_objects(const std::vector<Node>& docs) {
    std::size_t n = 0;
    for (const auto& d : docs)
        if (text_at(d, {"kind"}) == "HardwareProfile") ++n;
    return n;
}

std::string spec_target(const Imported& r) {
    const Node* t = r.result->site.find("spec")->find("target");
    return t->is_scalar() ? t->text().str() : emit_yaml(*t);
}

}  // namespace

// ---- round trips of queueforge's own output --------------------------------

TEST_CASE("import: every example's build imports to a site that builds the same bytes", "[import]") {
    struct Case {
        std::string example, target, expect_target;
    };
    for (const Case& c : std::vector<Case>{{"seed-minimal", "", "rhoai-2.10"},
                                           {"multi-team", "", "rhoai-2.25"},
                                           {"rhoai-3", "", "rhoai-3.5"}}) {
        INFO(c.example);
        auto objects = build_example(c.example, c.target);
        std::string stream = render_stream(objects, "");
        auto r = import_text(stream);
        INFO(render_text(r.diags, {}));
        REQUIRE(r.result);
        INFO(r.text);
        const std::size_t platform = platform_objects(docs_of(objects));
        // The only warnings: each object kept whole says so.
        CHECK(r.diags.count(Severity::Warning) == platform);
        for (const auto& d : r.diags.all())
            if (d.severity == Severity::Warning) CHECK(d.rule == "import.passthrough");
        if (c.example == "rhoai-3") {
            // Members and display names come back as the teams' own sections.
            const Node* teams = r.result->site.find("spec")->find("teams");
            REQUIRE(teams);
            const Node* llm = nullptr;
            for (const auto& t : teams->items())
                if (text_at(t, {"name"}) == "llm") llm = &t;
            REQUIRE(llm);
            CHECK(text_at(*llm, {"displayName"}) == "Large language models");
            CHECK(text_at(*llm, {"members", "projectRole"}) == "edit");
            const Node* groups = at_path(*llm, {"members", "groups"});
            REQUIRE(groups);
            REQUIRE(groups->items().size() == 1);
            CHECK(groups->items()[0].text() == "llm-researchers");
            const Node* accounts = at_path(*llm, {"members", "serviceAccounts"});
            REQUIRE(accounts);
            REQUIRE(accounts->items().size() == 1);
            CHECK(accounts->items()[0].text() == "pipeline-runner");
            for (const auto& t : teams->items()) {
                INFO(text_at(t, {"name"}));
                CHECK_FALSE(text_at(t, {"displayName"}).empty());
                CHECK(at_path(t, {"members"}));
            }
            // The Kueue CR as spec.kueueOperator: its frameworks written out
            // (the job files and profiles that added some are not in a
            // build's output), FairSharing left to llm's weight.
            const Node* k = r.result->site.find("spec")->find("kueueOperator");
            REQUIRE(k);
            CHECK(emit_yaml(*at_path(*k, {"frameworks"})) == "- Deployment\n- PyTorchJob\n- RayCluster\n- StatefulSet\n");
            CHECK(text_at(*k, {"gangScheduling", "policy"}) == "ByWorkload");
            CHECK_FALSE(at_path(*k, {"preemptionPolicy"}));
        }
        if (c.example == "rhoai-3") CHECK(platform > 0);  // the example shows the platform sections
        CHECK(r.result->stats.passthrough == platform);
        CHECK(r.result->stats.patched == 0);
        CHECK(r.result->stats.modelled == objects.size() - platform);
        CHECK(spec_target(r) == c.expect_target);
        CHECK(r.result->site.find("metadata")->find("name")->text() == c.example);
        auto rebuilt = build(r.text);
        CHECK(semantic_differences(docs_of(objects), rebuilt).empty());
        CHECK(render_stream(rebuilt, "") == stream);
    }
}

TEST_CASE("import: RoleBindings that do not agree across a team's namespaces stay whole", "[import]") {
    auto objects = build_example("rhoai-3");
    // llm's binding in llm-eval loses its service account; llm-train's keeps it.
    for (auto& o : objects)
        if (o.kind == "RoleBinding" && o.namespace_ == "llm-eval" && o.name == "llm-kueue-batch-user-role")
            o.doc.find("subjects")->items().pop_back();
    // search's project role binding is missing from its one namespace: the
    // team keeps members, without projectRole.
    objects.erase(std::remove_if(objects.begin(), objects.end(),
                                 [](const Object& o) { return o.kind == "RoleBinding" && o.name == "search-edit"; }),
                  objects.end());
    std::string stream = render_stream(objects, "");
    auto r = import_text(stream);
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    INFO(r.text);
    const Node* teams = r.result->site.find("spec")->find("teams");
    REQUIRE(teams);
    for (const auto& t : teams->items()) {
        const std::string name = text_at(t, {"name"});
        INFO(name);
        if (name == "llm") CHECK_FALSE(at_path(t, {"members"}));
        else CHECK(at_path(t, {"members"}));
        if (name == "search") CHECK(text_at(t, {"members", "projectRole"}).empty());
    }
    // llm's four bindings kept whole, besides the 11 HardwareProfiles.
    CHECK(r.result->stats.passthrough == 11 + 4);
    // The same objects (passthrough objects are emitted in their own order
    // within the wave, so the bytes are not compared).
    auto rebuilt = build(r.text);
    CHECK(semantic_differences(docs_of(objects), rebuilt).empty());
}

TEST_CASE("import: the Kueue CR's settings come back as spec.kueueOperator", "[import]") {
    const std::string site = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: lab
spec:
  target: rhoai-3.5
  pools:
    - name: a100
      nodes: 2
      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}
  teams:
    - name: team-a
      namespaces: [team-a]
      quota: [{pool: a100, nominal: {cpu: 8, memory: 64Gi, nvidia.com/gpu: 4}}]
  kueueOperator:
    frameworks: [RayJob, BatchJob]
    labelPolicy: None
    gangScheduling: {policy: ByWorkload, admission: Sequential}
    preemptionPolicy: Classical
    admissionFairSharing: {usageHalfLifeTimeSeconds: 1800, resourceWeights: {nvidia.com/gpu: "2.5"}}
)";
    auto objects = build(site);
    std::string stream = render_stream(objects, "");
    auto r = import_text(stream);
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.result->stats.passthrough == 0);
    CHECK(r.result->stats.patched == 0);
    const Node* k = r.result->site.find("spec")->find("kueueOperator");
    REQUIRE(k);
    CHECK(text_at(*k, {"labelPolicy"}) == "None");
    CHECK(text_at(*k, {"gangScheduling", "admission"}) == "Sequential");
    CHECK(text_at(*k, {"preemptionPolicy"}) == "Classical");
    CHECK(text_at(*k, {"admissionFairSharing", "usageHalfLifeTimeSeconds"}) == "1800");
    CHECK(text_at(*k, {"admissionFairSharing", "resourceWeights", "nvidia.com/gpu"}) == "2.5");
    auto rebuilt = build(r.text);
    CHECK(render_stream(rebuilt, "") == stream);
}

TEST_CASE("import: HardwareProfiles without accelerators come back as spec.hardwareProfiles", "[import]") {
    const std::string site = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: lab
spec:
  target: rhoai-3.5
  pools:
    - name: a100
      nodes: 2
      allocatable: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}
  priorityClasses:
    - {name: standard, value: 100}
  teams:
    - name: team-a
      namespaces: [team-a-train, team-a-eval]
      quota: [{pool: a100, nominal: {cpu: 8, memory: 64Gi, nvidia.com/gpu: 4}}]
  hardwareProfiles:
    namespace: opendatahub
    priorityClass: standard
    profiles:
      - name: notebook
        team: team-a
        description: CPU only
        cpu: {min: 1, default: 2, max: 8}
        memory: {min: 2Gi, max: 32Gi}
      - name: tiny
        team: team-a
        displayName: Tiny
        cpu: {max: 1}
)";
    auto objects = build(site);
    std::string stream = render_stream(objects, "");
    auto r = import_text(stream);
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.result->stats.passthrough == 0);
    CHECK(r.result->stats.patched == 0);
    const Node* hp = r.result->site.find("spec")->find("hardwareProfiles");
    REQUIRE(hp);
    CHECK(text_at(*hp, {"namespace"}) == "opendatahub");
    const Node* profiles = hp->find("profiles");
    REQUIRE(profiles);
    REQUIRE(profiles->items().size() == 2);
    CHECK(text_at(profiles->items()[0], {"team"}) == "team-a");
    CHECK(text_at(profiles->items()[0], {"memory", "default"}) == "2Gi");
    CHECK(text_at(profiles->items()[1], {"displayName"}) == "Tiny");
    auto rebuilt = build(r.text);
    CHECK(render_stream(rebuilt, "") == stream);

    // With a profile that counts the pool's accelerator, whose pool the output
    // does not name, every profile is kept whole (all or none keeps the
    // stream's order).
    std::string with_gpu = site + "      - {name: gpu, team: team-a, pool: a100, accelerator: {max: 4}}\n";
    auto gpu_objects = build(with_gpu);
    std::string gpu_stream = render_stream(gpu_objects, "");
    auto g = import_text(gpu_stream);
    REQUIRE(g.result);
    CHECK(g.result->stats.passthrough == 3);
    CHECK_FALSE(g.result->site.find("spec")->find("hardwareProfiles"));
    CHECK(render_stream(build(g.text), "") == gpu_stream);
}

TEST_CASE("import: the golden outputs for other targets round-trip too", "[import]") {
    for (const auto& entry : fs::directory_iterator(qf_test::source_dir() / "tests/golden")) {
        if (entry.path().extension() != ".yaml") continue;  // other commands' golden files
        // build --annotate's golden: the same objects with comments.
        if (entry.path().filename().string().ends_with(".annotated.yaml")) continue;
        INFO(entry.path());
        std::string text = qf_test::read_text(entry.path());
        auto r = import_text(text);
        INFO(render_text(r.diags, {}));
        REQUIRE(r.result);
        INFO(r.text);
        CHECK(r.result->stats.passthrough == platform_objects(docs_of_text(text)));
        auto rebuilt = build(r.text);
        auto diff = semantic_differences(docs_of_text(text), rebuilt);
        for (const auto& d : diff) FAIL_CHECK(d);
        // Same objects, same bytes: the target and every setting were recovered.
        std::string body = text.substr(text.find("---"));
        CHECK(render_stream(rebuilt, "") == body);
    }
}

TEST_CASE("import: multi-team's shared settings become teamDefaults, shares become absolute quotas", "[import]") {
    auto r = import_text(render_stream(build_example("multi-team"), ""));
    REQUIRE(r.result);
    const Node& spec = *r.result->site.find("spec");
    const Node* defaults = spec.find("teamDefaults");
    REQUIRE(defaults);
    CHECK(defaults->find("localQueue")->text() == "team-queue");
    CHECK(defaults->find("preemption")->find("reclaimWithinCohort")->text() == "Any");
    CHECK(defaults->find("flavorFungibility")->find("whenCanBorrow")->text() == "TryNextFlavor");
    const Node& llm = spec.find("teams")->items()[1];
    REQUIRE(llm.find("name")->text() == "llm");
    const Node& h100 = llm.find("quota")->items()[0];
    CHECK(h100.find("pool")->text() == "h100");
    CHECK(h100.find("nominal")->find("cpu")->text() == "224");  // 50% of 4 x 112
    CHECK(h100.find("nominal")->find("memory")->text() == "4000Gi");
    CHECK(h100.find("lendingLimit")->find("nvidia.com/gpu")->text() == "8");
    // The search team differs from the defaults only in its strategy.
    const Node& search = spec.find("teams")->items()[3];
    REQUIRE(search.find("name")->text() == "search");
    CHECK(search.find("queueingStrategy")->text() == "StrictFIFO");
    CHECK_FALSE(search.find("preemption"));
    CHECK(spec.find("manageNamespaces")->as_bool());
}

TEST_CASE("import: output is deterministic whatever the input order", "[import]") {
    auto objects = build_example("multi-team");
    auto first = import_text(render_stream(objects, ""));
    std::mt19937 rng(7);
    for (int i = 0; i < 3; ++i) {
        std::shuffle(objects.begin(), objects.end(), rng);
        auto again = import_text(render_stream(objects, ""));
        REQUIRE(again.result);
        CHECK(again.text == first.text);
    }
}

// ---- Kueue's own samples ----------------------------------------------------

namespace {

struct Sample {
    std::string file;
    std::size_t passthrough;  // objects kept whole
    std::size_t patched;      // objects with a patch
};

// The queue setups of kueue-examples, with what the site cannot express.
const std::vector<Sample> kKueueSamples = {
    {"admin/single-clusterqueue-setup.yaml", 0, 0},
    {"admin/shared-quota-setup.yaml", 0, 0},
    {"admin/concurrent-admission-setup.yaml", 0, 1},  // concurrentAdmissionPolicy
    {"admin/minimal-cq.yaml", 1, 0},                  // no resourceGroups: a team needs quota
    {"admin/resource-flavor-empty.yaml", 0, 0},
    {"admin/resource-flavor-taints.yaml", 0, 0},
    {"admin/resource-flavor-tolerations.yaml", 0, 0},
    {"getting-started/quick-start-setup.yaml", 0, 0},
    {"admission-fs/admission-fair-sharing-setup.yaml", 1, 2},  // lq-b; admissionScope, lq-a fairSharing
    {"dra/sample-dra-queues.yaml", 0, 0},
    {"dra/sample-dra-capacity-queues.yaml", 0, 0},
    {"dra/sample-dra-counter-queues.yaml", 0, 0},
    {"multikueue/multikueue-setup.yaml", 3, 1},  // AdmissionCheck, MultiKueueConfig, MultiKueueCluster
    {"multikueue/tas/manager-setup.yaml", 5, 2},  // Topology too; topologyName, admissionChecksStrategy
    {"multikueue/tas/worker-setup.yaml", 1, 1},
    {"provisioning/provisioning-setup.yaml", 2, 1},
    {"tas/sample-queues.yaml", 1, 1},      // Topology; topologyName
    {"tas/sample-gpu-queues.yaml", 1, 1},
    {"sample-admission-check.yaml", 2, 0},
};

}  // namespace

TEST_CASE("import: Kueue's sample queue setups round-trip, differences exactly the reported ones", "[import]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is absent (Kueue's samples live in ../shared/upstream/kueue-examples)");
        return;
    }
    for (const auto& s : kKueueSamples) {
        INFO(s.file);
        auto path = *shared / "upstream/kueue-examples" / s.file;
        REQUIRE(fs::exists(path));
        std::string text = qf_test::read_text(path);
        auto r = import_text(text);
        INFO(render_text(r.diags, {{"input.yaml", text}}));
        REQUIRE(r.result);
        INFO(r.text);
        CHECK(r.result->stats.passthrough == s.passthrough);
        CHECK(r.result->stats.patched == s.patched);
        // Every passthrough object and every patched field is a warning.
        CHECK(r.count("import.passthrough") == s.passthrough);
        CHECK(r.count("import.patch") >= s.patched);
        CHECK_FALSE(r.diags.has_errors());
        auto rebuilt = build(r.text);
        for (const auto& d : semantic_differences(docs_of_text(text), rebuilt)) FAIL_CHECK(d);
    }
}

TEST_CASE("import: every sample manifest in ../shared/upstream round-trips or is refused for a named reason", "[import]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is absent (the samples live in ../shared/upstream)");
        return;
    }
    // Kueue's documentation examples (queue setups and job samples) and the
    // operators' config/samples; the CRDs beside them are schemas, not samples.
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(*shared / "upstream"))
        if (e.path().extension() == ".yaml" &&
            (e.path().string().find("/kueue-examples/") != std::string::npos ||
             e.path().string().find("/samples/") != std::string::npos))
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() > 80);
    std::size_t round_tripped = 0, refused = 0;
    for (const auto& f : files) {
        INFO(f);
        std::string text = qf_test::read_text(f);
        auto r = import_text(text);
        INFO(render_text(r.diags, {}));
        if (!r.result) {
            // Only job samples named by generateName, tool configurations and
            // files holding nothing importable: each said why.
            for (const auto& d : r.diags.all())
                if (d.severity == Severity::Error) CHECK(d.rule == "import.empty");
            CHECK(r.count("import.unnamed") > 0);
            ++refused;
            continue;
        }
        std::vector<Node> named;
        for (auto& d : docs_of_text(text)) {
            const Node* meta = d.find("metadata");
            if (meta && meta->is_map() && meta->find("name")) named.push_back(std::move(d));
        }
        CHECK(r.count("import.unnamed") == docs_of_text(text).size() - named.size());
        auto rebuilt = build(r.text);
        for (const auto& d : semantic_differences(named, rebuilt)) FAIL_CHECK(d);
        ++round_tripped;
    }
    CHECK(round_tripped > 60);
    WARN("upstream samples: " << round_tripped << " files round-tripped, " << refused << " refused (nothing named to import)");
}

TEST_CASE("import: what Kueue's samples cannot say in a site is named with its position", "[import]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is absent (Kueue's samples live in ../shared/upstream/kueue-examples)");
        return;
    }
    auto text = qf_test::read_text(*shared / "upstream/kueue-examples/tas/sample-queues.yaml");
    auto r = import_text(text);
    REQUIRE(r.result);
    CHECK(r.mentions("import.passthrough", "Topology/default"));
    bool found = false;
    for (const auto& d : r.diags.all())
        if (d.rule == "import.patch" && d.message.find("ResourceFlavor/tas-flavor: spec.topologyName") != std::string::npos) {
            found = true;
            CHECK(d.file == "input.yaml");
            CHECK(d.mark.line == 18);  // topologyName: "default"
        }
    CHECK(found);
    CHECK(spec_target(r) == "kueue-0.20");

    auto fs_text = qf_test::read_text(*shared / "upstream/kueue-examples/admission-fs/admission-fair-sharing-setup.yaml");
    auto fs = import_text(fs_text);
    REQUIRE(fs.result);
    CHECK(fs.mentions("import.passthrough", "LocalQueue/default/lq-b"));
    CHECK(fs.mentions("import.patch", "spec.admissionScope"));
    CHECK(fs.mentions("import.patch", "LocalQueue/default/lq-a: spec.fairSharing"));
}

TEST_CASE("import: the DataScienceCluster samples keep their component states", "[import]") {
    auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is absent (the DataScienceCluster samples live in ../shared/upstream/opendatahub)");
        return;
    }
    struct Case {
        std::string file, target;
    };
    const std::vector<Case> cases = {
        {"rhods-operator_rhoai-2.10/config/samples/datasciencecluster_v1_datasciencecluster.yaml", "rhoai-2.10"},
        {"rhods-operator_rhoai-2.16/config/samples/datasciencecluster_v1_datasciencecluster.yaml", "rhoai-2.19"},  // 2.16 and 2.19 serve the same components
        {"rhods-operator_rhoai-2.19/config/samples/datasciencecluster_v1_datasciencecluster.yaml", ""},
        {"rhods-operator_rhoai-2.22/config/samples/datasciencecluster_v1_datasciencecluster.yaml", ""},
        {"rhods-operator_rhoai-2.25/config/samples/datasciencecluster_v1_datasciencecluster.yaml", ""},
        {"rhods-operator_rhoai-3.0/config/samples/datasciencecluster_v2_datasciencecluster.yaml", ""},
        {"rhods-operator_rhoai-3.5/config/samples/datasciencecluster_v2_datasciencecluster.yaml", "rhoai-3.5"},
        {"rhods-operator_rhoai-3.5/config/rhoai/samples/datasciencecluster_v2_datasciencecluster.yaml", "rhoai-3.5"},
        {"odh-operator_HEAD_samples/config/samples/datasciencecluster_v2_datasciencecluster.yaml", ""},
        {"odh-operator_HEAD_samples/config/rhoai/samples/datasciencecluster_v2_datasciencecluster.yaml", ""},
    };
    for (const auto& c : cases) {
        INFO(c.file);
        auto path = *shared / "upstream/opendatahub" / c.file;
        REQUIRE(fs::exists(path));
        std::string text = qf_test::read_text(path);
        auto r = import_text(text);
        INFO(render_text(r.diags, {{"input.yaml", text}}));
        REQUIRE(r.result);
        INFO(r.text);
        if (!c.target.empty()) CHECK(r.result->target == c.target);
        auto rebuilt = build(r.text);
        auto input = docs_of_text(text);
        REQUIRE(input.size() == 1);
        const Object* dsc = nullptr;
        for (const auto& o : rebuilt)
            if (o.kind == "DataScienceCluster") dsc = &o;
        REQUIRE(dsc);
        // Same component states (a component the sample leaves out is Removed),
        // same component settings.
        const Node* in = input[0].find("spec")->find("components");
        const Node* out = dsc->doc.find("spec")->find("components");
        for (const auto& e : out->entries()) {
            INFO(e.key);
            const Node* mine = in->find(e.key);
            std::string want = mine ? mine->find("managementState")->text() : "Removed";
            CHECK(e.value.find("managementState")->text() == want);
            // On 3.5 the site writes the default autoCreateQueues: false so the
            // operator creates no competing queues (openshift-ai.md section 2).
            Node theirs = e.value;
            if (e.key == "kueue" && mine && !mine->find("autoCreateQueues") && theirs.find("autoCreateQueues") &&
                theirs.find("autoCreateQueues")->text() == "false")
                theirs.erase("autoCreateQueues");
            if (mine) CHECK(canon(*mine) == canon(theirs));
        }
        for (const auto& e : in->entries()) CHECK(out->find(e.key));
        CHECK(r.result->stats.passthrough == 0);
    }
}

// ---- input hygiene and bad input -------------------------------------------

TEST_CASE("import: status, managed fields and server metadata of a kubectl dump are stripped", "[import]") {
    const std::string dump = R"(apiVersion: v1
kind: List
items:
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ClusterQueue
  metadata:
    name: team-a
    uid: 5d1c3e2a-0000-4000-8000-000000000001
    resourceVersion: "12345"
    generation: 3
    creationTimestamp: "2025-01-01T00:00:00Z"
    finalizers: [kueue.x-k8s.io/resource-in-use]
    annotations:
      kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"kueue.x-k8s.io/v1beta1"}'
    managedFields:
    - manager: kubectl
      operation: Apply
  spec:
    namespaceSelector: {}
    cohort: shared
    queueingStrategy: BestEffortFIFO
    flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: TryNextFlavor}
    preemption: {reclaimWithinCohort: Never, withinClusterQueue: Never, borrowWithinCohort: {policy: Never}}
    stopPolicy: None
    resourceGroups:
    - coveredResources: [cpu, memory]
      flavors:
      - name: default-flavor
        resources:
        - {name: cpu, nominalQuota: "8"}
        - {name: memory, nominalQuota: 32Gi}
  status:
    pendingWorkloads: 0
    conditions: [{type: Active, status: "True"}]
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: ResourceFlavor
  metadata: {name: default-flavor, uid: x, resourceVersion: "1", finalizers: [kueue.x-k8s.io/resource-in-use]}
- apiVersion: kueue.x-k8s.io/v1beta1
  kind: LocalQueue
  metadata: {name: default, namespace: team-a, uid: y}
  spec: {clusterQueue: team-a, stopPolicy: None}
  status: {pendingWorkloads: 2}
- apiVersion: v1
  kind: Namespace
  metadata:
    name: team-a
    labels: {kubernetes.io/metadata.name: team-a}
  spec: {finalizers: [kubernetes]}
  status: {phase: Active}
)";
    auto r = import_text(dump);
    INFO(render_text(r.diags, {{"input.yaml", dump}}));
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.count("import.hygiene") == 1);
    CHECK(r.diags.count(Severity::Warning) == 0);
    CHECK(r.result->stats.passthrough == 0);
    for (const char* gone : {"uid", "resourceVersion", "managedFields", "status", "last-applied", "finalizers",
                             "pendingWorkloads", "creationTimestamp"})
        CHECK(r.text.find(gone) == std::string::npos);
    // Defaults written by the API server are not repeated in the site.
    CHECK(r.text.find("BestEffortFIFO") == std::string::npos);
    // No Cohort objects in the input: the site keeps it that way.
    CHECK(r.text.find("cohortAPIVersion: none") != std::string::npos);
    auto rebuilt = build(r.text);
    std::vector<Node> want;
    for (auto& d : docs_of_text(dump)) {
        // What the test expects hygiene to have removed.
        d.erase("status");
        Node* meta = d.find("metadata");
        meta->erase("finalizers");
        meta->erase("annotations");
        if (d.find("kind")->text() == "Namespace") {
            meta->erase("labels");
            d.erase("spec");
        }
        want.push_back(d);
    }
    for (const auto& d : semantic_differences(want, rebuilt)) FAIL_CHECK(d);
}

TEST_CASE("import: kinds queueforge does not know are kept whole, with a warning each", "[import]") {
    auto r = import_text(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec: {replicas: 2}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: check}
spec: {controllerName: example.com/check}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default-flavor}
)");
    REQUIRE(r.result);
    CHECK(r.result->stats.passthrough == 2);
    CHECK(r.mentions("import.passthrough", "Deployment/shop/web: the site format has no Deployment"));
    CHECK(r.mentions("import.passthrough", "AdmissionCheck/check"));
    for (const auto& d : r.diags.all())
        if (d.rule == "import.passthrough") CHECK(d.mark.line > 0);
    auto rebuilt = build(r.text);
    CHECK(rebuilt.size() == 3);
}

TEST_CASE("import: identical duplicates are imported once, conflicting ones are an error naming both", "[import]") {
    const std::string rf = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: gpu}\nspec: {nodeLabels: {a: b}}\n";
    auto same = import_text(rf + "---\n" + rf);
    REQUIRE(same.result);
    CHECK(same.count("import.duplicate") == 1);
    CHECK(same.result->stats.objects == 1);

    const std::string other = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: gpu}\nspec: {nodeLabels: {a: c}}\n";
    auto clash = import_text(rf + "---\n" + other);
    CHECK_FALSE(clash.result);
    REQUIRE(clash.count("import.conflict") == 1);
    for (const auto& d : clash.diags.all())
        if (d.rule == "import.conflict") {
            CHECK(d.message.find("ResourceFlavor/gpu") != std::string::npos);
            CHECK(d.message.find("input.yaml:1:1") != std::string::npos);
            CHECK(d.message.find("input.yaml:6:1") != std::string::npos);
            CHECK(d.mark.line == 6);
        }
}

TEST_CASE("import: objects Kueue would reject or the site cannot say fall back to passthrough", "[import]") {
    auto r = import_text(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: cpu}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: gpu.large}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: lends-too-much}
spec:
  namespaceSelector: {}
  cohortName: all
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: 4, lendingLimit: 8}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: uses-dotted-flavor}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: gpu.large, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: admits-nobody}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: 4}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: fine}
spec:
  namespaceSelector: {matchLabels: {team: fine}}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: 4, borrowingLimit: 2}]}]
  cohortName: all
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: fine-ns}
spec: {clusterQueue: fine}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: nobody-ns}
spec: {clusterQueue: admits-nobody}
)");
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.mentions("import.passthrough", "ClusterQueue/lends-too-much"));
    CHECK(r.mentions("import.passthrough", "ResourceFlavor/gpu.large: its name is not a DNS-1123 label"));
    CHECK(r.mentions("import.passthrough", "ClusterQueue/uses-dotted-flavor: it uses ResourceFlavor \"gpu.large\""));
    CHECK(r.mentions("import.passthrough", "ClusterQueue/admits-nobody: it has no namespaceSelector"));
    CHECK(r.mentions("import.passthrough", "LocalQueue/nobody-ns/q"));
    CHECK(r.result->stats.modelled == 3);  // cpu, fine, its LocalQueue
    CHECK(build(r.text).size() == 8);
}

TEST_CASE("import: a label selector the site does not write itself is kept as written", "[import]") {
    const std::string text = R"(apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: cpu}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: research, labels: {cost-center: "42"}}
spec:
  namespaceSelector:
    matchExpressions: [{key: research, operator: Exists}]
  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors: [{name: cpu, resources: [{name: memory, nominalQuota: 1024Mi}, {name: cpu, nominalQuota: 1500m}]}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: main, namespace: r1}
spec: {clusterQueue: research}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {name: main, namespace: r2, annotations: {kueue.x-k8s.io/default-queue: "true"}}
spec: {clusterQueue: research}
)";
    auto r = import_text(text);
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    INFO(r.text);
    REQUIRE(r.result->site.find("spec")->find("teams"));
    const Node& team = r.result->site.find("spec")->find("teams")->items()[0];
    CHECK(team.find("namespaceSelector")->is_map());
    CHECK(team.find("localQueue")->text() == "main");
    CHECK(team.find("defaultQueue")->text() == "false");
    const Node& nominal = *team.find("quota")->items()[0].find("nominal");
    CHECK(nominal.find("memory")->text() == "1Gi");
    CHECK(nominal.find("cpu")->text() == "1500m");
    CHECK(r.mentions("import.patch", "ClusterQueue/research: metadata.labels.cost-center"));
    CHECK(r.mentions("import.patch", "LocalQueue/r2/main: metadata.annotations.kueue.x-k8s.io/default-queue"));
    CHECK(spec_target(r) == "kueue-0.14");
    for (const auto& d : semantic_differences(docs_of_text(text), build(r.text))) FAIL_CHECK(d);
}

TEST_CASE("import: hierarchical Cohorts and v1beta2 cohortName", "[import]") {
    const std::string text = R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: root}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: "10"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: child}
spec:
  parentName: root
  fairSharing: {weight: "2"}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: "2", borrowingLimit: "4"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: cpu}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: a}
spec:
  cohortName: child
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: a}}
  preemption: {reclaimWithinCohort: Any, borrowWithinCohort: {policy: LowerPriority, maxPriorityThreshold: 100}}
  flavorFungibility: {whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor, preference: BorrowingOverPreemption}
  fairSharing: {weight: 500m}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: "1", lendingLimit: "1"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: a, annotations: {kueue.x-k8s.io/default-queue: "true"}}
spec: {clusterQueue: a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
description: urgent
)";
    auto r = import_text(text);
    INFO(render_text(r.diags, {{"input.yaml", text}}));
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.diags.count(Severity::Warning) == 0);
    CHECK(r.result->stats.passthrough == 0);
    const Node& spec = *r.result->site.find("spec");
    CHECK(spec.find("cohorts")->items()[0].find("parent")->text() == "root");
    CHECK(spec.find("priorityClasses")->items()[0].find("value")->text() == "1000");
    auto rebuilt = build(r.text);
    for (const auto& d : semantic_differences(docs_of_text(text), rebuilt)) FAIL_CHECK(d);
}

TEST_CASE("import: v1beta1 cohort with v1alpha1 Cohort objects picks a Kueue that serves both", "[import]") {
    const std::string text = R"(apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: org}
spec: {}
---
apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: team}
spec: {parent: org}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ResourceFlavor
metadata: {name: cpu}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: q}
spec:
  cohort: team
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: cpu, resources: [{name: cpu, nominalQuota: "1"}]}]
)";
    auto r = import_text(text);
    INFO(render_text(r.diags, {{"input.yaml", text}}));
    REQUIRE(r.result);
    CHECK(r.result->target == "kueue-0.12");
    CHECK(r.result->stats.passthrough == 0);
    auto rebuilt = build(r.text);
    for (const auto& d : semantic_differences(docs_of_text(text), rebuilt)) FAIL_CHECK(d);
}

TEST_CASE("import: --target and --name are honoured", "[import]") {
    auto objects = build_example("multi-team");
    auto r = import_text(render_stream(objects, ""), {.target = "rhoai-3.5", .site_name = "moved"});
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    CHECK(spec_target(r) == "rhoai-3.5");
    CHECK(r.result->site.find("metadata")->find("name")->text() == "moved");
    CHECK(r.count("import.queueforge-metadata") >= 1);  // part-of and the API version change
    build(r.text);

    Diagnostics diags;
    CHECK_FALSE(import_site(resources_of(render_stream(objects, "")), diags, {.target = "rhoai-9.9"}));
    CHECK(diags.has_errors());
    Diagnostics bad_name;
    CHECK_FALSE(import_site(resources_of(render_stream(objects, "")), bad_name, {.site_name = "Not_A_Name"}));
}

TEST_CASE("import: empty and hostile input never crash", "[import]") {
    Diagnostics diags;
    CHECK_FALSE(import_site({}, diags));
    CHECK(diags.has_errors());
    // Wrong types everywhere the importer reads.
    auto r = import_text(R"(apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: weird, labels: [a]}
spec:
  namespaceSelector: [x]
  cohortName: {a: b}
  resourceGroups: {a: b}
  preemption: 7
  flavorFungibility: [1]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: weird2}
spec:
  namespaceSelector: {}
  resourceGroups: [7, {flavors: 3}, {flavors: [5, {name: [x], resources: 9}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns1}
spec: 5
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf}
spec: {nodeLabels: [1], nodeTaints: {a: b}, tolerations: 5}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: p}
value: high
---
apiVersion: datasciencecluster.opendatahub.io/v2
kind: DataScienceCluster
metadata: {name: default-dsc}
spec: {components: [1]}
)");
    INFO(render_text(r.diags, {}));
    REQUIRE(r.result);
    auto rebuilt = build(r.text);
    CHECK(rebuilt.size() >= 6);

    // Only unnamed documents: each is named, and the error says why nothing is left.
    auto unnamed = import_text(R"(apiVersion: batch/v1
kind: Job
metadata: {generateName: sample-job-}
---
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes: [{role: control-plane}]
)");
    CHECK_FALSE(unnamed.result);
    auto said = render_text(unnamed.diags, {});
    CHECK(said.find("Job without metadata.name cannot be imported (objects named by generateName") != std::string::npos);
    CHECK(said.find("Cluster without metadata.name cannot be imported (not a Kubernetes object") != std::string::npos);
    CHECK(said.find("nothing to import: the input's 2 documents hold no object a site can declare") != std::string::npos);
}

// ---- the site format's patches and passthrough ------------------------------

TEST_CASE("site: patches add fields, refuse to change the site's own, and must meet an object", "[import]") {
    const std::string base = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: p}
spec:
  target: kueue-0.20
  pools: [{name: cpu}]
  teams:
  - name: a
    namespaceSelector: all
    quota: [{pool: cpu, nominal: {cpu: 1}}]
)";
    auto ok = build(base + R"(  patches:
  - kind: ClusterQueue
    name: a
    merge: {metadata: {labels: {cost: "1"}}, spec: {admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}}}
  passthrough:
  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: AdmissionCheck, metadata: {name: ac}, spec: {controllerName: x}}
)");
    const Object* cq = nullptr;
    for (const auto& o : ok)
        if (o.kind == "ClusterQueue") cq = &o;
    REQUIRE(cq);
    CHECK(cq->doc.find("metadata")->find("labels")->find("cost")->text() == "1");
    CHECK(cq->doc.find("spec")->find("admissionScope"));
    CHECK(std::any_of(ok.begin(), ok.end(), [](const Object& o) { return o.kind == "AdmissionCheck"; }));

    for (auto [extra, rule] : std::vector<std::pair<std::string, std::string>>{
             {"  patches: [{kind: ClusterQueue, name: a, merge: {spec: {queueingStrategy: StrictFIFO}}}]\n", "site.patch-conflict"},
             {"  patches: [{kind: ClusterQueue, name: b, merge: {spec: {x: 1}}}]\n", "site.patch-target"},
             {"  patches: [{kind: ClusterQueue, name: a}]\n", "site.required"},
             {"  passthrough: [{apiVersion: v1, kind: ConfigMap}]\n", "site.required"},
             {"  passthrough: [{apiVersion: kueue.x-k8s.io/v1beta2, kind: ClusterQueue, metadata: {name: a}}]\n",
              "site.duplicate-object"}}) {
        INFO(extra);
        Diagnostics diags;
        auto lowered = compile_site("site.yaml", base + extra, diags);
        CHECK_FALSE(lowered);
        bool found = false;
        for (const auto& d : diags.all()) found = found || d.rule == rule;
        CHECK(found);
    }
}

// ---- scale ------------------------------------------------------------------

namespace {

// A dump of `teams` teams: a flavor, a ClusterQueue, a LocalQueue, a Namespace
// and a Pod each (unknown kinds are the bulk of a real `kubectl get -A` dump).
std::string generated_dump(std::size_t teams) {
    std::string s;
    s.reserve(teams * 700);
    for (std::size_t i = 0; i < teams; ++i) {
        std::string n = std::to_string(i);
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f" + n +
             ", uid: u" + n + "}\nspec: {nodeLabels: {pool: p" + n + "}}\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: t" + n +
             ", resourceVersion: \"1\"}\nspec: {namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: n" + n +
             "}}, cohortName: c" + std::to_string(i % 10) +
             ", resourceGroups: [{coveredResources: [cpu], flavors: [{name: f" + n +
             ", resources: [{name: cpu, nominalQuota: " + std::to_string(1 + i % 7) + "}]}]}]}\nstatus: {pendingWorkloads: 0}\n";
        s += "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: default, namespace: n" + n +
             "}\nspec: {clusterQueue: t" + n + "}\n";
        s += "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n" + n + "}\n";
        s += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: n" + n + "}\nspec: {containers: [{name: c, image: x}]}\n";
    }
    return s;
}

}  // namespace

TEST_CASE("import: a 100,000-object dump is imported in bounded time", "[import][slow]") {
    const std::size_t teams = 20000;  // x 5 objects
    std::vector<Resource> resources;
    {
        // Several files, as a folder of dumps would be (each under the loader's size limit).
        LoadedResources loaded;
        Diagnostics diags;
        for (std::size_t part = 0; part < 4; ++part)
            load_resources_from_text("dump-" + std::to_string(part) + ".yaml", generated_dump(teams / 4), loaded, diags);
        REQUIRE_FALSE(diags.has_errors());
        resources = std::move(loaded.resources);
    }
    // Same names in each part: make them distinct per part.
    for (std::size_t i = 0; i < resources.size(); ++i) {
        Node* meta = resources[i].doc.find("metadata");
        std::string suffix = "x" + std::to_string(i / (teams / 4 * 5));
        for (const char* key : {"name", "namespace"})
            if (Node* v = meta->find(key)) *v = Node::string(v->text() + suffix);
        resources[i].ref.name = meta->find("name")->text();
        if (const Node* ns = meta->find("namespace")) resources[i].ref.namespace_ = ns->text();
        Node* spec = resources[i].doc.find("spec");
        const std::string kind = resources[i].ref.kind;
        if (kind == "LocalQueue") *spec->find("clusterQueue") = Node::string(spec->find("clusterQueue")->text() + suffix);
        if (kind == "ClusterQueue") {
            Node& sel = *spec->find("namespaceSelector")->find("matchLabels")->find("kubernetes.io/metadata.name");
            sel = Node::string(sel.text() + suffix);
            Node& flavor = *spec->find("resourceGroups")->items()[0].find("flavors")->items()[0].find("name");
            flavor = Node::string(flavor.text() + suffix);
        }
    }
    REQUIRE(resources.size() == 100000);
    Diagnostics diags;
    auto start = std::chrono::steady_clock::now();
    auto r = import_site(std::move(resources), diags);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(r);
    CHECK(r->stats.objects == 100000);
    CHECK(r->stats.passthrough == 20000);  // the Pods
    CHECK(r->stats.modelled == 80000);
    CHECK(r->stats.rounds <= 3);
    CHECK(seconds < 60.0);  // generous for debug and sanitizer builds; bench_import measures
}

// ---- robustness -------------------------------------------------------------

namespace {

// One random edit somewhere in the tree: drop a key, retype or respell a
// value, duplicate a list item.
void mutate(Node& n, std::mt19937& rng, int depth = 0) {
    static const std::vector<std::string> spellings = {"", "-1", "0", "1e400", "Borrow", "Preempt", "0.5", "x.y",
                                                       "Never", "Any", "StrictFIFO", "default", "kueue", "Managed",
                                                       std::string(300, 'a'), "1Ti", "12.5%", "true"};
    const bool stop = depth > 0 && rng() % 3 == 0;
    if (n.is_map() && n.size() && !stop) {
        auto& entries = n.entries();
        std::size_t i = rng() % entries.size();
        // apiVersion and kind make an object; the loader refuses it without them.
        if (depth == 0 && (entries[i].key == "apiVersion" || entries[i].key == "kind")) return;
        if (rng() % 6 == 0) {
            entries.erase(entries.begin() + static_cast<long>(i));
            return;
        }
        mutate(entries[i].value, rng, depth + 1);
        return;
    }
    if (n.is_seq() && n.size() && !stop) {
        auto& items = n.items();
        std::size_t i = rng() % items.size();
        if (rng() % 6 == 0) {
            items.push_back(items[i]);
            return;
        }
        mutate(items[i], rng, depth + 1);
        return;
    }
    switch (rng() % 6) {
    case 0: n = Node::string(spellings[rng() % spellings.size()]); break;
    case 1: n = Node::integer(static_cast<std::int64_t>(rng() % 5000) - 100); break;
    case 2: n = Node::boolean(rng() % 2 == 0); break;
    case 3: n = Node::null_value(); break;
    case 4: n = Node::mapping(); n.set("x", Node::string("y")); break;
    default: n = Node::sequence(); n.push(Node::string("z")); break;
    }
}

}  // namespace

TEST_CASE("import: mutated manifests never crash, and what it imports always builds", "[import]") {
    std::vector<Node> base;
    for (const char* example : {"multi-team", "rhoai-3", "seed-minimal"})
        for (const auto& o : build_example(example)) base.push_back(o.doc);
    std::mt19937 rng(20250101);
    int imported = 0;
    for (int round = 0; round < 300; ++round) {
        // Distinct objects: a mutated copy next to its original is a conflict, tested above.
        std::vector<Node> docs = base;
        std::shuffle(docs.begin(), docs.end(), rng);
        docs.resize(12);
        for (int m = 0; m < 4; ++m) mutate(docs[rng() % docs.size()], rng);
        std::string text = emit_yaml_stream(docs);
        LoadedResources loaded;
        Diagnostics load_diags;
        load_resources_from_text("fuzz.yaml", text, loaded, load_diags);
        if (load_diags.has_errors()) continue;
        Diagnostics diags;
        auto r = import_site(std::move(loaded.resources), diags);
        INFO(text);
        INFO(render_text(diags, {}));
        if (!r) {
            // Only conflicting duplicates (a mutated copy of an object) may stop an import.
            for (const auto& d : diags.all())
                if (d.severity == Severity::Error) CHECK(d.rule == "import.conflict");
            continue;
        }
        ++imported;
        build(render_imported_site(*r));
    }
    CHECK(imported > 50);
}

TEST_CASE("import: the site file is written whole or not at all", "[import]") {
    qf_test::TempDir dir;
    auto path = dir.path / "site.yaml";
    qf_test::write_text(path, "old\n");
    Diagnostics diags;
    CHECK(write_file_atomically(path.string(), "new\n", diags));
    CHECK(qf_test::read_text(path) == "new\n");
    std::size_t files = std::distance(fs::directory_iterator(dir.path), fs::directory_iterator());
    CHECK(files == 1);  // no temporary file left behind
    Diagnostics missing;
    CHECK_FALSE(write_file_atomically((dir.path / "no-such-dir" / "site.yaml").string(), "x\n", missing));
    CHECK(missing.has_errors());
    CHECK_FALSE(fs::exists(dir.path / "no-such-dir"));
}

TEST_CASE("import: Kueue's kueue-manager-config becomes spec.kueueConfig or is kept whole when it says more", "[import]") {
    const std::string golden = qf_test::read_text(qf_test::source_dir() / "tests/golden/kueue-config@kueue-0.18.yaml");
    auto r = import_text(golden);
    REQUIRE(r.result);
    INFO(r.text);
    CHECK(r.result->stats.passthrough == 0);
    const Node* kc = r.result->site.find("spec")->find("kueueConfig");
    REQUIRE(kc);
    CHECK(kc->find("frameworks")->items().size() == 2);
    CHECK(kc->find("deviceClassMappings")->items().size() == 2);
    CHECK_FALSE(kc->find("fairSharing"));  // the team's weight turns it on
    CHECK(render_stream(build(r.text), "") == golden.substr(golden.find("---")));

    // In another namespace, fair sharing on without a weight.
    std::string moved = golden;
    moved.replace(moved.find("namespace: kueue-system"), 23, "namespace: kueue-ops");
    const std::string weight = "  fairSharing:\n    weight: \"2\"\n";
    moved.erase(moved.find(weight), weight.size());
    auto m = import_text(moved);
    REQUIRE(m.result);
    const Node* mk = m.result->site.find("spec")->find("kueueConfig");
    REQUIRE(mk);
    CHECK(text_at(*mk, {"namespace"}) == "kueue-ops");
    CHECK(text_at(*mk, {"fairSharing"}) == "true");
    CHECK(render_stream(build(m.text), "") == moved.substr(moved.find("---")));

    // Fair sharing off under a weight: the site could not say it (the build
    // refuses weights that do nothing), so the ConfigMap is kept whole.
    std::string off = golden;
    const std::string fs = "    fairSharing:\n      preemptionStrategies:\n        - LessThanOrEqualToFinalShare\n"
                           "        - LessThanInitialShare\n";
    REQUIRE(off.find(fs) != std::string::npos);
    off.erase(off.find(fs), fs.size());
    auto o = import_text(off);
    REQUIRE(o.result);
    CHECK(o.result->stats.passthrough == 1);
    CHECK_FALSE(o.result->site.find("spec")->find("kueueConfig"));
    CHECK(render_stream(build(o.text), "") == off.substr(off.find("---")));

    // A setting the site cannot say: the ConfigMap is kept whole, and the
    // weight it turns on is not reported as unused.
    std::string more = golden;
    more.replace(more.find("    integrations:\n"), 0, "    waitForPodsReady:\n      timeout: 10m\n");
    auto w = import_text(more);
    REQUIRE(w.result);
    CHECK(w.result->stats.passthrough == 1);
    CHECK_FALSE(w.result->site.find("spec")->find("kueueConfig"));
    Diagnostics d;
    CHECK_FALSE(qf_test::build_text(w.text, d).empty());
    CHECK_FALSE(qf_test::has_rule(d, "site.fair-sharing-off"));
}
