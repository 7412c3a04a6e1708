// The OpenShift AI and Kueue version matrix. Every fact cites the section of
// /work/shared/openshift-ai.md (or kueue-semantics.md) it comes from; cells the
// facts mark UNSURE say which way queueforge decided and why. The primary
// source of each change from one row to the next (operator commit, pull
// request, changelog entry) is its entry in release_notes.cpp, which
// upgrade-check shows; tests/frontend/release_notes_test.cpp fails when a
// row changes a fact without one.
#include "matrix.hpp"

#include <array>

namespace queueforge::platform {
namespace {

// ---- spec.components key sets (openshift-ai.md section 1), sorted ---------

// 2.10: the original ten v1 components.
constexpr std::array<std::string_view, 10> kV1Rhoai210{
    "codeflare", "dashboard", "datasciencepipelines", "kserve", "kueue",
    "modelmeshserving", "ray", "trainingoperator", "trustyai", "workbenches"};

// 2.16 and 2.19: the 2.10 set + modelregistry.
constexpr std::array<std::string_view, 11> kV1Rhoai216{
    "codeflare", "dashboard", "datasciencepipelines", "kserve", "kueue", "modelmeshserving",
    "modelregistry", "ray", "trainingoperator", "trustyai", "workbenches"};

// 2.22 through 2.25 (13 keys): the 2.16 set + feastoperator, llamastackoperator.
// 3.x still serves DSC v1 with exactly these keys.
constexpr std::array<std::string_view, 13> kV1Rhoai222{
    "codeflare", "dashboard", "datasciencepipelines", "feastoperator", "kserve", "kueue",
    "llamastackoperator", "modelmeshserving", "modelregistry", "ray", "trainingoperator",
    "trustyai", "workbenches"};

// 3.0 v2: datasciencepipelines renamed aipipelines; codeflare and
// modelmeshserving dropped.
constexpr std::array<std::string_view, 11> kV2Rhoai30{
    "aipipelines", "dashboard", "feastoperator", "kserve", "kueue", "llamastackoperator",
    "modelregistry", "ray", "trainingoperator", "trustyai", "workbenches"};

// 3.2 and 3.3: the 3.0 set + mlflowoperator, trainer.
constexpr std::array<std::string_view, 13> kV2Rhoai32{
    "aipipelines", "dashboard", "feastoperator", "kserve", "kueue", "llamastackoperator",
    "mlflowoperator", "modelregistry", "ray", "trainer", "trainingoperator", "trustyai",
    "workbenches"};

// 3.4: the 3.2 set + sparkoperator.
constexpr std::array<std::string_view, 14> kV2Rhoai34{
    "aipipelines", "dashboard", "feastoperator", "kserve", "kueue", "llamastackoperator",
    "mlflowoperator", "modelregistry", "ray", "sparkoperator", "trainer", "trainingoperator",
    "trustyai", "workbenches"};

// 3.5 (and 3.6 EA): 17 keys, adds aigateway, mcplifecycleoperator, ogx.
constexpr std::array<std::string_view, 17> kV2Rhoai35{
    "aigateway", "aipipelines", "dashboard", "feastoperator", "kserve", "kueue",
    "llamastackoperator", "mcplifecycleoperator", "mlflowoperator", "modelregistry", "ogx",
    "ray", "sparkoperator", "trainer", "trainingoperator", "trustyai", "workbenches"};

// ---- namespace labels (openshift-ai.md section 2, last column) -------------

// 2.10 / 2.16: workloads opt in with the queue-name label alone (UNSURE in the
// facts; no label is demanded rather than inventing one).
constexpr std::array<std::string_view, 0> kNoLabels{};

// 2.19 / 2.22: the embedded Kueue's Pod and Deployment webhooks only act in
// namespaces labelled kueue-managed=true.
constexpr std::array<std::string_view, 1> kLegacyLabel{"kueue-managed=true"};

// From 2.23 the operator adds whichever of the two labels is missing, so both
// end up on the namespace. Emitting both keeps GitOps tools from seeing drift
// the operator created; the new label comes first because the operator-created
// ClusterQueue and RHBoK's webhooks select on it (section 4 rule 6).
constexpr std::array<std::string_view, 2> kBothLabels{"kueue.openshift.io/managed=true",
                                                      "kueue-managed=true"};

// ---- the OpenShift AI rows -------------------------------------------------
//
// shared_cohorts_supported: false where the docs say Red Hat does not support
// shared cohorts (2.16, 2.19, 2.23 stated; 2.22, 2.24 and 2.25 UNSURE but taken
// as stated, section 3). 2.10 states no cohort rule, and its single-ClusterQueue
// rule already rules out sharing, so the flag stays true there. For 3.x the
// cohort statement is UNSURE: queueforge does not invent a restriction.
//
// Kueue for 2.23-2.25 is the embedded v0.11.6 (kueue Managed); with Unmanaged
// RHBoK 1.0/1.1 provides Kueue 0.11/0.12, which serves the same API versions.
// 3.0/3.2 pair with RHBoK 1.1 (0.12), 3.3/3.4 with 1.2 (0.14), 3.5 with 1.4
// (0.18): the CI channels in section 2, since the documented ranges are UNSURE.
constexpr std::array<OpenShiftAiRow, 12> kRows{{
    {.release = {2, 10, 0}, .dsc_version = "v1", .components = kV1Rhoai210,
     .kueue_states = KueueStates::ManagedRemoved, .kueue = {0, 6, 2}, .namespace_labels = kNoLabels,
     .embedded_kueue = true, .dsc_default_queue_fields = false, .dsc_auto_create_queues = false,
     .operator_creates_queues = false, .single_cluster_queue = true, .shared_cohorts_supported = true},
    {.release = {2, 16, 0}, .dsc_version = "v1", .components = kV1Rhoai216,
     .kueue_states = KueueStates::ManagedRemoved, .kueue = {0, 8, 1}, .namespace_labels = kNoLabels,
     .embedded_kueue = true, .dsc_default_queue_fields = false, .dsc_auto_create_queues = false,
     .operator_creates_queues = false, .single_cluster_queue = false, .shared_cohorts_supported = false},
    {.release = {2, 19, 0}, .dsc_version = "v1", .components = kV1Rhoai216,
     .kueue_states = KueueStates::ManagedRemoved, .kueue = {0, 10, 1}, .namespace_labels = kLegacyLabel,
     .embedded_kueue = true, .dsc_default_queue_fields = false, .dsc_auto_create_queues = false,
     .operator_creates_queues = false, .single_cluster_queue = false, .shared_cohorts_supported = false},
    {.release = {2, 22, 0}, .dsc_version = "v1", .components = kV1Rhoai222,
     .kueue_states = KueueStates::ManagedRemoved, .kueue = {0, 11, 6}, .namespace_labels = kLegacyLabel,
     .embedded_kueue = true, .dsc_default_queue_fields = false, .dsc_auto_create_queues = false,
     .operator_creates_queues = false, .single_cluster_queue = false, .shared_cohorts_supported = false},
    // 2.23 - 2.25: Unmanaged (RHBoK) appears, the DSC gains the default-queue
    // fields and the operator starts creating default-flavor/default queues.
    {.release = {2, 23, 0}, .dsc_version = "v1", .components = kV1Rhoai222,
     .kueue_states = KueueStates::ManagedUnmanagedRemoved, .kueue = {0, 11, 6}, .namespace_labels = kBothLabels,
     .embedded_kueue = true, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = false},
    {.release = {2, 24, 0}, .dsc_version = "v1", .components = kV1Rhoai222,
     .kueue_states = KueueStates::ManagedUnmanagedRemoved, .kueue = {0, 11, 6}, .namespace_labels = kBothLabels,
     .embedded_kueue = true, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = false},
    {.release = {2, 25, 0}, .dsc_version = "v1", .components = kV1Rhoai222,
     .kueue_states = KueueStates::ManagedUnmanagedRemoved, .kueue = {0, 11, 6}, .namespace_labels = kBothLabels,
     .embedded_kueue = true, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = false},
    // 3.x: Kueue only from RHBoK, so kueue Managed is rejected even where the
    // CRD enum lists it (3.3+ restored it for OLM upgrades, section 2).
    {.release = {3, 0, 0}, .dsc_version = "v2", .components = kV2Rhoai30,
     .kueue_states = KueueStates::UnmanagedRemoved, .kueue = {0, 12, 0}, .namespace_labels = kBothLabels,
     .embedded_kueue = false, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = true},
    {.release = {3, 2, 0}, .dsc_version = "v2", .components = kV2Rhoai32,
     .kueue_states = KueueStates::UnmanagedRemoved, .kueue = {0, 12, 0}, .namespace_labels = kBothLabels,
     .embedded_kueue = false, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = true},
    {.release = {3, 3, 0}, .dsc_version = "v2", .components = kV2Rhoai32,
     .kueue_states = KueueStates::UnmanagedRemoved, .kueue = {0, 14, 0}, .namespace_labels = kBothLabels,
     .embedded_kueue = false, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = true},
    {.release = {3, 4, 0}, .dsc_version = "v2", .components = kV2Rhoai34,
     .kueue_states = KueueStates::UnmanagedRemoved, .kueue = {0, 14, 0}, .namespace_labels = kBothLabels,
     .embedded_kueue = false, .dsc_default_queue_fields = true, .dsc_auto_create_queues = false,
     .operator_creates_queues = true, .single_cluster_queue = false, .shared_cohorts_supported = true},
    // 3.5: autoCreateQueues (default false) replaces the unconditional creation.
    {.release = {3, 5, 0}, .dsc_version = "v2", .components = kV2Rhoai35,
     .kueue_states = KueueStates::UnmanagedRemoved, .kueue = {0, 18, 0}, .namespace_labels = kBothLabels,
     .embedded_kueue = false, .dsc_default_queue_fields = true, .dsc_auto_create_queues = true,
     .operator_creates_queues = false, .single_cluster_queue = false, .shared_cohorts_supported = true},
}};

constexpr std::string_view kNoDocumentedRow = "no documented row";

constexpr std::array<ReleaseAlias, 10> kAliases{{
    {{2, 11, 0}, {2, 10, 0}, kNoDocumentedRow},
    {{2, 12, 0}, {2, 10, 0}, kNoDocumentedRow},
    {{2, 13, 0}, {2, 10, 0}, kNoDocumentedRow},
    {{2, 14, 0}, {2, 10, 0}, kNoDocumentedRow},
    {{2, 15, 0}, {2, 10, 0}, kNoDocumentedRow},
    {{2, 17, 0}, {2, 16, 0}, kNoDocumentedRow},
    {{2, 18, 0}, {2, 16, 0}, kNoDocumentedRow},
    {{2, 20, 0}, {2, 19, 0}, kNoDocumentedRow},
    {{2, 21, 0}, {2, 19, 0}, kNoDocumentedRow},
    // Section 1: 3.6 exists only as early-access branches with the 3.5 API.
    {{3, 6, 0}, {3, 5, 0}, "early access only; no documented row"},
}};

constexpr std::array<MissingRelease, 1> kMissing{{
    {{3, 1, 0}, "OpenShift AI 3.1 was never released (3.0 was followed by 3.2)"},
}};

// ---- Kueue API serving (kueue-semantics.md section 1.1) --------------------
// Checked against upstream/kueue/v0.6.2 (no Cohort), v0.10.6 (Cohort v1alpha1
// only), v0.13.10 (Cohort v1beta1 only) and v0.19.2 (v1beta1 deprecated + v1beta2).
// v0.20.0 stops serving kueue.x-k8s.io/v1beta1 for every kind
// (kubernetes-sigs/kueue CHANGELOG/CHANGELOG-0.20.md, "Actions Required",
// PR #14558), so v1beta1's last line is 0.19.
constexpr std::array<ApiServing, 5> kServing{{
    {ApiFamily::Queues, "v1beta1", {0, 3, 0}, kLastV1beta1Kueue, {0, 16, 0}, {}},
    {ApiFamily::Queues, "v1beta2", {0, 15, 0}, kNewestKueue, {}, {}},
    // v1alpha1 Cohort (field spec.parent) existed 0.9-0.12; 0.13 replaced it.
    {ApiFamily::Cohort, "v1alpha1", {0, 9, 0}, {0, 12, 0}, {}, "parent"},
    {ApiFamily::Cohort, "v1beta1", {0, 13, 0}, kLastV1beta1Kueue, {0, 16, 0}, "parentName"},
    {ApiFamily::Cohort, "v1beta2", {0, 15, 0}, kNewestKueue, {}, "parentName"},
}};

}  // namespace

std::span<const OpenShiftAiRow> openshift_ai_rows() { return kRows; }
std::span<const ReleaseAlias> openshift_ai_aliases() { return kAliases; }
std::span<const MissingRelease> openshift_ai_missing() { return kMissing; }
std::span<const std::string_view> dsc_v1_components_on_3x() { return kV1Rhoai222; }
std::span<const ApiServing> kueue_api_serving() { return kServing; }

}  // namespace queueforge::platform
