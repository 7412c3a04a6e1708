// Which objects of the repository a platform change concerns.
#include "integrations/upgrade/repo.hpp"

#include <queueforge/model/cluster.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace queueforge::upgrade {

namespace {

using platform::Concerns;

bool kueue_kind(const Resource& r) { return r.ref.api_version.starts_with("kueue.x-k8s.io/"); }

const Node* at(const Node* n, std::initializer_list<std::string_view> path) {
    for (auto k : path) {
        if (!n || !n->is_map()) return nullptr;
        n = n->find(k);
    }
    return n;
}

Subject subject(const Resource& r, const std::string& what) { return {what, r.file, mark_of(&r.doc, r)}; }
std::string named(const Resource& r) {
    return r.ref.kind + " " + (r.ref.namespace_.empty() ? "" : r.ref.namespace_ + "/") + r.ref.name;
}

template <typename F>
void each(const Repo& repo, bool samples, F&& f) {
    for (const auto& r : repo.written) f(r, false);
    for (const auto& r : repo.emitted) f(r, true);
    if (samples)
        for (const auto& r : repo.samples) f(r, false);
}

// Kueue objects, one subject per file (a repository holds hundreds).
std::vector<Subject> kueue_objects(const Repo& repo) {
    std::map<std::string, std::pair<int, const Resource*>> per_file;
    std::vector<std::string> order;
    each(repo, false, [&](const Resource& r, bool) {
        if (!kueue_kind(r)) return;
        auto [it, added] = per_file.try_emplace(r.file, 0, &r);
        if (added) order.push_back(r.file);
        ++it->second.first;
    });
    std::vector<Subject> out;
    for (const auto& f : order) {
        const auto& [n, first] = per_file[f];
        out.push_back(subject(*first, std::to_string(n) + (n == 1 ? " Kueue object" : " Kueue objects") + " from " + f));
    }
    return out;
}

std::vector<Subject> of_kind(const Repo& repo, std::initializer_list<std::string_view> kinds, bool samples = false) {
    std::vector<Subject> out;
    each(repo, samples, [&](const Resource& r, bool) {
        for (auto k : kinds)
            if (r.ref.kind == k) out.push_back(subject(r, named(r)));
    });
    return out;
}

std::vector<Subject> everything(const Repo& repo) {
    std::vector<Subject> out;
    for (const auto& s : repo.sites) out.push_back({"site " + (s.label.empty() ? s.file : s.label), s.file, {1, 1}});
    if (out.empty() && !repo.first_input.empty()) out.push_back({"the repository", repo.first_input, {1, 1}});
    return out;
}

// Whether the repository relies on the operator's default queues: a
// LocalQueue pointing at ClusterQueue "default", a HardwareProfile or a job
// naming LocalQueue "default", where the repository defines none.
std::vector<Subject> default_queue_users(const Repo& repo) {
    std::set<std::string> cqs, lq_namespaces;
    each(repo, false, [&](const Resource& r, bool) {
        if (r.ref.kind == "ClusterQueue" && kueue_kind(r)) cqs.insert(r.ref.name);
        if (r.ref.kind == "LocalQueue" && kueue_kind(r) && r.ref.name == "default") lq_namespaces.insert(r.ref.namespace_);
    });
    std::vector<Subject> out;
    each(repo, true, [&](const Resource& r, bool) {
        if (r.ref.kind == "LocalQueue" && kueue_kind(r)) {
            const Node* cq = at(&r.doc, {"spec", "clusterQueue"});
            if (cq && cq->text() == "default" && !cqs.count("default"))
                out.push_back(subject(r, named(r) + " (ClusterQueue default)"));
            return;
        }
        if (r.ref.kind == "HardwareProfile") {
            const Node* lq = at(&r.doc, {"spec", "scheduling", "kueue", "localQueueName"});
            if (lq && lq->text() == "default" && lq_namespaces.empty())
                out.push_back(subject(r, named(r) + " (LocalQueue default)"));
            return;
        }
        const Node* q = at(&r.doc, {"metadata", "labels", "kueue.x-k8s.io/queue-name"});
        if (q && q->text() == "default" && !lq_namespaces.count(r.ref.namespace_))
            out.push_back(subject(r, named(r) + " (LocalQueue default)"));
    });
    return out;
}

}  // namespace

