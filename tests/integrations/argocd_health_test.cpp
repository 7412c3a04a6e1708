// The Argo CD health checks shipped in deploy/argocd/ (Lua), run with Debian's
// lua5.4 against live status blocks as Kueue and OpenShift AI write them
// (tests/fixtures/argocd-health/cases.yaml).
#include "test_util.hpp"

#include <queueforge/base/node_read.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <map>

using namespace queueforge;

namespace {

const char* kLua = "/usr/bin/lua5.4";

Node load_one(const std::filesystem::path& p) {
    Diagnostics d;
    auto docs = load_yaml(p.string(), qf_test::read_text(p), d);
    INFO(qf_test::messages(d));
    REQUIRE_FALSE(d.has_errors());
    REQUIRE(docs.size() == 1);
    return docs[0].root;
}

// "group_Kind" -> script, from argocd-cm's resource.customizations.health.* keys.
std::map<std::string, std::string> argocd_cm_scripts() {
    std::map<std::string, std::string> out;
    Node root = load_one(qf_test::source_dir() / "deploy/argocd/health-checks.yaml");
    constexpr std::string_view prefix = "resource.customizations.health.";
    for (const auto& e : child(&root, "data")->entries())
        if (e.key.starts_with(prefix)) out[e.key.substr(prefix.size())] = e.value.text();
    return out;
}

std::string lua_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
        else if (c == '\n') out += "\\n";
        else if (c < 0x20) out += "\\" + std::to_string(c);
        else out += static_cast<char>(c);
    }
    return out + "\"";
}

// The object as gopher-lua hands it to a health script: maps as tables keyed
// by string, lists as arrays, JSON numbers as numbers.
std::string lua_value(const Node& n) {
    switch (n.kind()) {
    case Node::Kind::Null: return "nil";
    case Node::Kind::Bool: return n.as_bool() ? "true" : "false";
    case Node::Kind::Int:
    case Node::Kind::Float: return n.text();
    case Node::Kind::String: return lua_string(n.text());
    case Node::Kind::Seq: {
        std::string out = "{";
        for (const auto& i : n.items()) out += lua_value(i) + ",";
        return out + "}";
    }
    case Node::Kind::Map: {
        std::string out = "{";
        for (const auto& e : n.entries()) out += "[" + lua_string(e.key) + "]=" + lua_value(e.value) + ",";
        return out + "}";
    }
    }
    return "nil";
}

struct Health {
    std::string status, message;
};

Health run_check(const std::string& script, const Node& object) {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "check.lua", script);
    qf_test::write_text(tmp.path / "run.lua", "obj = " + lua_value(object) +
                                                  "\nlocal hs = dofile(arg[1])\n"
                                                  "io.write(hs.status, \"\\n\", hs.message or \"\")\n");
    const std::string cmd = std::string(kLua) + " " + qf_test::shell_quote((tmp.path / "run.lua").string()) + " " +
                            qf_test::shell_quote((tmp.path / "check.lua").string()) + " >" +
                            qf_test::shell_quote((tmp.path / "out").string()) + " 2>&1";
    int rc = std::system(cmd.c_str());
    std::string out = qf_test::read_text(tmp.path / "out");
    INFO(out);
    REQUIRE(rc == 0);
    auto nl = out.find('\n');
    REQUIRE(nl != std::string::npos);
    return {out.substr(0, nl), out.substr(nl + 1)};
}

}  // namespace

TEST_CASE("argocd health: the Lua checks give Kueue's and OpenShift AI's live objects the right health", "[argocd][health]") {
    if (!std::filesystem::exists(kLua)) {
        WARN("skipped: " << kLua << " is not installed (Debian package lua5.4; scripts/setup.sh installs it)");
        return;
    }
    const auto scripts = argocd_cm_scripts();
    REQUIRE(scripts.size() == 6);
    Node cases = load_one(qf_test::source_dir() / "tests/fixtures/argocd-health/cases.yaml");
    std::size_t ran = 0;
    for (const Node& c : items(child(&cases, "cases"))) {
        const std::string name = text(child(&c, "name"));
        INFO(name);
        const Node* object = child(&c, "object");
        const std::string api = text(child(object, "apiVersion"));
        const std::string key = api.substr(0, api.find('/')) + "_" + text(child(object, "kind"));
        auto script = scripts.find(key);
        REQUIRE(script != scripts.end());
        Health h = run_check(script->second, *object);
        CHECK(h.status == text(at_path(c, {"expect", "status"})));
        if (const Node* msg = at_path(c, {"expect", "message"})) CHECK(h.message == msg->text());
        ++ran;
    }
    CHECK(ran >= 19);
}

TEST_CASE("argocd health: OpenShift GitOps gets the same scripts as argocd-cm", "[argocd][health]") {
    const auto scripts = argocd_cm_scripts();
    Node root = load_one(qf_test::source_dir() / "deploy/argocd/openshift-gitops-health-checks.yaml");
    std::map<std::string, std::string> ocp;
    for (const Node& c : items(at_path(root, {"spec", "resourceHealthChecks"})))
        ocp[text(child(&c, "group")) + "_" + text(child(&c, "kind"))] = text(child(&c, "check"));
    CHECK(ocp == scripts);
    for (const char* kind : {"kueue.x-k8s.io_ClusterQueue", "kueue.x-k8s.io_LocalQueue", "kueue.x-k8s.io_Cohort",
                             "kueue.x-k8s.io_ResourceFlavor", "kueue.x-k8s.io_Workload",
                             "infrastructure.opendatahub.io_HardwareProfile"})
        CHECK(scripts.count(kind) == 1);
}
