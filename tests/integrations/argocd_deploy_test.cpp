// deploy/argocd/ and the README's Argo CD section, checked offline (there is
// no cluster here): every command line of the section is exercised -- each
// `kubectl apply -f` file parses as one object of the namespace given, the
// `kubectl patch --patch-file` file is one strategic-merge patch that, merged
// into an argocd-repo-server Deployment, adds a sidecar whose every mount has
// a volume, the ConfigMap carries plugin.yaml, and image, user, paths and
// plugin name agree with the Containerfile, scripts/build-image.sh and the
// Application; the `queueforge` lines run. A line of any other kind fails
// the test until it is checked here.
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <regex>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

fs::path src() { return qf_test::source_dir(); }

json to_json(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: {
            json o = json::object();
            for (const auto& kv : n) o[kv.first.as<std::string>()] = to_json(kv.second);
            return o;
        }
        case YAML::NodeType::Sequence: {
            json a = json::array();
            for (const auto& x : n) a.push_back(to_json(x));
            return a;
        }
        case YAML::NodeType::Scalar: return n.as<std::string>();
        default: return nullptr;
    }
}

// The one YAML document of a file (a second one is an error: kubectl patch
// --patch-file reads only the first).
json one_document(const fs::path& p) {
    auto docs = YAML::LoadAll(qf_test::read_text(p));
    INFO(p.string());
    REQUIRE(docs.size() == 1);
    return to_json(docs[0]);
}

// Kubernetes' strategic merge for the fields a pod-template patch touches:
// maps merge key by key; lists of containers, volumes and env merge by
// `name`, volumeMounts by `mountPath` (their patchMergeKey in k8s.io/api
// core/v1 types.go); other lists and scalars are replaced.
json strategic_merge(json base, const json& patch, const std::string& key = {}) {
    if (patch.is_object() && base.is_object()) {
        for (auto it = patch.begin(); it != patch.end(); ++it)
            base[it.key()] = base.contains(it.key()) ? strategic_merge(base[it.key()], it.value(), it.key()) : it.value();
        return base;
    }
    const std::string merge_key = key == "volumeMounts"                                    ? "mountPath"
                                  : key == "containers" || key == "volumes" || key == "env" ? "name"
                                                                                            : "";
    if (patch.is_array() && base.is_array() && !merge_key.empty()) {
        for (const auto& item : patch) {
            auto same = std::find_if(base.begin(), base.end(),
                                     [&](const json& b) { return b.value(merge_key, "") == item.value(merge_key, "#"); });
            if (same != base.end())
                *same = strategic_merge(*same, item);
            else
                base.push_back(item);
        }
        return base;
    }
    return patch;
}

// The parts of upstream Argo CD's argocd-repo-server Deployment
// (manifests/base/repo-server/argocd-repo-server-deployment.yaml, v2.x/v3.x)
// that the sidecar shares: the var-files and plugins volumes.
json repo_server_fixture() {
    return json::parse(R"({
      "apiVersion": "apps/v1", "kind": "Deployment",
      "metadata": {"name": "argocd-repo-server"},
      "spec": {"template": {"spec": {
        "initContainers": [{"name": "copyutil", "image": "quay.io/argoproj/argocd",
                            "volumeMounts": [{"name": "var-files", "mountPath": "/var/run/argocd"}]}],
        "containers": [{"name": "argocd-repo-server", "image": "quay.io/argoproj/argocd",
                        "volumeMounts": [{"name": "var-files", "mountPath": "/var/run/argocd"},
                                         {"name": "plugins", "mountPath": "/home/argocd/cmp-server/plugins"},
                                         {"name": "tmp", "mountPath": "/tmp"}]}],
        "volumes": [{"name": "var-files", "emptyDir": {}}, {"name": "plugins", "emptyDir": {}},
                    {"name": "tmp", "emptyDir": {}}]}}}})");
}

// The Containerfile's instructions: COPY destinations by source, USER, ENV.
struct Containerfile {
    std::map<std::string, std::string> copies;  // source -> destination
    std::string user, env;
};

Containerfile containerfile() {
    Containerfile c;
    std::istringstream in(qf_test::read_text(src() / "deploy/argocd/Containerfile"));
    std::string line;
    const std::regex copy(R"(^COPY (?:--chown=\S+ )?(\S+) (\S+)$)");
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, copy)) c.copies[m[1]] = m[2];
        if (line.starts_with("USER ")) c.user = line.substr(5);
        if (line.starts_with("ENV ")) c.env = line.substr(4);
    }
    return c;
}

std::vector<std::string> section_commands() {
    const std::string readme = qf_test::read_text(src() / "README.md");
    const auto begin = readme.find("\n## Argo CD\n");
    REQUIRE(begin != std::string::npos);
    const auto end = readme.find("\n## ", begin + 1);
    std::istringstream in(readme.substr(begin, end - begin));
    std::vector<std::string> out;
    std::string line;
    bool block = false;
    while (std::getline(in, line)) {
        if (line.starts_with("```")) {
            block = !block;
            continue;
        }
        if (!block || line.empty()) continue;
        if (auto hash = line.find("  #"); hash != std::string::npos) line = line.substr(0, hash);
        line.erase(line.find_last_not_of(' ') + 1);
        out.push_back(line);
    }
    return out;
}