std::vector<Subject> subjects(const Change& c, const Repo& repo, const Target& from, const Target& to, bool upgrade) {
    switch (c.concerns) {
        case Concerns::Always: return everything(repo);
        case Concerns::KueueObjects: return kueue_objects(repo);
        case Concerns::WrittenV1beta1: {
            std::vector<Subject> out;
            for (const auto& r : repo.written)
                if (r.ref.api_version == "kueue.x-k8s.io/v1beta1") out.push_back(subject(r, named(r)));
            return out;
        }
        case Concerns::SiteQueues: {
            std::vector<Subject> out;
            for (const auto& s : repo.sites)
                if (s.queues) out.push_back({"site " + (s.label.empty() ? s.file : s.label), s.file, {1, 1}});
            return out;
        }
        case Concerns::CohortObjects: return of_kind(repo, {"Cohort"});
        case Concerns::SharedCohort: {
            std::vector<Resource> all = repo.written;
            all.insert(all.end(), repo.emitted.begin(), repo.emitted.end());
            const model::Cluster cl = model::build_cluster(all);
            std::map<std::string, std::vector<const model::ClusterQueue*>> members;
            for (const auto& q : cl.cluster_queues)
                if (!q.cohort.empty()) members[q.cohort].push_back(&q);
            std::vector<Subject> out;
            for (const auto& [cohort, qs] : members) {
                if (qs.size() < 2) continue;
                const Resource& r = all[qs.front()->source];
                out.push_back(subject(r, "cohort " + cohort + " (" + std::to_string(qs.size()) + " ClusterQueues)"));
            }
            return out;
        }
        case Concerns::SeveralClusterQueues: {
            auto qs = of_kind(repo, {"ClusterQueue"});
            if (qs.size() < 2) return {};
            qs.front().what = std::to_string(qs.size()) + " ClusterQueues";
            return {qs.front()};
        }
        case Concerns::ConcurrentAdmission: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if (r.ref.kind != "ClusterQueue" || !at(&r.doc, {"spec", "concurrentAdmissionPolicy"})) return;
                const Node* groups = at(&r.doc, {"spec", "resourceGroups"});
                std::size_t flavors = 0;
                if (groups && !groups->items().empty()) flavors = groups->items()[0].find("flavors") ? groups->items()[0].find("flavors")->items().size() : 0;
                // Back below 0.20 only a group of more than 16 flavors breaks.
                if (!upgrade && flavors <= 16) return;
                out.push_back(subject(r, named(r) + " (" + std::to_string(flavors) + " flavors)"));
            });
            return out;
        }
        case Concerns::DefaultPriorityClass: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if (r.ref.kind == "WorkloadPriorityClass" && r.ref.name == "default") out.push_back(subject(r, named(r)));
            });
            return out;
        }
        case Concerns::Dsc: return of_kind(repo, {"DataScienceCluster"});
        case Concerns::DscKueue: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if (r.ref.kind != "DataScienceCluster") return;
                const Node* k = at(&r.doc, {"spec", "components", "kueue"});
                if (!k) return;
                const Node* state = k->find("managementState");
                out.push_back(subject(r, named(r) + (state ? " (kueue " + state->text() + ")" : std::string())));
            });
            return out;
        }
        case Concerns::DscKueueState: {
            // A site's DataScienceCluster is rendered for the new target;
            // a hand-written one keeps its state.
            std::vector<Subject> out;
            const Component* kueue = to.component("kueue");
            for (const auto& r : repo.written) {
                if (r.ref.kind != "DataScienceCluster") continue;
                const Node* state = at(&r.doc, {"spec", "components", "kueue", "managementState"});
                if (!state || !kueue) continue;
                if (std::find(kueue->states.begin(), kueue->states.end(), state->text()) == kueue->states.end())
                    out.push_back(subject(r, named(r) + " (kueue " + state->text() + ")"));
            }
            return out;
        }
        case Concerns::DscComponents: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool emitted) {
                if (r.ref.kind != "DataScienceCluster") return;
                if (emitted) {
                    out.push_back(subject(r, named(r) + " (queueforge renders the new target's components)"));
                    return;
                }
                std::vector<std::string> unknown;
                const Node* comps = at(&r.doc, {"spec", "components"});
                if (comps)
                    for (const auto& e : comps->entries())
                        if (!to.components.empty() && !to.component(e.key)) unknown.push_back(e.key);
                if (!unknown.empty()) {
                    std::string what = named(r) + " (";
                    for (std::size_t i = 0; i < unknown.size(); ++i) what += (i ? ", " : "") + unknown[i];
                    out.push_back(subject(r, what + " not served on " + to.name + ")"));
                }
            });
            return out;
        }
        case Concerns::TeamNamespaces: {
            std::set<std::string> seen;
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if (r.ref.kind == "LocalQueue" && kueue_kind(r) && seen.insert(r.ref.namespace_).second)
                    out.push_back(subject(r, "namespace " + r.ref.namespace_));
            });
            return out;
        }
        case Concerns::DefaultQueues:
            // Where the operator starts creating its default queues, they
            // stand beside every queue of the repository; where it stops,
            // what relied on them loses its queue.
            return to.operator_creates_queues && !from.operator_creates_queues ? kueue_objects(repo)
                                                                              : default_queue_users(repo);
        case Concerns::KueueConfiguration: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if ((r.ref.kind == "Configuration" && r.ref.api_version.starts_with("config.kueue.x-k8s.io/")) ||
                    (r.ref.kind == "Kueue" && r.ref.api_version.starts_with("kueue.openshift.io/")) ||
                    (r.ref.kind == "ConfigMap" && r.ref.name == "kueue-manager-config"))
                    out.push_back(subject(r, named(r)));
            });
            return out;
        }
        case Concerns::TrainJob: return of_kind(repo, {"TrainJob"}, true);
        case Concerns::LeaderWorkerSet: return of_kind(repo, {"LeaderWorkerSet"}, true);
        case Concerns::OnFlavors: {
            std::vector<Subject> out;
            each(repo, false, [&](const Resource& r, bool) {
                if (r.ref.kind != "ClusterQueue") return;
                const Node* checks = at(&r.doc, {"spec", "admissionChecksStrategy", "admissionChecks"});
                if (!checks) return;
                for (const auto& c : checks->items())
                    if (c.find("onFlavors") && !c.find("onFlavors")->items().empty()) {
                        out.push_back(subject(r, named(r)));
                        return;
                    }
            });
            return out;
        }
    }
    return {};
}

}  // namespace queueforge::upgrade
