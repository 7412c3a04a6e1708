// A Run:ai organisation as a site, and the fidelity report of that mapping.
//
//   node pool            → pool (nodeLabels {labelKey: labelValue})
//   department           → cohort under one root cohort (so departments lend
//                          to each other, as Run:ai divides the whole cluster)
//   project              → team (namespaces, cohort = its department)
//   deserved             → nominal; limit → borrowingLimit = limit - deserved
//   overQuotaWeight      → fairSharingWeight, fair sharing switched on
//   priority classes     → WorkloadPriorityClasses
//
// Department quota without double counting: a Kueue Cohort's own quota is
// added to what its ClusterQueues bring (kueue-semantics.md: a cohort's
// subtree quota is the sum of its members' nominal plus its own), while a
// Run:ai department's deserved is the department's share that its projects'
// deserved is carved out of. So the cohort's own nominal is only what the
// department deserves beyond its projects (deserved - sum of the projects'
// deserved, at least 0), and its borrowingLimit is the department limit minus
// the subtree quota. A department whose projects deserve more than it does
// cannot be capped in Kueue: the report says so.
#include <queueforge/integrations/runai.hpp>

#include "integrations/import/runai/placement.hpp"

#include <queueforge/base/quantity.hpp>
#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/frontend/platform.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace queueforge::importer::runai {