std::string project_version() {
    std::smatch m;
    const std::string cmake = qf_test::read_text(src() / "CMakeLists.txt");
    REQUIRE(std::regex_search(cmake, m, std::regex(R"(project\(queueforge VERSION ([0-9.]+))")));
    return m[1];
}

// `kubectl patch deployment argocd-repo-server -n argocd --patch-file F`
void check_patch(const fs::path& file) {
    const json patch = one_document(file);
    // A patch of a Deployment's pod template, nothing else.
    REQUIRE(patch.size() == 1);
    REQUIRE(patch["spec"].size() == 1);
    REQUIRE(patch["spec"]["template"].size() == 1);
    const json merged = strategic_merge(repo_server_fixture(), patch);
    const json& pod = merged["spec"]["template"]["spec"];
    REQUIRE(pod["containers"].size() == 2);
    CHECK(pod["containers"][0]["name"] == "argocd-repo-server");
    CHECK(pod["containers"][0]["volumeMounts"].size() == 3);
    const json& sidecar = pod["containers"][1];
    CHECK(sidecar["name"] == "queueforge");
    CHECK(sidecar["command"] == json::array({"/var/run/argocd/argocd-cmp-server"}));
    // Every mount has a volume of the merged pod: the repo-server's shared
    // var-files and plugins, the patch's own ConfigMap and /tmp.
    std::set<std::string> volumes;
    for (const auto& v : pod["volumes"]) volumes.insert(v["name"]);
    std::map<std::string, json> mounts;
    for (const auto& m : sidecar["volumeMounts"]) {
        CHECK(volumes.count(m["name"]) == 1);
        mounts[m["mountPath"]] = m;
    }
    CHECK(mounts["/var/run/argocd"]["name"] == "var-files");
    CHECK(mounts["/home/argocd/cmp-server/plugins"]["name"] == "plugins");
    // Its own /tmp, never the repo-server's.
    CHECK(mounts["/tmp"]["name"] != "tmp");

    // The image and user the Containerfile and build-image.sh produce.
    auto cf = containerfile();
    CHECK(sidecar["image"] == "registry.example.com/queueforge:" + project_version());
    CHECK(qf_test::read_text(src() / "scripts/build-image.sh").find("tag=\"registry.example.com/queueforge:$version\"") !=
          std::string::npos);
    CHECK(cf.user == sidecar["securityContext"]["runAsUser"].get<std::string>() + ":999");
    CHECK(sidecar["securityContext"]["runAsNonRoot"] == "true");
    // The plugin definition: the ConfigMap's key, where the image has it too.
    const json& config = mounts["/home/argocd/cmp-server/config/plugin.yaml"];
    REQUIRE(config.is_object());
    CHECK(cf.copies["deploy/argocd/plugin.yaml"] == "/home/argocd/cmp-server/config/plugin.yaml");
    const auto cm_volume = std::find_if(pod["volumes"].begin(), pod["volumes"].end(),
                                        [&](const json& v) { return v["name"] == config["name"]; });
    REQUIRE(cm_volume != pod["volumes"].end());
    const json cm = one_document(src() / "deploy/argocd/plugin-configmap.yaml");
    CHECK((*cm_volume)["configMap"]["name"] == cm["metadata"]["name"]);
    CHECK(cm["data"].contains(config["subPath"].get<std::string>()));
    // The OpenShift GitOps variant declares the same container.
    const json argocd = one_document(src() / "deploy/argocd/openshift-gitops-argocd.yaml");
    const json& os = argocd["spec"]["repo"]["sidecarContainers"][0];
    CHECK(os["image"] == sidecar["image"]);
    CHECK(os["command"] == sidecar["command"]);
}

// `kubectl apply [-n NS] -f F`
void check_apply(const fs::path& file, const std::string& ns) {
    const json obj = one_document(file);
    CHECK(obj.contains("apiVersion"));
    CHECK(obj.contains("kind"));
    CHECK(obj["metadata"].contains("name"));
    // kubectl refuses an object whose namespace differs from -n.
    if (!ns.empty() && obj["metadata"].contains("namespace")) CHECK(obj["metadata"]["namespace"] == ns);
    if (obj["kind"] == "ConfigMap") {
        // The same plugin definition as deploy/argocd/plugin.yaml (baked into the image).
        const json plugin = one_document(src() / "deploy/argocd/plugin.yaml");
        CHECK(to_json(YAML::Load(obj["data"]["plugin.yaml"].get<std::string>())) == plugin);
        CHECK(plugin["metadata"]["name"] == "queueforge-v1");
        CHECK(plugin["spec"]["generate"]["command"][0] == "queueforge");
    }
    if (obj["kind"] == "Application") {
        const json plugin = one_document(src() / "deploy/argocd/plugin.yaml");
        CHECK(obj["spec"]["source"]["plugin"]["name"] == plugin["metadata"]["name"]);
    }
}

}  // namespace

