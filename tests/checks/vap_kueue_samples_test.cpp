// Kueue's two sample ValidatingAdmissionPolicies (read from
// ../shared/upstream/kueue-examples at test time) against Jobs, with the
// verdicts the API server gives, and the names of matchConditions and
// variables checked as the API server checks them.
#include "policy_util.hpp"
#include "test_util.hpp"

#include <queueforge/checks/policy.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace queueforge;
using qf_test::run_cli;
using qf_test::shell_quote;

namespace {

std::optional<std::filesystem::path> samples() {
    auto shared = qf_test::shared_dir();
    if (!shared) return std::nullopt;
    auto dir = *shared / "upstream" / "kueue-examples";
    if (!std::filesystem::exists(dir / "sample-validating-policy.yaml")) return std::nullopt;
    return dir;
}

#define REQUIRE_SAMPLES(dir)                                                                                   \
    auto dir = samples();                                                                                       \
    if (!dir) {                                                                                                 \
        WARN("SKIPPED: ../shared/upstream/kueue-examples (Kueue's sample policies) is not available");        \
        return;                                                                                                 \
    }

// A policy file and its binding, as one --policy input.
std::string with_binding(const std::filesystem::path& dir, const std::string& stem) {
    return qf_test::read_text(dir / (stem + ".yaml")) + "\n---\n" + qf_test::read_text(dir / (stem + "-binding.yaml")) +
           "\n";
}

Diagnostics run(const std::string& policies, const std::string& objects) {
    return qf_test::run_policies("policies.yaml", policies, objects);
}

using qf_test::with_rule;

// The objects a finding of `rule` names, "Job/team-a/x".
std::vector<std::string> denied(const Diagnostics& d, const std::string& rule) {
    std::vector<std::string> out;
    for (const auto& x : with_rule(d, rule)) out.push_back(x.object.display());
    return out;
}

const std::string kNamespaces = R"(apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {kueue-managed: "true"}}
---
apiVersion: v1
kind: Namespace
metadata: {name: sandbox}
)";

// A Job in `ns`; `labels` and `resources` are flow maps or empty (left out),
// `extra_meta` more metadata lines, `template_labels` the pod template's.
std::string job(const std::string& name, const std::string& ns, const std::string& labels,
                const std::string& resources, const std::string& extra_meta = {},
                const std::string& template_labels = {}) {
    std::string s = "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n";
    if (!labels.empty()) s += "  labels: " + labels + "\n";
    s += extra_meta;
    s += "spec:\n  template:\n";
    if (!template_labels.empty()) s += "    metadata: {labels: " + template_labels + "}\n";
    s += "    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox:1.36\n";
    if (!resources.empty()) s += "        resources: " + resources + "\n";
    return s;
}

const std::string kQueue = "{kueue.x-k8s.io/queue-name: user-queue}";
const std::string kRequests = "{requests: {cpu: 1, memory: 200Mi}}";

const std::string kValidatingRule = "sample-validating-admission-policy";
const std::string kRequestsRule = "sample-enforce-requests-policy";

}  // namespace

TEST_CASE("vap samples: the sample validating policy, hyphenated matchCondition name and all, loads", "[vap]") {
    REQUIRE_SAMPLES(dir);
    // Its matchCondition is named "exclude-jobset-owned": a qualified name,
    // which the API server accepts (it is not a CEL identifier, and need not be).
    auto d = run(with_binding(*dir, "sample-validating-policy"), kNamespaces);
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
    CHECK(with_rule(d, "policy.invalid").empty());
    CHECK(with_rule(d, "vap.invalid-name").empty());
    Diagnostics loaded;
    policy::Options opts;
    opts.no_builtin = true;
    auto set = policy::load_policies_from_text("p.yaml", with_binding(*dir, "sample-validating-policy"), opts, loaded);
    CHECK(set.ids() == std::vector<std::string>{kValidatingRule});
}

