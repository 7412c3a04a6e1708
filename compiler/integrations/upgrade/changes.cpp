// The platform changes between two targets: the facts of the target matrix
// that differ, each with the release notes of the releases in between, and
// the Kueue behaviour of the Kueue minors in between.
#include <queueforge/integrations/upgrade.hpp>

#include <queueforge/base/text.hpp>

#include <algorithm>
#include <set>

namespace queueforge::upgrade {

namespace {

using platform::Concerns;
using platform::Fact;
using platform::ReleaseNote;
using platform::Track;

Version line(const Version& v) { return {v.major, v.minor, 0}; }
std::string minor(const Version& v) { return std::to_string(v.major) + "." + std::to_string(v.minor); }

constexpr Fact kTargetFacts[] = {Fact::DscApi,
                                 Fact::KueueApi,
                                 Fact::CohortApi,
                                 Fact::KueueStates,
                                 Fact::Components,
                                 Fact::NamespaceLabels,
                                 Fact::EmbeddedKueue,
                                 Fact::DscDefaultQueueFields,
                                 Fact::AutoCreateQueues,
                                 Fact::OperatorCreatesQueues,
                                 Fact::SingleClusterQueue,
                                 Fact::SharedCohorts,
                                 Fact::KueueRelease};

bool target_fact(Fact f) { return std::find(std::begin(kTargetFacts), std::end(kTargetFacts), f) != std::end(kTargetFacts); }

const char* fact_name(Fact f) {
    switch (f) {
        case Fact::DscApi: return "dsc-api";
        case Fact::KueueApi: return "kueue-api";
        case Fact::CohortApi: return "cohort-api";
        case Fact::KueueStates: return "dsc-kueue-states";
        case Fact::Components: return "dsc-components";
        case Fact::NamespaceLabels: return "namespace-labels";
        case Fact::EmbeddedKueue: return "kueue-provider";
        case Fact::DscDefaultQueueFields: return "dsc-default-queue-fields";
        case Fact::AutoCreateQueues: return "dsc-auto-create-queues";
        case Fact::OperatorCreatesQueues: return "operator-creates-queues";
        case Fact::SingleClusterQueue: return "support-single-cluster-queue";
        case Fact::SharedCohorts: return "support-shared-cohorts";
        case Fact::KueueRelease: return "kueue-release";
        default: return "kueue";
    }
}

const char* fact_title(Fact f) {
    switch (f) {
        case Fact::DscApi: return "DataScienceCluster API";
        case Fact::KueueApi: return "Kueue API version queueforge emits";
        case Fact::CohortApi: return "Cohort API";
        case Fact::KueueStates: return "kueue managementState values";
        case Fact::Components: return "DataScienceCluster components";
        case Fact::NamespaceLabels: return "team namespace labels";
        case Fact::EmbeddedKueue: return "Kueue provider";
        case Fact::DscDefaultQueueFields: return "kueue defaultClusterQueueName/defaultLocalQueueName";
        case Fact::AutoCreateQueues: return "kueue autoCreateQueues";
        case Fact::OperatorCreatesQueues: return "operator-created default queues";
        case Fact::SingleClusterQueue: return "single-ClusterQueue restriction";
        case Fact::SharedCohorts: return "shared cohorts";
        case Fact::KueueRelease: return "Kueue release";
        default: return "Kueue";
    }
}

// What a fact's change concerns when no release note covers it (a pair of
// targets of two platforms).
Concerns default_concerns(Fact f) {
    switch (f) {
        case Fact::DscApi:
        case Fact::Components: return Concerns::Dsc;
        case Fact::KueueStates: return Concerns::DscKueueState;
        case Fact::DscDefaultQueueFields:
        case Fact::AutoCreateQueues: return Concerns::DscKueue;
        case Fact::KueueApi: return Concerns::SiteQueues;
        case Fact::CohortApi: return Concerns::CohortObjects;
        case Fact::NamespaceLabels: return Concerns::TeamNamespaces;
        case Fact::OperatorCreatesQueues: return Concerns::DefaultQueues;
        case Fact::SingleClusterQueue: return Concerns::SeveralClusterQueues;
        case Fact::SharedCohorts: return Concerns::SharedCohort;
        default: return Concerns::KueueObjects;
    }
}

std::string none_if_empty(const std::string& s) { return s.empty() ? "none" : s; }

std::string value(Fact f, const Target& t) {
    switch (f) {
        case Fact::DscApi: return none_if_empty(t.dsc_api_version);
        case Fact::KueueApi: return none_if_empty(t.kueue_api_version);
        case Fact::CohortApi: return none_if_empty(t.cohort_api_version);
        case Fact::KueueStates: {
            const Component* k = t.component("kueue");
            return k ? join(k->states, "|") : "none";
        }
        case Fact::Components: {
            std::vector<std::string> names;
            for (const auto& c : t.components) names.push_back(c.name);
            return none_if_empty(join(names, ", "));
        }
        case Fact::NamespaceLabels: return none_if_empty(join(t.namespace_labels, ", "));
        case Fact::EmbeddedKueue:
            return t.platform != Platform::OpenShiftAI ? "installed on its own"
                   : t.embedded_kueue                  ? "embedded in OpenShift AI (or the Red Hat build of Kueue)"
                                                       : "the Red Hat build of Kueue operator only";
        case Fact::DscDefaultQueueFields:
        case Fact::AutoCreateQueues:
            return (f == Fact::AutoCreateQueues ? t.dsc_auto_create_queues : t.dsc_default_queue_fields) ? "served"
                                                                                                         : "not served";
        case Fact::OperatorCreatesQueues: return t.operator_creates_queues ? "always" : "no (or on request)";
        case Fact::SingleClusterQueue: return t.single_cluster_queue ? "one ClusterQueue only" : "no restriction";
        case Fact::SharedCohorts: return t.shared_cohorts_supported ? "supported" : "not supported";
        case Fact::KueueRelease: return t.kueue.to_string();
        default: return {};
    }
}

// Components: what the move adds and removes rather than both lists.
std::string detail(Fact f, const Target& from, const Target& to) {
    if (f != Fact::Components) return value(f, from) + " -> " + value(f, to);
    std::set<std::string> a, b;
    for (const auto& c : from.components) a.insert(c.name);
    for (const auto& c : to.components) b.insert(c.name);
    std::vector<std::string> added, removed;
    for (const auto& x : b)
        if (!a.count(x)) added.push_back(x);
    for (const auto& x : a)
        if (!b.count(x)) removed.push_back(x);
    std::string out;
    if (!added.empty()) out += "added: " + join(added, ", ");
    if (!removed.empty()) out += std::string(out.empty() ? "" : "; ") + "removed: " + join(removed, ", ");
    return out;
}

std::string release_name(Track t, const Version& v) {
    return (t == Track::OpenShiftAI ? "OpenShift AI " : "Kueue ") + minor(v);
}

Change from_note(const ReleaseNote& n, bool upgrade) {
    Change c;
    c.id = std::string(n.id);
    c.release = release_name(n.track, n.at);
    c.severity = upgrade ? n.up : n.down;
    c.what = std::string(upgrade ? n.up_text : n.down_text);
    c.source = std::string(n.source);
    c.concerns = n.concerns;
    return c;
}

// Notes of `track` for `fact` (any fact when nullopt) whose release lies
// between the two versions: (lo, hi].
std::vector<const ReleaseNote*> notes_between(Track track, const Version& a, const Version& b, std::optional<Fact> fact,
                                              bool target_facts) {
    const Version lo = line(std::min(a, b)), hi = line(std::max(a, b));
    std::vector<const ReleaseNote*> out;
    for (const auto& n : platform::release_notes()) {
        if (n.track != track || !(lo < n.at && n.at <= hi)) continue;
        if (fact ? n.fact != *fact : target_fact(n.fact) != target_facts) continue;
        out.push_back(&n);
    }
    return out;
}

}  // namespace

std::vector<Change> platform_changes(const Target& from, const Target& to) {
    const bool both_ai = from.platform == Platform::OpenShiftAI && to.platform == Platform::OpenShiftAI;
    const bool both_k8s = from.platform == Platform::Kubernetes && to.platform == Platform::Kubernetes;
    const bool upgrade = both_ai ? line(from.release) <= line(to.release) : line(from.kueue) <= line(to.kueue);
    std::vector<std::pair<Version, Change>> ai, kueue;  // keyed by release, for ordering
    for (Fact f : kTargetFacts) {
        if (value(f, from) == value(f, to)) continue;
        std::vector<const ReleaseNote*> notes;
        if (both_ai) notes = notes_between(Track::OpenShiftAI, from.release, to.release, f, true);
        else if (both_k8s) notes = notes_between(Track::Kueue, from.kueue, to.kueue, f, true);
        if (notes.empty()) {
            Change c;
            c.id = std::string("matrix-") + fact_name(f);
            c.release = to.name;
            c.what = std::string(fact_title(f)) + " changes";
            c.detail = detail(f, from, to);
            c.source = "queueforge's target matrix (compiler/frontend/platform/matrix.cpp) for " + from.matrix_row +
                       " and " + to.matrix_row;
            c.concerns = default_concerns(f);
            (both_ai ? ai : kueue).emplace_back(both_ai ? to.release : to.kueue, std::move(c));
            continue;
        }
        for (std::size_t i = 0; i < notes.size(); ++i) {
            Change c = from_note(*notes[i], upgrade);
            if (i == 0) c.detail = std::string(fact_title(f)) + ": " + detail(f, from, to);
            (notes[i]->track == Track::OpenShiftAI ? ai : kueue).emplace_back(notes[i]->at, std::move(c));
        }
    }
    // Kueue behaviour the matrix does not hold, for the Kueue minors in between.
    for (const auto* n : notes_between(Track::Kueue, from.kueue, to.kueue, std::nullopt, false))
        kueue.emplace_back(n->at, from_note(*n, upgrade));
    auto order = [upgrade](const auto& a, const auto& b) { return upgrade ? a.first < b.first : b.first < a.first; };
    std::stable_sort(ai.begin(), ai.end(), order);
    std::stable_sort(kueue.begin(), kueue.end(), order);
    std::vector<Change> out;
    for (auto& [v, c] : ai) out.push_back(std::move(c));
    for (auto& [v, c] : kueue) out.push_back(std::move(c));
    return out;
}

}  // namespace queueforge::upgrade