TEST_CASE("argocd deploy: every command of the README's Argo CD section is checked offline", "[argocd][deploy]") {
    const auto lines = section_commands();
    REQUIRE(lines.size() >= 6);
    std::smatch m;
    int patches = 0, applies = 0, runs = 0, health = 0;
    for (const auto& line : lines) {
        INFO("README Argo CD section: " << line);
        if (std::regex_match(line, m, std::regex(R"(kubectl patch deployment argocd-repo-server -n argocd --patch-file (\S+))"))) {
            check_patch(src() / m[1].str());
            ++patches;
        } else if (std::regex_match(line, m, std::regex(R"(kubectl apply (?:-n (\S+) )?-f (\S+))"))) {
            check_apply(src() / m[2].str(), m[1]);
            ++applies;
        } else if (std::regex_match(line, m, std::regex(R"((?:kubectl -n argocd patch configmap argocd-cm|oc -n openshift-gitops patch argocd openshift-gitops) --type merge --patch-file (\S+))"))) {
            // The health checks (tests/integrations/argocd_health_test.cpp runs their Lua):
            // a merge patch of argocd-cm's data, or of the ArgoCD resource's spec.
            const json patch = one_document(src() / m[1].str());
            if (line.starts_with("kubectl"))
                CHECK((patch.contains("data") && patch["data"].is_object() && !patch["data"].empty()));
            else
                CHECK((patch.contains("spec") && patch["spec"]["resourceHealthChecks"].is_array()));
            ++health;
        } else if (std::regex_match(line, m, std::regex(R"(scripts/(release|build-image)\.sh)"))) {
            // Built and run by CI's release stage and the "[release]" tests.
            CHECK(fs::exists(src() / ("scripts/" + m[1].str() + ".sh")));
        } else if (std::regex_match(line, m, std::regex(R"(podman build -f (\S+) -t (\S+) \.)"))) {
            // The Containerfile's sources: what release.sh builds and the plugin file.
            CHECK(m[2] == "registry.example.com/queueforge:" + project_version());
            for (const auto& [from, to] : containerfile().copies) {
                INFO(from << " -> " << to);
                CHECK((fs::exists(src() / from) || from == "build-release/queueforge"));
            }
            CHECK(qf_test::read_text(src() / "scripts/release.sh").find("build-release") != std::string::npos);
            CHECK(fs::exists(src() / m[1].str()));
        } else if (std::regex_match(line, m, std::regex(R"(cd (\S+) && (.*queueforge .*))"))) {
            qf_test::TempDir t;
            fs::copy(src() / m[1].str(), t.path, fs::copy_options::recursive);
            auto out = t.path / ".out", err = t.path / ".err";
            const std::string bin = fs::path(QF_BINARY).parent_path().string();
            const int status = std::system(("cd " + qf_test::shell_quote(t.path.string()) + " && PATH=" +
                                            qf_test::shell_quote(bin) + ":\"$PATH\" " + m[2].str() + " >" +
                                            qf_test::shell_quote(out.string()) + " 2>" +
                                            qf_test::shell_quote(err.string()))
                                               .c_str());
            INFO(qf_test::read_text(err));
            CHECK(WIFEXITED(status));
            CHECK(WEXITSTATUS(status) == 0);
            CHECK(qf_test::read_text(out).find("kind: ClusterQueue") != std::string::npos);
            ++runs;
        } else {
            FAIL("a command of the README's Argo CD section that no test checks");
        }
    }
    CHECK(patches == 1);
    CHECK(health == 2);
    CHECK(applies == 2);
    CHECK(runs == 1);
}

TEST_CASE("argocd deploy: every file is one document, as kubectl patch --patch-file reads only one", "[argocd][deploy]") {
    // The old repo-server-sidecar.yaml held the ConfigMap and then the patch:
    // the documented `kubectl patch --patch-file` applied the ConfigMap only.
    for (const auto& e : fs::directory_iterator(src() / "deploy/argocd")) {
        if (e.path().extension() != ".yaml") continue;
        INFO(e.path().string());
        CHECK(YAML::LoadAll(qf_test::read_text(e.path())).size() == 1);
    }
}

TEST_CASE("argocd deploy: the strategic merge keeps the repo-server's containers and volumes", "[argocd][deploy]") {
    const json patch = json::parse(R"({"spec":{"template":{"spec":{
        "containers":[{"name":"argocd-repo-server","env":[{"name":"A","value":"1"}]},{"name":"x"}],
        "volumes":[{"name":"plugins","configMap":{"name":"c"}}]}}}})");
    const json merged = strategic_merge(repo_server_fixture(), patch);
    const json& pod = merged["spec"]["template"]["spec"];
    REQUIRE(pod["containers"].size() == 2);
    CHECK(pod["containers"][0]["volumeMounts"].size() == 3);
    CHECK(pod["containers"][0]["env"][0]["value"] == "1");
    CHECK(pod["volumes"].size() == 3);
    CHECK(pod["volumes"][1]["configMap"]["name"] == "c");
}