TEST_CASE("vap samples: verdicts of the sample validating policy (queue-name label)", "[vap]") {
    REQUIRE_SAMPLES(dir);
    const std::string objects =
        kNamespaces +
        // Labelled: `'kueue.x-k8s.io/queue-name' in labels` and non-empty: allowed.
        job("labelled", "team-a", kQueue, kRequests) +
        // No labels at all: has(object.metadata.labels) is false: denied.
        job("unlabelled", "team-a", "", kRequests) +
        // Other labels only: the key is missing: denied.
        job("other-labels", "team-a", "{app: train}", kRequests) +
        // The label with an empty value: `!= ''` is false: denied.
        job("empty-queue", "team-a", "{kueue.x-k8s.io/queue-name: ''}", kRequests) +
        // No labels on the Job but on its pod template: SetDefaults_Job copies
        // the template's labels to a Job that has none, so the policy sees
        // the queue-name label: allowed.
        job("template-labelled", "team-a", "", kRequests, {}, kQueue) +
        // Owned by a JobSet as its controller, as the JobSet controller
        // writes it (apiVersion jobset.x-k8s.io/v1alpha2). The sample's
        // matchCondition compares o.apiVersion with the bare group
        // 'jobset.x-k8s.io', which an apiVersion never equals, so the
        // condition holds, the policy applies and the missing label denies
        // it: the API server evaluates the same expression the same way.
        job("jobset-child", "team-a", "", kRequests,
            "  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, uid: u1, "
            "controller: true}]\n") +
        // An owner whose apiVersion is literally the group: the condition
        // exclude-jobset-owned is false, the policy does not apply: allowed.
        job("group-owner", "team-a", "", kRequests,
            "  ownerReferences: [{apiVersion: jobset.x-k8s.io, kind: JobSet, name: js, uid: u1, "
            "controller: true}]\n") +
        // Owned by a JobSet but not as controller: the condition holds, the
        // label is missing: denied.
        job("jobset-noncontroller", "team-a", "", kRequests,
            "  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, uid: u1, "
            "controller: false}]\n") +
        // In a namespace without kueue-managed=true: the binding's
        // namespaceSelector does not select it: allowed.
        job("sandboxed", "sandbox", "", kRequests);
    auto d = run(with_binding(*dir, "sample-validating-policy"), objects);
    INFO(qf_test::messages(d));
    CHECK(denied(d, kValidatingRule) == std::vector<std::string>{"Job/team-a/unlabelled", "Job/team-a/other-labels",
                                                                  "Job/team-a/empty-queue", "Job/team-a/jobset-child",
                                                                  "Job/team-a/jobset-noncontroller"});
    for (const auto& f : with_rule(d, kValidatingRule)) {
        CHECK(f.severity == Severity::Error);  // validationActions: [Deny]
        CHECK(f.message ==
              "ValidatingAdmissionPolicy 'sample-validating-admission-policy' with binding "
              "'sample-validating-admission-policy-binding' denied request: The label 'kueue.x-k8s.io/queue-name' is "
              "either missing or does not have a value set.");
    }
    CHECK(d.all().size() == 5);
}

TEST_CASE("vap samples: verdicts of the enforce-requests policy (requests or limits)", "[vap]") {
    REQUIRE_SAMPLES(dir);
    const std::string objects =
        kNamespaces +
        // Requests given: allowed.
        job("labelled", "team-a", kQueue, kRequests) +
        // No resources written: the API server serialises `resources: {}`,
        // has(c.resources.requests) and has(c.resources.limits) are false, the
        // validation is false: denied with the policy's message (not an
        // evaluation error about a missing key).
        job("no-requests", "team-a", kQueue, "") +
        // Empty requests: size(...) > 0 fails: denied.
        job("empty-requests", "team-a", kQueue, "{requests: {}}") +
        // Limits only: the second disjunct holds: allowed.
        job("limits-only", "team-a", kQueue, "{limits: {nvidia.com/gpu: 1}}") +
        // Request-less but in an unmanaged namespace: not selected: allowed.
        job("sandboxed", "sandbox", "", "");
    auto d = run(with_binding(*dir, "sample-enforce-requests-policy"), objects);
    INFO(qf_test::messages(d));
    CHECK(denied(d, kRequestsRule) == std::vector<std::string>{"Job/team-a/no-requests", "Job/team-a/empty-requests"});
    for (const auto& f : with_rule(d, kRequestsRule))
        CHECK(f.message ==
              "ValidatingAdmissionPolicy 'sample-enforce-requests-policy' with binding "
              "'sample-enforce-requests-policy-binding' denied request: Every container in the job/deployment must "
              "specify resource requests or limits.");
    CHECK(d.all().size() == 2);

    // A Deployment is matched too (apps/v1 deployments), and its template's
    // containers are defaulted in the same way.
    const std::string deployment = kNamespaces + R"(---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team-a}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
)";
    auto dd = run(with_binding(*dir, "sample-enforce-requests-policy"), deployment);
    INFO(qf_test::messages(dd));
    CHECK(denied(dd, kRequestsRule) == std::vector<std::string>{"Deployment/team-a/web"});
}