namespace {

std::string num(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// Quantities in Kubernetes spelling: CPU millicores as cores when whole,
// memory MiB as Gi when whole.
std::string quantity(const std::string& res, double v) {
    if (res == "cpu") {
        const double m = std::round(v);
        if (std::fmod(m, 1000) == 0) return num(m / 1000);
        return num(m) + "m";
    }
    if (res == "memory") {
        const double mi = std::round(v);
        if (mi == 0) return "0";
        if (std::fmod(mi, 1024) == 0) return num(mi / 1024) + "Gi";
        return num(mi) + "Mi";
    }
    return num(v);
}

std::string shown(const std::string& res, double v) {
    if (v == kUnlimited) return "-1 (no limit)";
    if (res == "gpu") return num(v);
    return quantity(res, v);
}

const char* k8s_name(const std::string& res) {
    if (res == "gpu") return "nvidia.com/gpu";
    return res == "cpu" ? "cpu" : "memory";
}

const Quota& quota_of(const PoolResources& pr, const std::string& res) {
    if (res == "gpu") return pr.gpu;
    return res == "cpu" ? pr.cpu : pr.memory;
}

const char* const kResources[] = {"gpu", "cpu", "memory"};

Node flow_map() { return Node::mapping(); }

struct Builder {
    const Organization& org;
    const MigrationOptions& opts;
    Migration m;
    detail::Placement placed = detail::placement(org, opts.target);

    void item(std::string object, std::string setting, std::string runai, std::string kueue, std::string status,
              std::string note = {}) {
        m.fidelity.push_back({std::move(object), std::move(setting), std::move(runai), std::move(kueue),
                              std::move(status), std::move(note)});
    }

    // Sum of the deserved of a department's projects in one pool, per resource.
    double projects_deserved(const std::string& dept, const std::string& pool, const std::string& res) const {
        double sum = 0;
        for (const auto& p : org.projects) {
            if (p.parent != dept) continue;
            for (const auto& pr : p.resources)
                if (pr.pool == pool && quota_of(pr, res).set) sum += quota_of(pr, res).deserved;
        }
        return sum;
    }

    Node pools() {
        Node list = Node::sequence();
        for (const auto& p : org.pools) {
            Node n = Node::mapping();
            n.set("name", Node::string(p.name));
            const std::string obj = "node pool " + p.name;
            if (!p.label_key.empty()) {
                Node labels = flow_map();
                labels.set(p.label_key, Node::string(p.label_value));
                n.set("nodeLabels", std::move(labels));
                item(obj, "labelKey/labelValue", p.label_key + "=" + p.label_value,
                     "pool nodeLabels (ResourceFlavor spec.nodeLabels)", "exact");
            } else {
                item(obj, "labelKey/labelValue", "none (Run:ai's default pool: the nodes of no other pool)",
                     "a pool without nodeLabels", "approximated",
                     "a ResourceFlavor without node labels matches every node, the other pools' too; label the "
                     "default pool's nodes and add the label");
            }
            if (p.nodes) n.set("nodes", Node::integer(*p.nodes));
            if (!p.allocatable.empty()) {
                Node a = flow_map();
                for (const auto& [k, v] : p.allocatable) a.set(k, Node::string(v));
                n.set("allocatable", std::move(a));
            }
            if (auto t = placed.pool_topology.find(p.name); t != placed.pool_topology.end())
                n.set("topology", t->second);
            for (auto& f : placed.pool_items[p.name]) m.fidelity.push_back(f);
            list.push(std::move(n));
        }
        return list;
    }

    // The GPU weight a team or cohort gets: per pool in Run:ai, one per queue in Kueue.
    // Whether the target's Kueue has fair sharing (plain Kueue 0.7+; on
    // OpenShift AI every release's Kueue has it).
    bool fair_sharing_available() const {
        const auto t = find_target(opts.target).target;
        return !t || t->platform == Platform::OpenShiftAI || t->kueue >= Version{0, 7, 0};
    }

    std::optional<double> weight_of(const OrgUnit& u, const std::string& object, bool split_possible) {
        if (!fair_sharing_available()) return std::nullopt;
        std::vector<double> ws;
        for (const auto& pr : u.resources)
            if (pr.gpu.weight_set) ws.push_back(pr.gpu.weight);
        for (const auto& pr : u.resources) {
            for (const char* res : {"cpu", "memory"}) {
                const Quota& q = quota_of(pr, res);
                if (q.weight_set && (!pr.gpu.weight_set || q.weight != pr.gpu.weight))
                    item(object, std::string(res) + " overQuotaWeight (" + pr.pool + ")", num(q.weight), "",
                         "not expressible",
                         "Kueue's fairSharing.weight is one number for all resources; the GPU weight is used");
            }
        }
        if (ws.empty()) return std::nullopt;
        const bool uniform = std::all_of(ws.begin(), ws.end(), [&](double w) { return w == ws[0]; });
        if (uniform) {
            item(object, "overQuotaWeight", num(ws[0]), "fairSharingWeight " + num(ws[0]), "exact");
            return ws[0];
        }
        double sum = 0;
        std::string per;
        for (const auto& pr : u.resources)
            if (pr.gpu.weight_set) per += (per.empty() ? "" : ", ") + pr.pool + " " + num(pr.gpu.weight);
        for (double w : ws) sum += w;
        const double avg = sum / static_cast<double>(ws.size());
        if (split_possible && opts.weights == WeightMode::Split) return std::nullopt;  // the caller splits
        item(object, "overQuotaWeight per node pool", per, "fairSharingWeight " + num(avg) + " (the average)",
             "approximated",
             std::string("Kueue's weight is per ClusterQueue, not per flavor") +
                 (split_possible ? "; --runai-weights split gives one ClusterQueue per node pool instead" : ""));
        return avg;
    }

    Node quota_entry(const PoolResources& pr, const std::string& object, bool team) {
        Node q = Node::mapping();
        q.set("pool", Node::string(pr.pool));
        Node nominal = flow_map();
        Node borrowing = flow_map();
        for (const char* res : kResources) {
            const Quota& x = quota_of(pr, res);
            if (!x.set) continue;
            nominal.set(k8s_name(res), Node::string(quantity(res, x.deserved)));
            const std::string where = std::string(res) + " (" + pr.pool + ")";
            item(object, where + " deserved", shown(res, x.deserved),
                 "nominalQuota " + quantity(res, x.deserved), "exact");
            if (x.limit != kUnlimited) {
                borrowing.set(k8s_name(res), Node::string(quantity(res, x.limit - x.deserved)));
                item(object, where + " limit", shown(res, x.limit),
                     "borrowingLimit " + quantity(res, x.limit - x.deserved) + " (limit - deserved)", "exact");
            } else if (team) {
                item(object, where + " limit", shown(res, x.limit), "no borrowingLimit", "exact");
            }
        }
        if (nominal.size() == 0) nominal.set("nvidia.com/gpu", Node::string("0"));
        q.set("nominal", std::move(nominal));
        if (borrowing.size() > 0) q.set("borrowingLimit", std::move(borrowing));
        return q;
    }

    // A pool's size in the export's units (GPUs, millicores, MiB), when known.
    std::optional<double> capacity(const NodePool& p, const std::string& res) const {
        if (!p.nodes) return std::nullopt;
        const double nodes = static_cast<double>(*p.nodes);
        if (res == "gpu") return nodes * p.gpus_per_node;
        for (const auto& [k, v] : p.allocatable) {
            if (k != res) continue;
            auto q = Quantity::parse(v);
            if (!q) return std::nullopt;
            const double milli = static_cast<double>(q->milli_value());
            return res == "cpu" ? nodes * milli : nodes * milli / 1000.0 / 1048576.0;
        }
        return std::nullopt;
    }

    // What the departments (their subtree: max of own deserved and their
    // projects') and the projects outside departments hold in one pool.
    double assigned(const std::string& pool, const std::string& res) const {
        double sum = 0;
        for (const auto& d : org.departments)
            for (const auto& pr : d.resources)
                if (pr.pool == pool && quota_of(pr, res).set)
                    sum += std::max(quota_of(pr, res).deserved, projects_deserved(d.name, pool, res));
        for (const auto& d : org.departments) {
            bool has = false;
            for (const auto& pr : d.resources) has = has || (pr.pool == pool && quota_of(pr, res).set);
            if (!has) sum += projects_deserved(d.name, pool, res);
        }
        for (const auto& p : org.projects)
            if (p.parent.empty())
                for (const auto& pr : p.resources)
                    if (pr.pool == pool && quota_of(pr, res).set) sum += quota_of(pr, res).deserved;
        return sum;
    }

    bool used_in(const std::string& pool, const std::string& res) const {
        for (const auto* units : {&org.departments, &org.projects})
            for (const auto& u : *units)
                for (const auto& pr : u.resources)
                    if (pr.pool == pool && quota_of(pr, res).set) return true;
        return false;
    }

    // The root cohort holds what no department or project deserves: Run:ai
    // shares a pool's unassigned capacity over quota, and Kueue lends only
    // quota, so without it those GPUs would be usable by nobody.
    Node root_cohort() {
        Node root = Node::mapping();
        root.set("name", Node::string(opts.site_name));
        Node quota = Node::sequence();
        for (const auto& pool : org.pools) {
            Node nominal = flow_map();
            for (const char* res : kResources) {
                if (!used_in(pool.name, res)) continue;
                const std::string obj = "node pool " + pool.name;
                auto cap = capacity(pool, res);
                const double held = assigned(pool.name, res);
                if (!cap) {
                    if (std::string(res) == "gpu")
                        item(obj, "unassigned GPUs", "shared over quota", "", "not expressible",
                             "the export gives no nodes and allocatable for this pool, so the GPUs no one deserves "
                             "cannot be given to the root cohort; add them to share them in Kueue");
                    continue;
                }
                const double spare = std::max(0.0, *cap - held);
                nominal.set(k8s_name(res), Node::string(quantity(res, spare)));
                if (*cap >= held)
                    item(obj, std::string(res) + " deserved by no one", shown(res, spare) + " of " + shown(res, *cap),
                         "root cohort nominalQuota " + quantity(res, spare) + " (lent to every department)", "exact");
                else
                    item(obj, std::string(res) + " deserved by no one", "none: the units deserve " +
                                                                             shown(res, held) + " of " + shown(res, *cap),
                         "root cohort nominalQuota 0", "approximated",
                         "the pool is over-subscribed: Run:ai's fair share honours deserved quota first come, first "
                         "served; Kueue admits up to the quota and the pods wait for nodes");
            }
            if (nominal.size() == 0) continue;
            Node q = Node::mapping();
            q.set("pool", Node::string(pool.name));
            q.set("nominal", std::move(nominal));
            quota.push(std::move(q));
        }
        if (quota.size() > 0) root.set("quota", std::move(quota));
        return root;
    }

    Node cohorts() {
        Node list = Node::sequence();
        list.push(root_cohort());
        item("organization", "cluster-wide division of idle quota", "departments share the cluster",
             "root cohort " + opts.site_name + " over the department cohorts", "exact");
        for (const auto& d : org.departments) {
            const std::string obj = "department " + d.name;
            ranks(d, obj);
            Node c = Node::mapping();
            c.set("name", Node::string(d.name));
            c.set("parent", Node::string(opts.site_name));
            if (auto w = weight_of(d, obj, false)) c.set("fairSharingWeight", Node::string(num(*w)));
            Node quota = Node::sequence();
            for (const auto& pr : d.resources) {
                Node nominal = flow_map(), borrowing = flow_map();
                for (const char* res : kResources) {
                    const Quota& x = quota_of(pr, res);
                    if (!x.set) continue;
                    const double children = projects_deserved(d.name, pr.pool, res);
                    const double own = std::max(0.0, x.deserved - children);
                    const double subtree = std::max(x.deserved, children);
                    const std::string where = std::string(res) + " (" + pr.pool + ")";
                    nominal.set(k8s_name(res), Node::string(quantity(res, own)));
                    if (x.deserved >= children) {
                        item(obj, where + " deserved", shown(res, x.deserved),
                             "cohort nominalQuota " + quantity(res, own) + " = deserved - the projects' " +
                                 quantity(res, children) + " (a Cohort's quota adds to its queues')",
                             "exact");
                    } else {
                        item(obj, where + " deserved", shown(res, x.deserved),
                             "cohort nominalQuota 0; the projects' nominal add up to " + quantity(res, children),
                             "approximated",
                             "the projects deserve more than their department; Run:ai caps the department at its "
                             "deserved when the cluster is contended, Kueue guarantees every ClusterQueue its "
                             "nominal quota, so the department gets " +
                                 quantity(res, children - x.deserved) + " more");
                    }
                    if (x.limit != kUnlimited) {
                        const double bl = std::max(0.0, x.limit - subtree);
                        borrowing.set(k8s_name(res), Node::string(quantity(res, bl)));
                        item(obj, where + " limit", shown(res, x.limit),
                             "cohort borrowingLimit " + quantity(res, bl) + " (limit - the subtree's quota " +
                                 quantity(res, subtree) + ")",
                             x.limit >= subtree ? "exact" : "approximated",
                             x.limit >= subtree ? "" : "the projects' deserved exceed the department limit");
                    }
                }
                if (nominal.size() == 0) continue;
                Node q = Node::mapping();
                q.set("pool", Node::string(pr.pool));
                q.set("nominal", std::move(nominal));
                if (borrowing.size() > 0) q.set("borrowingLimit", std::move(borrowing));
                quota.push(std::move(q));
            }
            if (quota.size() > 0) c.set("quota", std::move(quota));
            list.push(std::move(c));
        }
        return list;
    }

    void ranks(const OrgUnit& u, const std::string& obj) {
        for (const auto& pr : u.resources)
            if (pr.priority != 3)
                item(obj, "over-quota priority (" + pr.pool + ")", pr.rank, "", "not expressible",
                     "Run:ai gives idle quota to higher-ranked projects first; Kueue orders borrowing by fair "
                     "share (DRS) only, with no queue priority. The before/after table shows the effect");
    }

    Node team_node(const std::string& name, const OrgUnit& p, const std::vector<const PoolResources*>& prs,
                   std::optional<double> weight, bool own_queue, bool default_queue = true) {
        Node t = Node::mapping();
        t.set("name", Node::string(name));
        if (own_queue) t.set("localQueue", Node::string(name));
        // One default LocalQueue per namespace (site.default-queue): split
        // teams share the project's namespaces, the first pool's is the default.
        if (!default_queue) t.set("defaultQueue", Node::boolean(false));
        Node ns = Node::sequence();
        for (const auto& n : p.namespaces) ns.push(Node::string(n));
        t.set("namespaces", std::move(ns));
        t.set("cohort", Node::string(p.parent.empty() ? opts.site_name : p.parent));
        if (weight) t.set("fairSharingWeight", Node::string(num(*weight)));
        Node quota = Node::sequence();
        for (const auto* pr : prs) quota.push(quota_entry(*pr, "project " + p.name, true));
        t.set("quota", std::move(quota));
        m.team_project[name] = p.name;
        return t;
    }

    Node teams() {
        Node list = Node::sequence();
        for (const auto& p : org.projects) {
            const std::string obj = "project " + p.name;
            std::string nss;
            for (const auto& n : p.namespaces) nss += (nss.empty() ? "" : ", ") + n;
            item(obj, "namespace", nss, "team namespaces (LocalQueue in each)", "exact");
            ranks(p, obj);
            for (const auto& [field, secs] : p.time_limits)
                item(obj, field, num(secs) + " s",
                     "label kueue.x-k8s.io/max-exec-time-seconds: \"" + num(std::floor(secs)) +
                         "\" on each job (Workload maximumExecutionTimeSeconds)",
                     "approximated", "Kueue sets the limit per workload, not per queue: add the label to the jobs");
            auto weight = weight_of(p, obj, true);
            std::vector<const PoolResources*> all;
            for (const auto& pr : p.resources) all.push_back(&pr);
            const bool differ = [&] {
                std::set<double> ws;
                for (const auto& pr : p.resources)
                    if (pr.gpu.weight_set) ws.insert(pr.gpu.weight);
                return ws.size() > 1;
            }();
            if (differ && opts.weights == WeightMode::Split) {
                std::string names;
                bool first = true;
                for (const auto& pr : p.resources) {
                    const std::string name = p.name + "-" + pr.pool;
                    names += (names.empty() ? "" : ", ") + name;
                    std::optional<double> w;
                    if (pr.gpu.weight_set) w = pr.gpu.weight;
                    list.push(team_node(name, p, {&pr}, w, true, first));
                    first = false;
                    m.team_pool[name] = pr.pool;
                }
                item(obj, "overQuotaWeight per node pool", "differs by pool",
                     "one ClusterQueue per node pool (" + names + "), each with its pool's weight", "approximated",
                     "the project's pools no longer share one queue: a workload names the LocalQueue of one pool "
                     "(the first pool's is the namespace's default), and Kueue cannot fall back from one pool to the "
                     "next as a Run:ai workload's node-pool list does");
                continue;
            }
            list.push(team_node(p.name, p, all, weight, opts.weights == WeightMode::Split));
        }
        return list;
    }

    Node priority_classes() {
        Node list = Node::sequence();
        for (const auto& pc : org.priority_classes) {
            Node n = flow_map();
            n.set("name", Node::string(pc.name));
            n.set("value", Node::integer(pc.value));
            list.push(std::move(n));
            item("priority class " + pc.name, "workload priority", std::to_string(pc.value),
                 "WorkloadPriorityClass " + pc.name + " (" + std::to_string(pc.value) + ")",
                 pc.value < 100 ? "approximated" : "exact",
                 pc.value < 100 ? "Run:ai runs workloads below priority 100 as preemptible, even within deserved "
                                  "quota; Kueue preempts by priority within a ClusterQueue and reclaims borrowed "
                                  "quota, but does not mark a class preemptible"
                                : "");
        }
        return list;
    }

    void capabilities() {
        const std::string o = "organization";
        for (const auto& f : placed.organization_items) m.fidelity.push_back(f);
        item(o, "workload time limits", "project training/interactive limits",
             "maximumExecutionTimeSeconds on each job (kueue.x-k8s.io/max-exec-time-seconds)", "approximated",
             "set per workload, not per queue");
        item(o, "historical fairness (kValue, usage)", "KAI proportion kValue", "", "approximated",
             "Kueue's fair sharing compares current shares (DRS); admission fair sharing (Kueue 0.12+) is the "
             "closest to Run:ai's usage-based fairness");
    }

    Node build() {
        Node site = Node::mapping();
        site.set("apiVersion", Node::string("queueforge.io/v1alpha1"));
        site.set("kind", Node::string("Site"));
        Node meta = Node::mapping();
        meta.set("name", Node::string(opts.site_name));
        site.set("metadata", std::move(meta));
        Node spec = Node::mapping();
        spec.set("target", Node::string(opts.target));
        spec.set("manageNamespaces", Node::boolean(true));
        if (placed.topologies.size() > 0) spec.set("topologies", placed.topologies);
        spec.set("pools", pools());
        spec.set("cohorts", cohorts());
        spec.set("priorityClasses", priority_classes());
        Node defaults = Node::mapping();
        Node pre = flow_map();
        pre.set("reclaimWithinCohort", Node::string("Any"));
        pre.set("withinClusterQueue", Node::string("LowerPriority"));
        defaults.set("preemption", std::move(pre));
        spec.set("teamDefaults", std::move(defaults));
        spec.set("teams", teams());
        // Kueue's own configuration: the job integrations, fair sharing
        // (Run:ai's is always on) and the DRA mappings.
        const auto target = find_target(opts.target).target;
        const bool dra = !placed.device_class_mappings.items().empty();
        // The section's frameworks: Run:ai's own workload CRDs have no Kueue
        // integration; they become Kubeflow training jobs and batch Jobs.
        auto frameworks = [&](const std::string& section, const char* job, const char* training, const char* more) {
            Node fw = Node::sequence();
            fw.push(Node::string(job));
            fw.push(Node::string(training));
            item("organization", "workload types", "Run:ai training and workspace workloads",
                 section + ".frameworks " + job + ", " + training, "approximated",
                 std::string("Run:ai's own workload CRDs have no Kueue integration: submit them as Jobs or Kubeflow "
                             "jobs (add frameworks to the site for ") +
                     more + ", ...)");
            return fw;
        };
        if (opts.target.rfind("rhoai-3", 0) == 0) {
            Node ko = Node::mapping();
            ko.set("frameworks", frameworks("kueueOperator", "BatchJob", "PyTorchJob", "RayJob, JobSet"));
            ko.set("preemptionPolicy", Node::string("FairSharing"));
            if (dra) ko.set("deviceClassMappings", placed.device_class_mappings);
            spec.set("kueueOperator", std::move(ko));
            item("organization", "fair sharing of over-quota resources", "always on",
                 "kueueOperator.preemptionPolicy FairSharing (the Kueue CR turns on Kueue's fair sharing)", "exact");
        } else if (target && target->platform != Platform::OpenShiftAI) {
            Node kc = Node::mapping();
            kc.set("frameworks", frameworks("kueueConfig", "batch/job", "kubeflow.org/pytorchjob",
                                            "ray.io/rayjob, jobset.x-k8s.io/jobset"));
            if (fair_sharing_available()) kc.set("fairSharing", Node::boolean(true));
            if (dra) kc.set("deviceClassMappings", placed.device_class_mappings);
            spec.set("kueueConfig", std::move(kc));
            if (fair_sharing_available())
                item("organization", "fair sharing of over-quota resources", "always on",
                     "kueueConfig.fairSharing true (Kueue's Configuration in the kueue-manager-config ConfigMap; Kueue "
                     "reads it at start-up)",
                     "exact");
            else
                item("organization", "fair sharing of over-quota resources", "always on", "", "not expressible",
                     "Kueue " + target->kueue.to_string() + " has no fair sharing (first in 0.7): weights are left out");
        } else {
            item("organization", "fair sharing of over-quota resources", "always on", "", "approximated",
                 "this target's embedded Kueue is configured by OpenShift AI: turn fairSharing on in its "
                 "Configuration, or the fairSharingWeights do nothing");
        }
        capabilities();
        site.set("spec", std::move(spec));
        return site;
    }
};

}  // namespace

std::optional<Migration> migrate(const Organization& org, const MigrationOptions& opts, Diagnostics& diags) {
    (void)diags;
    Builder b{org, opts, {}};
    b.m.site = b.build();
    return std::move(b.m);
}

std::string render_site(const Migration& m) {
    return "# Written by queueforge import --from runai. The fidelity report (--report) says how each Run:ai\n"
           "# setting is expressed here and what is approximated or lost.\n" +
           emit_yaml(m.site);
}

}  // namespace queueforge::importer::runai
