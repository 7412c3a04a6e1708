// Provenance of emitted values (explain.hpp): shares, defaults, teamDefaults,
// target rules, zero-filled resources; every leaf of every example answers
// with a real site position; object and path lookup with suggestions; the
// annotated build against its golden file.
#include "test_util.hpp"

#include <queueforge/base/provenance.hpp>
#include <queueforge/backends/explain.hpp>
#include <queueforge/frontend/platform.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace queueforge;
using qf_test::source_dir;

namespace {

struct Built {
    std::string text;
    Lowered lowered;
};

Built build_example(const std::string& example, const std::string& target = {}) {
    auto text = qf_test::read_text(source_dir() / "examples" / example / "queueforge-site.yaml");
    Diagnostics diags;
    auto lowered = compile_site("queueforge-site.yaml", text, diags, {.target_override = target});
    INFO(qf_test::messages(diags));
    REQUIRE(lowered);
    return {text, std::move(*lowered)};
}

Built build_text(const std::string& text) {
    Diagnostics diags;
    auto lowered = compile_site("site.yaml", text, diags);
    INFO(qf_test::messages(diags));
    REQUIRE(lowered);
    return {text, std::move(*lowered)};
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

// The site text at a mark, from its column to the end of the line.
std::string at(const std::string& text, Mark m) {
    auto lines = lines_of(text);
    REQUIRE(m.known());
    REQUIRE(static_cast<std::size_t>(m.line) <= lines.size());
    const std::string& l = lines[static_cast<std::size_t>(m.line - 1)];
    REQUIRE(static_cast<std::size_t>(m.col) <= l.size() + 1);
    return l.substr(static_cast<std::size_t>(m.col - 1));
}

const Object& object(const Lowered& l, const std::string& ref) {
    std::string error;
    const Object* o = explain::find_object(l.objects, ref, error);
    INFO(error);
    REQUIRE(o);
    return *o;
}

explain::FieldOrigin field(const Object& o, const std::string& path) {
    explain::Resolver r(o);
    auto f = r.field(path);
    INFO(path);
    REQUIRE(f);
    return *f;
}

const std::string kSite35 = R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: t
spec:
  target: rhoai-3.5
  pools:
    - name: big
      nodes: 3
      allocatable: {cpu: 7, memory: 1000Mi}
  teams:
    - name: a
      namespaces: [a1, a2]
      quota:
        - pool: big
          nominal: {cpu: 12.5%, memory: 1024Mi}
)";

}  // namespace