TEST_CASE("vap samples: both sample policies together", "[vap]") {
    REQUIRE_SAMPLES(dir);
    const std::string policies =
        with_binding(*dir, "sample-validating-policy") + "---\n" + with_binding(*dir, "sample-enforce-requests-policy");
    // A labelled Job with requests passes both; an unlabelled, request-less
    // one is denied by each, once.
    auto d = run(policies, kNamespaces + job("good", "team-a", kQueue, kRequests) + job("bad", "team-a", "", ""));
    INFO(qf_test::messages(d));
    CHECK(denied(d, kValidatingRule) == std::vector<std::string>{"Job/team-a/bad"});
    CHECK(denied(d, kRequestsRule) == std::vector<std::string>{"Job/team-a/bad"});
    CHECK(d.all().size() == 2);
}

TEST_CASE("vap samples: validate --policy <policy> --policy <binding> exits 0 when allowed, 1 when denied", "[vap]") {
    REQUIRE_SAMPLES(dir);
    const auto fixtures = qf_test::source_dir() / "tests" / "fixtures" / "vap";
    auto validate = [&](const std::string& stem, const std::string& job_file) {
        return run_cli("validate --policy " + shell_quote((*dir / (stem + ".yaml")).string()) + " --policy " +
                       shell_quote((*dir / (stem + "-binding.yaml")).string()) +
                       // batch/v1 Job may have no built-in schema; the policies are what is tested here.
                       " --ignore-missing-schemas " +
                       shell_quote((fixtures / "namespaces.yaml").string()) + " " +
                       shell_quote((fixtures / "localqueue.yaml").string()) + " " +
                       shell_quote((fixtures / job_file).string()));
    };
    auto ok = validate("sample-validating-policy", "job-allowed.yaml");
    INFO(ok.out << ok.err);
    CHECK(ok.exit == 0);
    CHECK(ok.out.find("sample-validating-admission-policy") == std::string::npos);

    auto ok2 = validate("sample-enforce-requests-policy", "job-allowed.yaml");
    INFO(ok2.out << ok2.err);
    CHECK(ok2.exit == 0);

    auto unlabelled = validate("sample-validating-policy", "job-unlabelled.yaml");
    INFO(unlabelled.out << unlabelled.err);
    CHECK(unlabelled.exit == 1);
    CHECK(unlabelled.out.find("job-unlabelled.yaml:3:1: error: ValidatingAdmissionPolicy "
                              "'sample-validating-admission-policy' with binding "
                              "'sample-validating-admission-policy-binding' denied request: The label "
                              "'kueue.x-k8s.io/queue-name' is either missing or does not have a value set. "
                              "[sample-validating-admission-policy]") != std::string::npos);

    auto no_requests = validate("sample-enforce-requests-policy", "job-no-requests.yaml");
    INFO(no_requests.out << no_requests.err);
    CHECK(no_requests.exit == 1);
    CHECK(no_requests.out.find("job-no-requests.yaml:4:1: error: ValidatingAdmissionPolicy "
                               "'sample-enforce-requests-policy' with binding 'sample-enforce-requests-policy-binding' "
                               "denied request: Every container in the job/deployment must specify resource requests "
                               "or limits. [sample-enforce-requests-policy]") != std::string::npos);
    // The request-less Job carries its queue-name label: the other policy allows it.
    auto other = validate("sample-validating-policy", "job-no-requests.yaml");
    INFO(other.out << other.err);
    CHECK(other.exit == 0);
}
