// Kueue's job integrations (its Configuration's integrations.frameworks
// names), release by release, and the manager settings its release manifests
// ship in the kueue-manager-config ConfigMap.
//
// Integrations: the FrameworkName constants under pkg/controller/jobs of
// kubernetes-sigs/kueue's release-0.6 ... release-0.19 branches (0.20: main at
// ff69552e): batch/job, jobset, mpijob, the kubeflow.org training jobs, pod,
// raycluster and rayjob throughout; deployment and statefulset from 0.9;
// leaderworkerset and appwrapper from 0.11 (mxjob dropped); jaxjob from
// 0.12; trainer.kubeflow.org/trainjob from 0.14; rayservice and
// sparkapplication from 0.17. Kueue refuses to start with a name its
// release does not register (pkg/config/validation.go validateIntegrations).
//
// Manager settings: config/components/manager/controller_manager_config.yaml
// of the same branches: health :8081, webhook 9443, leader election with
// resource c1f6bfd2.kueue.x-k8s.io, the controller's groupKindConcurrency and
// clientConnection qps 50 / burst 100 are the same in every release; the
// metrics bind address is :8080 up to 0.10 and :8443 from 0.11; the file is
// config.kueue.x-k8s.io/v1beta1 up to 0.14 and v1beta2 from 0.15.
#include <queueforge/frontend/kueue_operator.hpp>

#include <algorithm>
#include <cctype>

namespace queueforge::platform {

std::string kueue_integration_of(std::string_view api_version, std::string_view kind) {
    if (framework_of(api_version, kind).empty()) return {};
    const auto slash = api_version.rfind('/');
    const std::string group(slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash));
    std::string k(kind);
    std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (group.empty() || group == "apps") return k;
    return group + "/" + k;
}

std::vector<std::string> kueue_integrations(const Version& kueue) {
    std::vector<std::string> out{"batch/job",
                                 "jobset.x-k8s.io/jobset",
                                 "kubeflow.org/mpijob",
                                 "kubeflow.org/paddlejob",
                                 "kubeflow.org/pytorchjob",
                                 "kubeflow.org/tfjob",
                                 "kubeflow.org/xgboostjob",
                                 "pod",
                                 "ray.io/raycluster",
                                 "ray.io/rayjob"};
    auto from = [&](int minor, std::initializer_list<const char*> names) {
        if (kueue >= Version{0, minor, 0})
            for (const char* n : names) out.emplace_back(n);
    };
    if (kueue < Version{0, 11, 0}) out.emplace_back("kubeflow.org/mxjob");
    from(9, {"deployment", "statefulset"});
    from(11, {"leaderworkerset.x-k8s.io/leaderworkerset", "workload.codeflare.dev/appwrapper"});
    from(12, {"kubeflow.org/jaxjob"});
    from(14, {"trainer.kubeflow.org/trainjob"});
    from(17, {"ray.io/rayservice", "sparkoperator.k8s.io/sparkapplication"});
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<Version> first_kueue_with_integration(std::string_view name) {
    for (int minor = 6; minor <= 20; ++minor) {
        const auto all = kueue_integrations(Version{0, minor, 0});
        if (std::find(all.begin(), all.end(), name) != all.end()) return Version{0, minor, 0};
    }
    return std::nullopt;
}

std::string kueue_configuration_api_version(const Version& kueue) {
    return kueue >= Version{0, 15, 0} ? "config.kueue.x-k8s.io/v1beta2" : "config.kueue.x-k8s.io/v1beta1";
}

Node kueue_manager_settings(const Version& kueue) {
    Node out = Node::mapping();
    Node health = Node::mapping();
    health.set("healthProbeBindAddress", Node::string(":8081"));
    out.set("health", std::move(health));
    Node metrics = Node::mapping();
    metrics.set("bindAddress", Node::string(kueue >= Version{0, 11, 0} ? ":8443" : ":8080"));
    out.set("metrics", std::move(metrics));
    Node webhook = Node::mapping();
    webhook.set("port", Node::integer(9443));
    out.set("webhook", std::move(webhook));
    Node le = Node::mapping();
    le.set("leaderElect", Node::boolean(true));
    le.set("resourceName", Node::string("c1f6bfd2.kueue.x-k8s.io"));
    out.set("leaderElection", std::move(le));
    Node gkc = Node::mapping();
    for (auto [kind, n] : std::initializer_list<std::pair<const char*, int>>{{"Job.batch", 5},
                                                                             {"Pod", 5},
                                                                             {"Workload.kueue.x-k8s.io", 5},
                                                                             {"LocalQueue.kueue.x-k8s.io", 1},
                                                                             {"Cohort.kueue.x-k8s.io", 1},
                                                                             {"ClusterQueue.kueue.x-k8s.io", 1},
                                                                             {"ResourceFlavor.kueue.x-k8s.io", 1}})
        gkc.set(kind, Node::integer(n));
    Node controller = Node::mapping();
    controller.set("groupKindConcurrency", std::move(gkc));
    out.set("controller", std::move(controller));
    Node cc = Node::mapping();
    cc.set("qps", Node::integer(50));
    cc.set("burst", Node::integer(100));
    out.set("clientConnection", std::move(cc));
    return out;
}

}  // namespace queueforge::platform