TEST_CASE("explain: a share of a pool's capacity names the pool, its capacity and the result", "[explain]") {
    auto b = build_example("multi-team");
    const Object& cq = object(b.lowered, "ClusterQueue/llm");
    auto f = field(cq, "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(f.value->text() == "224");
    CHECK(f.how == Derivation::Share);
    CHECK(f.own);
    CHECK(f.rule == "50% of pool h100 (4 nodes × 112 cpu = 448) = 224");
    CHECK(at(b.text, f.mark).starts_with("50%, memory: 50%"));
    auto gpu = field(cq, "spec.resourceGroups[0].flavors[0].resources[2].nominalQuota");
    CHECK(gpu.rule == "50% of pool h100 (4 nodes × 8 nvidia.com/gpu = 32) = 16");
    // A limit written as an absolute amount is copied.
    auto limit = field(cq, "spec.resourceGroups[0].flavors[0].resources[2].borrowingLimit");
    CHECK(limit.how == Derivation::Written);
    CHECK(limit.rule == "written in the site");
    CHECK(at(b.text, limit.mark).starts_with("8}"));
}

TEST_CASE("explain: rounded shares and respelt quantities say so", "[explain]") {
    auto b = build_text(kSite35);
    const Object& cq = object(b.lowered, "ClusterQueue/a");
    auto cpu = field(cq, "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(cpu.how == Derivation::Share);
    CHECK(cpu.rule == "12.5% of pool big (3 nodes × 7 cpu = 21) = 2625m");
    auto mem = field(cq, "spec.resourceGroups[0].flavors[0].resources[1].nominalQuota");
    CHECK(mem.value->text() == "1Gi");
    CHECK(mem.how == Derivation::Written);
    CHECK(mem.rule == "written in the site as 1024Mi (canonical form 1Gi)");
    auto s2 = kSite35;
    s2.replace(s2.find("12.5%"), 5, "10%");
    auto b2 = build_text(s2);
    auto cpu2 = field(object(b2.lowered, "ClusterQueue/a"), "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(cpu2.rule == "10% of pool big (3 nodes × 7 cpu = 21) = 2100m");
    auto s3 = kSite35;
    s3.replace(s3.find("12.5%"), 5, "0.5");
    auto b3 = build_text(s3);  // FieldOrigin::value points into it
    auto cpu3 = field(object(b3.lowered, "ClusterQueue/a"), "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(cpu3.value->text() == "500m");
    CHECK(cpu3.rule == "written in the site as 0.5 (canonical form 500m)");
    auto s4 = kSite35;
    s4.replace(s4.find("12.5%"), 5, "33.333333%");
    auto b4 = build_text(s4);
    auto cpu4 = field(object(b4.lowered, "ClusterQueue/a"), "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota");
    CHECK(cpu4.value->text() == "6999m");
    CHECK(cpu4.rule.find("rounded down to 6999m (Kueue counts cpu in milli-units)") != std::string::npos);
}

TEST_CASE("explain: defaults, teamDefaults and the team's own settings", "[explain]") {
    auto b = build_example("multi-team");
    const Object& llm = object(b.lowered, "ClusterQueue/llm");
    auto strategy = field(llm, "spec.queueingStrategy");
    CHECK(strategy.how == Derivation::Default);
    CHECK(strategy.rule == "default: BestEffortFIFO (Kueue's CRD default, written explicitly)");
    CHECK(at(b.text, strategy.mark).starts_with("name: llm"));
    auto search = field(object(b.lowered, "cq/search"), "spec.queueingStrategy");
    CHECK(search.how == Derivation::Written);
    CHECK(at(b.text, search.mark) == "StrictFIFO");

    auto reclaim = field(llm, "spec.preemption.reclaimWithinCohort");
    CHECK(reclaim.how == Derivation::TeamDefaults);
    CHECK(reclaim.rule == "teamDefaults.preemption.reclaimWithinCohort");
    CHECK(at(b.text, reclaim.mark) == "Any");
    auto borrow = field(llm, "spec.flavorFungibility.whenCanBorrow");
    CHECK(borrow.rule == "teamDefaults.flavorFungibility.whenCanBorrow");
    auto bwc = field(llm, "spec.preemption.borrowWithinCohort");
    CHECK(bwc.how == Derivation::Default);
    CHECK(bwc.rule.find("CRD default from 0.10") != std::string::npos);

    const Object& lq = object(b.lowered, "LocalQueue/llm-train/team-queue");
    auto name = field(lq, "metadata.name");
    CHECK(name.how == Derivation::TeamDefaults);
    CHECK(name.rule == "teamDefaults.localQueue");
    CHECK(at(b.text, name.mark) == "team-queue");
    auto dq = field(lq, "metadata.annotations[kueue.x-k8s.io/default-queue]");
    CHECK(dq.how == Derivation::Default);
    auto ns = field(lq, "metadata.namespace");
    CHECK(at(b.text, ns.mark).starts_with("llm-train"));
    auto label = field(lq, "metadata.labels[queueforge.io/team]");
    CHECK(label.how == Derivation::Generated);
    CHECK(label.rule == "generated label: the team's name");
}

TEST_CASE("explain: target rules", "[explain]") {
    auto b = build_text(kSite35);
    const Object& dsc = object(b.lowered, "DataScienceCluster/default-dsc");
    auto acq = field(dsc, "spec.components.kueue.autoCreateQueues");
    CHECK(acq.how == Derivation::Target);
    CHECK(acq.rule.starts_with("target rhoai-3.5: autoCreateQueues false"));
    CHECK(at(b.text, acq.mark) == "rhoai-3.5");
    // Template values name the template and its line.
    explain::Resolver r(dsc);
    bool template_leaf = false;
    for (const auto& f : r.leaves())
        if (f.rule.find("DataScienceCluster template (templates/dsc/") != std::string::npos) template_leaf = true;
    CHECK(template_leaf);

    const Object& cq = object(b.lowered, "ClusterQueue/a");
    auto api = field(cq, "apiVersion");
    CHECK(api.how == Derivation::Target);
    CHECK(api.rule == "target rhoai-3.5: kueue.x-k8s.io/v1beta2 is the API version it serves for ClusterQueue");

    // Before Kueue 0.15 the CRD default MayStopSearch is spelt Borrow.
    auto old = build_example("seed-minimal", "kueue-0.13");
    auto when = field(object(old.lowered, "ClusterQueue/cluster-queue"), "spec.flavorFungibility.whenCanBorrow");
    CHECK(when.value->text() == "Borrow");
    CHECK(when.rule.find("spells MayStopSearch as Borrow") != std::string::npos);

    auto multi = build_example("multi-team");
    auto ns = field(object(multi.lowered, "Namespace/llm-train"), "metadata.labels");
    CHECK(ns.value->is_map());
}

TEST_CASE("explain: zero-filled resources and resource groups", "[explain]") {
    auto b = build_example("multi-team");
    const Object& cq = object(b.lowered, "ClusterQueue/llm");
    // Pool cpu's quota lists cpu and memory; the group also covers the GPU.
    auto name = field(cq, "spec.resourceGroups[0].flavors[2].resources[2].name");
    CHECK(name.value->text() == "nvidia.com/gpu");
    CHECK(name.how == Derivation::ZeroFilled);
    CHECK(!name.own);
    auto nominal = field(cq, "spec.resourceGroups[0].flavors[2].resources[2].nominalQuota");
    CHECK(nominal.value->text() == "0");
    CHECK(nominal.how == Derivation::ZeroFilled);
    CHECK(nominal.rule ==
          "zero-filled: resource groups need every resource in every flavor (the quota for pool cpu lists no nvidia.com/gpu)");
    CHECK(at(b.text, nominal.mark).starts_with("pool: cpu"));

    auto covered = field(cq, "spec.resourceGroups[0].coveredResources[2]");
    CHECK(covered.how == Derivation::Formed);
    CHECK(at(b.text, covered.mark).starts_with("nvidia.com/gpu: 50%"));
    auto flavor = field(cq, "spec.resourceGroups[0].flavors[1].name");
    CHECK(at(b.text, flavor.mark) == "a100");
}

TEST_CASE("explain: fields without a record inherit from their nearest recorded parent", "[explain]") {
    auto b = build_example("multi-team");
    const Object& cq = object(b.lowered, "ClusterQueue/llm");
    auto kind = field(cq, "kind");
    CHECK(!kind.own);
    CHECK(kind.from.empty());
    CHECK(kind.how == Derivation::Object);
    CHECK(kind.rule == "team llm: one ClusterQueue per team");
    auto rname = field(cq, "spec.resourceGroups[0].flavors[0].resources[1].name");
    CHECK(!rname.own);
    CHECK(rname.from == "spec.resourceGroups[0].flavors[0].resources[1]");
    CHECK(at(b.text, rname.mark).starts_with("memory: 50%"));

    // An object lowered without records still answers with its origin, and a
    // node copied from the site answers with its own mark.
    Object bare;
    bare.kind = "Thing";
    bare.name = "x";
    bare.origin = {3, 5};
    bare.doc = Node::mapping();
    bare.doc.set("a", Node::string("b"));
    bare.doc.set("c", Node::string("d", {7, 9}));
    explain::Resolver r(bare);
    auto leaves = r.leaves();
    REQUIRE(leaves.size() == 2);
    CHECK(leaves[0].mark == Mark{3, 5});
    CHECK(leaves[0].how == Derivation::Object);
    CHECK(leaves[1].mark == Mark{7, 9});
    CHECK(leaves[1].rule == "copied from the site as written");
}

TEST_CASE("explain: every leaf of every object of every example points at a site position", "[explain]") {
    // Each example as written, and the two larger ones on every target.
    std::vector<std::pair<std::string, std::string>> runs = {{"seed-minimal", ""}, {"multi-team", ""}, {"rhoai-3", ""}};
    for (const auto& t : supported_targets()) {
        runs.emplace_back("multi-team", t);
        runs.emplace_back("rhoai-3", t);
    }
    for (const auto& [example, target] : runs) {
        auto text = qf_test::read_text(source_dir() / "examples" / example / "queueforge-site.yaml");
        Diagnostics diags;
        auto lowered = compile_site("queueforge-site.yaml", text, diags, {.target_override = target});
        if (!lowered) continue;  // a target that refuses the example (e.g. cohorts before Kueue 0.9)
        auto lines = lines_of(text);
        std::size_t leaves = 0;
        for (const auto& o : lowered->objects) {
            explain::Resolver r(o);
            INFO(example << " " << target << " " << explain::object_ref(o));
            CHECK(r.whole().mark.known());
            for (const auto& f : r.leaves()) {
                ++leaves;
                INFO(f.path << " " << f.rule);
                CHECK(!f.rule.empty());
                REQUIRE(f.mark.known());
                REQUIRE(static_cast<std::size_t>(f.mark.line) <= lines.size());
                CHECK(static_cast<std::size_t>(f.mark.col) <= lines[static_cast<std::size_t>(f.mark.line - 1)].size());
                // The path the leaf is reported under finds the same leaf.
                auto again = r.field(f.path);
                REQUIRE(again);
                CHECK(again->value == f.value);
                CHECK(again->mark == f.mark);
            }
        }
        CHECK(leaves > 0);
    }
}

TEST_CASE("explain: field paths are spelt like diagnostics and read back", "[explain]") {
    CHECK(explain::append_key("", "spec") == "spec");
    CHECK(explain::append_key("spec", "resourceGroups") == "spec.resourceGroups");
    CHECK(explain::append_index("spec.resourceGroups", 3) == "spec.resourceGroups[3]");
    CHECK(explain::append_key("metadata.labels", "queueforge.io/team") == "metadata.labels[queueforge.io/team]");
    CHECK(explain::append_key("m", "a]b") == "m['a]b']");
    CHECK(explain::append_key("m", "") == "m['']");
    for (std::string key : {"queueforge.io/team", "a]b", "x", "1.5", "'q", "with space"}) {
        auto path = explain::append_key("metadata.labels", key);
        auto steps = explain::parse_path(path);
        INFO(path);
        REQUIRE(steps);
        REQUIRE(steps->size() == 3);
        CHECK(steps->back().key == key);
    }
    auto steps = explain::parse_path("object.spec.resourceGroups[0].flavors['x.y'][\"z\"]");
    REQUIRE(steps);
    REQUIRE(steps->size() == 6);
    CHECK(steps->at(2).is_index);
    CHECK(steps->at(4).key == "x.y");
    CHECK(steps->at(5).key == "z");
    for (const char* bad : {"spec[", "spec..x", "spec.", "a[]", "a['x", "[99999999999999999999"})
        CHECK_FALSE(explain::parse_path(bad));
}

TEST_CASE("explain: objects by KIND/NAME, KIND/NAMESPACE/NAME, plural and short kinds, with suggestions", "[explain]") {
    auto b = build_example("multi-team");
    const auto& objs = b.lowered.objects;
    std::string error;
    CHECK(explain::find_object(objs, "ClusterQueue/llm", error));
    CHECK(explain::find_object(objs, "clusterqueues/llm", error));
    CHECK(explain::find_object(objs, "cq/llm", error));
    CHECK(explain::find_object(objs, "rf/h100", error));
    CHECK(explain::find_object(objs, "LocalQueue/vision/team-queue", error));

    CHECK_FALSE(explain::find_object(objs, "ClusterQueue/lm", error));
    CHECK(error.find("did you mean ClusterQueue/llm?") != std::string::npos);
    CHECK_FALSE(explain::find_object(objs, "ClusterQeue/llm", error));
    CHECK(error.find("did you mean ClusterQueue?") != std::string::npos);
    CHECK_FALSE(explain::find_object(objs, "LocalQueue/team-queue", error));
    CHECK(error.find("ambiguous") != std::string::npos);
    CHECK(error.find("LocalQueue/llm-train/team-queue") != std::string::npos);
    CHECK_FALSE(explain::find_object(objs, "LocalQueue/visio/team-queue", error));
    CHECK(error.find("did you mean LocalQueue/vision/team-queue?") != std::string::npos);
    for (const char* bad : {"", "/", "ClusterQueue", "ClusterQueue/", "a/b/c/d", "//x"}) {
        CHECK_FALSE(explain::find_object(objs, bad, error));
        CHECK(!error.empty());
    }

    explain::Resolver r(object(b.lowered, "ClusterQueue/llm"));
    CHECK_FALSE(r.field("spec.queueingStrategi"));
    CHECK(explain::unknown_field_message(r, "spec.queueingStrategi").find("did you mean spec.queueingStrategy?") !=
          std::string::npos);
    CHECK(explain::unknown_field_message(r, "spec.preemption.nothingLikeThisAtAll").find("spec.preemption has reclaimWithinCohort") !=
          std::string::npos);
    CHECK(explain::unknown_field_message(r, "spec[").find("is not a field path") != std::string::npos);
    CHECK_FALSE(r.field("spec.resourceGroups[7]"));
    CHECK_FALSE(r.field("spec.queueingStrategy.deeper"));
}

TEST_CASE("explain: the command's answers in text and JSON", "[explain]") {
    auto b = build_example("multi-team");
    const std::vector<SourceText> srcs{{"examples/multi-team/queueforge-site.yaml", b.text}};
    explain::RenderOptions opts{srcs.front().path, &srcs};
    auto a = explain::answer(b.lowered.objects, {"ClusterQueue/llm", "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", false}, opts);
    REQUIRE(a.found);
    CHECK(a.output.starts_with("ClusterQueue/llm\n  examples/multi-team/queueforge-site.yaml:"));
    CHECK(a.output.find("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: 224\n") != std::string::npos);
    CHECK(a.output.find("50% of pool h100 (4 nodes × 112 cpu = 448) = 224\n") != std::string::npos);
    CHECK(a.output.find("          nominal: {cpu: 50%, memory: 50%, nvidia.com/gpu: 50%}\n") != std::string::npos);

    // A map answers for itself and every leaf under it.
    auto pre = explain::answer(b.lowered.objects, {"cq/llm", "spec.preemption", true}, opts);
    REQUIRE(pre.found);
    auto j = nlohmann::json::parse(pre.output);
    CHECK(j["object"]["kind"] == "ClusterQueue");
    REQUIRE(j["fields"].size() == 4);  // preemption and its three leaves
    CHECK(j["fields"][0]["path"] == "spec.preemption");
    CHECK(j["fields"][1]["path"] == "spec.preemption.reclaimWithinCohort");
    CHECK(j["fields"][1]["value"] == "Any");
    CHECK(j["fields"][1]["derivation"] == "teamDefaults");
    CHECK(j["fields"][1]["source"] == "      reclaimWithinCohort: Any");
    CHECK(j["fields"][1]["line"].get<int>() > 0);

    // Every leaf without a path.
    auto all = explain::answer(b.lowered.objects, {"WorkloadPriorityClass/production", "", true}, opts);
    REQUIRE(all.found);
    auto ja = nlohmann::json::parse(all.output);
    CHECK(ja["fields"].size() > 8);

    auto missing = explain::answer(b.lowered.objects, {"cq/llm", "spec.nope", false}, opts);
    CHECK_FALSE(missing.found);
    CHECK(missing.error.find("no field spec.nope in ClusterQueue/llm") != std::string::npos);
}

TEST_CASE("explain: build --annotate writes the provenance as comments, the default output is unchanged", "[explain]") {
    auto b = build_example("multi-team");
    std::string plain = render_stream(b.lowered.objects, "queueforge-site.yaml");
    std::string annotated = render_stream(b.lowered.objects, "queueforge-site.yaml", "queueforge-site.yaml");
    CHECK(plain == qf_test::read_text(source_dir() / "tests/golden/multi-team.yaml"));
    // Removing the comment lines gives the plain stream back.
    std::string stripped;
    for (const auto& l : lines_of(annotated))
        if (!l.starts_with("# ") || l.starts_with("# Generated by queueforge")) stripped += l + "\n";
    CHECK(stripped == plain);
    CHECK(annotated.find("---\n# ClusterQueue/llm from queueforge-site.yaml:") != std::string::npos);
    CHECK(annotated.find("#   spec.resourceGroups[0].flavors[0].resources[0].nominalQuota from queueforge-site.yaml:") !=
          std::string::npos);

    // A rule with a line break stays one comment line.
    Object o;
    o.kind = "Thing";
    o.name = "x";
    o.doc = Node::mapping();
    o.doc.set("a", Node::string("b"));
    REQUIRE(provenance::record(o, "a", {1, 1}, Derivation::Default, "two\nlines"));
    CHECK_FALSE(provenance::record(o, "b", {1, 1}, Derivation::Default, "no such field"));
    auto block = explain::annotation(o, "f.yaml");
    for (const auto& l : lines_of(block)) CHECK(l.starts_with("#"));

    // The CLI, against the golden file (QF_UPDATE_GOLDEN=1 rewrites it).
    auto r = qf_test::run_cli("build " + qf_test::shell_quote((source_dir() / "examples/multi-team").string()) + " --annotate");
    INFO(r.err);
    REQUIRE(r.exit == 0);
    auto golden = source_dir() / "tests/golden/multi-team.annotated.yaml";
    if (std::getenv("QF_UPDATE_GOLDEN")) qf_test::write_text(golden, r.out);
    CHECK(r.out == qf_test::read_text(golden));

    // -o DIR: each file carries its object's block; --check accepts what it wrote.
    qf_test::TempDir tmp;
    auto dir = (tmp.path / "out").string();
    auto site = qf_test::shell_quote((source_dir() / "examples/multi-team").string());
    REQUIRE(qf_test::run_cli("build " + site + " --annotate -o " + qf_test::shell_quote(dir)).exit == 0);
    auto cq = qf_test::read_text(tmp.path / "out" / "05-clusterqueue-llm.yaml");
    CHECK(cq.starts_with("# Generated by queueforge from queueforge-site.yaml. Do not edit.\n---\n# ClusterQueue/llm from "));
    CHECK(qf_test::run_cli("build " + site + " --annotate --check " + qf_test::shell_quote(dir)).exit == 0);
    CHECK(qf_test::run_cli("build " + site + " --check " + qf_test::shell_quote(dir)).exit == 1);
}

TEST_CASE("explain: patches and passthrough objects say they were kept by import", "[explain]") {
    auto b = build_text(R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata: {name: p}
spec:
  target: kueue-0.20
  pools: [{name: cpu}]
  teams:
  - name: a
    namespaceSelector: all
    quota: [{pool: cpu, nominal: {cpu: 1}}]
  patches:
  - kind: ClusterQueue
    name: a
    merge: {metadata: {labels: {cost/center: "1"}}, spec: {admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}}}
  passthrough:
  - {apiVersion: kueue.x-k8s.io/v1beta2, kind: AdmissionCheck, metadata: {name: ac}, spec: {controllerName: x}}
)");
    const Object& cq = object(b.lowered, "ClusterQueue/a");
    auto label = field(cq, "metadata.labels[cost/center]");
    CHECK(label.own);
    CHECK(label.rule == "patch for ClusterQueue \"a\": a field the site format has no setting for (kept by queueforge import)");
    CHECK(at(b.text, label.mark) == "\"1\"}}, spec: {admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}}}");
    auto mode = field(cq, "spec.admissionScope.admissionMode");
    CHECK(mode.own);
    CHECK(at(b.text, mode.mark) == "UsageBasedAdmissionFairSharing}}}");
    CHECK(mode.rule.starts_with("patch for ClusterQueue \"a\""));
    // The site's own fields keep their own answers.
    CHECK(field(cq, "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota").rule == "written in the site");

    const Object& ac = object(b.lowered, "AdmissionCheck/ac");
    explain::Resolver r(ac);
    CHECK(r.whole().rule == "spec.passthrough: a whole manifest the site format cannot express, emitted as written");
    CHECK(at(b.text, r.whole().mark).starts_with("{apiVersion: kueue.x-k8s.io/v1beta2, kind: AdmissionCheck"));
    auto controller = field(ac, "spec.controllerName");
    CHECK(at(b.text, controller.mark) == "x}}");
}
