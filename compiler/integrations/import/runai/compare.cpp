// Before and after: each project's GPUs per node pool under Run:ai's fair
// share (the KAI proportion plugin, engines/fairshare) and under Kueue's fair
// sharing for the generated site (the admission simulator run on the site's
// objects and one 1-GPU Workload per demanded GPU).
#include <queueforge/integrations/runai.hpp>

#include <queueforge/base/yaml_load.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/engines/fairshare.hpp>
#include <queueforge/engines/scenarios.hpp>
#include <queueforge/engines/scheduler.hpp>
#include <queueforge/engines/workloads.hpp>

#include <cmath>
#include <cstdio>
#include <map>

namespace queueforge::importer::runai {

namespace {

// The most Workloads one comparison simulates (one per GPU asked for).
constexpr std::size_t kMaxDemandWorkloads = 100000;

double pool_gpus(const NodePool& p) { return p.nodes ? static_cast<double>(*p.nodes) * p.gpus_per_node : 0; }

const PoolResources* resources_in(const OrgUnit& u, const std::string& pool) {
    for (const auto& pr : u.resources)
        if (pr.pool == pool) return &pr;
    return nullptr;
}

fairshare::Share share_of(const PoolResources* pr) {
    fairshare::Share s;
    if (!pr || !pr->gpu.set) return s;  // Run:ai: every unit has every pool, with zero quota
    s.deserved = pr->gpu.deserved;
    s.max_allowed = pr->gpu.limit;
    s.over_quota_weight = pr->gpu.weight;
    return s;
}

// Run:ai: one pool divided on its own, departments first.
std::map<std::string, double> runai_shares(const Organization& org, const NodePool& pool,
                                           const std::map<std::string, double>& demand) {
    std::vector<fairshare::Queue> qs;
    std::map<std::string, int> dept_index;
    for (const auto& d : org.departments) {
        fairshare::Queue q;
        q.name = d.name;
        const PoolResources* pr = resources_in(d, pool.name);
        q.share = share_of(pr);
        q.priority = pr ? pr->priority : 3;
        dept_index[d.name] = static_cast<int>(qs.size());
        qs.push_back(std::move(q));
    }
    for (const auto& p : org.projects) {
        fairshare::Queue q;
        q.name = p.name;
        const PoolResources* pr = resources_in(p, pool.name);
        q.share = share_of(pr);
        q.priority = pr ? pr->priority : 3;
        q.parent = p.parent.empty() ? -1 : dept_index[p.parent];
        auto it = demand.find(p.name);
        q.share.request = it == demand.end() ? 0 : it->second;
        qs.push_back(std::move(q));
    }
    // kValue 1 is the plugin's default; without usage history it does not
    // change the division (w = nw + k (nw - 0) is proportional to nw).
    fairshare::divide_tree(pool_gpus(pool), 1.0, qs);
    std::map<std::string, double> out;
    for (std::size_t i = org.departments.size(); i < qs.size(); ++i) out[qs[i].name] = qs[i].share.fair_share;
    return out;
}

std::string timestamp(std::size_t i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "2026-01-01T%02zu:%02zu:%02zuZ", (i / 3600) % 24, (i / 60) % 60, i % 60);
    return buf;
}

Resource workload(const std::string& name, const std::string& ns, const std::string& queue, const NodePool& pool,
                  std::size_t order) {
    Node doc = Node::mapping();
    doc.set("apiVersion", Node::string("kueue.x-k8s.io/v1beta1"));
    doc.set("kind", Node::string("Workload"));
    Node meta = Node::mapping();
    meta.set("name", Node::string(name));
    meta.set("namespace", Node::string(ns));
    meta.set("creationTimestamp", Node::string(timestamp(order)));
    doc.set("metadata", std::move(meta));
    Node spec = Node::mapping();
    spec.set("queueName", Node::string(queue));
    Node ps = Node::mapping();
    ps.set("name", Node::string("main"));
    ps.set("count", Node::integer(1));
    Node pod = Node::mapping();
    if (!pool.label_key.empty()) {
        Node sel = Node::mapping();
        sel.set(pool.label_key, Node::string(pool.label_value));
        pod.set("nodeSelector", std::move(sel));
    }
    Node c = Node::mapping();
    c.set("name", Node::string("main"));
    c.set("image", Node::string("registry.example/job:1"));
    Node req = Node::mapping();
    req.set("nvidia.com/gpu", Node::string("1"));
    Node res = Node::mapping();
    res.set("requests", std::move(req));
    c.set("resources", std::move(res));
    Node cs = Node::sequence();
    cs.push(std::move(c));
    pod.set("containers", std::move(cs));
    Node tmpl = Node::mapping();
    tmpl.set("spec", std::move(pod));
    ps.set("template", std::move(tmpl));
    Node pss = Node::sequence();
    pss.push(std::move(ps));
    spec.set("podSets", std::move(pss));
    doc.set("spec", std::move(spec));
    Resource r;
    r.file = "<runai-demands>";
    r.ref = {"kueue.x-k8s.io/v1beta1", "Workload", ns, name};
    r.doc = std::move(doc);
    return r;
}

struct TeamQueue {
    std::string team, ns, local_queue;
};

// The team a project's demand in a pool goes to, from the site.
std::optional<TeamQueue> team_for(const Migration& m, const std::string& project, const std::string& pool) {
    const Node* teams = m.site.find("spec") ? m.site.find("spec")->find("teams") : nullptr;
    if (!teams) return std::nullopt;
    std::optional<TeamQueue> whole;
    for (const auto& t : teams->items()) {
        const std::string name = t.find("name")->text();
        auto pj = m.team_project.find(name);
        if (pj == m.team_project.end() || pj->second != project) continue;
        TeamQueue q;
        q.team = name;
        q.ns = t.find("namespaces")->items().at(0).text();
        q.local_queue = t.find("localQueue") ? t.find("localQueue")->text() : "default";
        auto pl = m.team_pool.find(name);
        if (pl == m.team_pool.end()) whole = q;
        else if (pl->second == pool) return q;
    }
    return whole;
}

}  // namespace

bool check_site(const Migration& m, const std::string& path, Diagnostics& diags) {
    Compilation comp = compile({.path = path, .text = render_site(m)});
    if (comp.ok()) return true;
    for (const auto& d : comp.diagnostics.all())
        if (d.severity == Severity::Error)
            diags.error(d.file, d.mark, "the generated site does not build: " + d.message, "runai.site");
    return false;
}

std::vector<Demand> demand_everything(const Organization& org) {
    std::vector<Demand> out;
    for (const auto& pool : org.pools) {
        const double gpus = pool_gpus(pool);
        if (gpus <= 0) continue;
        for (const auto& p : org.projects)
            if (resources_in(p, pool.name)) out.push_back({p.name, pool.name, gpus});
    }
    return out;
}

std::optional<std::vector<Demand>> read_demands(const std::string& path, const Organization& org, Diagnostics& diags) {
    std::string text;
    if (!read_file_limited(path, text, diags)) return std::nullopt;
    auto docs = load_yaml(path, text, diags);
    if (diags.has_errors()) return std::nullopt;
    const Node* list = docs.size() == 1 && docs[0].root.is_map() ? docs[0].root.find("demands") : nullptr;
    if (!list || !list->is_seq()) {
        diags.error(path, docs.empty() ? Mark{1, 1} : docs[0].root.mark(),
                    "a demands file is one document: demands: [{project, pool, gpus}]", "runai.scenario");
        return std::nullopt;
    }
    std::vector<Demand> out;
    bool ok = true;
    for (const auto& e : list->items()) {
        const Node* pj = e.is_map() ? e.find("project") : nullptr;
        const Node* pl = e.is_map() ? e.find("pool") : nullptr;
        const Node* g = e.is_map() ? e.find("gpus") : nullptr;
        auto gi = g ? g->as_int() : std::nullopt;
        if (!pj || !pl || !gi || *gi < 0) {
            diags.error(path, e.mark(), "a demand needs project, pool and gpus (a whole number, at least 0)",
                        "runai.scenario");
            ok = false;
            continue;
        }
        const bool known_project = std::any_of(org.projects.begin(), org.projects.end(),
                                               [&](const OrgUnit& u) { return u.name == pj->text(); });
        if (!known_project) {
            diags.error(path, pj->mark(), "project \"" + pj->text() + "\" is not in the Run:ai export", "runai.scenario");
            ok = false;
        }
        if (!org.pool(pl->text())) {
            diags.error(path, pl->mark(), "node pool \"" + pl->text() + "\" is not in the Run:ai export", "runai.scenario");
            ok = false;
        }
        out.push_back({pj->text(), pl->text(), static_cast<double>(*gi)});
    }
    if (!ok) return std::nullopt;
    return out;
}

std::optional<Comparison> compare(const Organization& org, const Migration& m, const MigrationOptions& opts,
                                  const std::vector<Demand>& demands, const std::string& scenario,
                                  Diagnostics& diags) {
    (void)opts;
    Comparison c;
    c.scenario = scenario;
    // demand[pool][project]
    std::map<std::string, std::map<std::string, double>> demand;
    for (const auto& d : demands) demand[d.pool][d.project] += d.gpus;

    // Kueue: the site's objects plus the demands as Workloads, interleaved
    // (one of each team's in turn) so creation order favours nobody.
    const std::string site_path = "<runai-site>";
    Compilation comp = compile({.path = site_path, .text = render_site(m)});
    if (!comp.ok()) {
        check_site(m, site_path, diags);
        return std::nullopt;
    }
    std::vector<Resource> objects = workloads::resources_from_objects(comp.lowered->objects, site_path);
    struct Stream {
        TeamQueue q;
        const NodePool* pool;
        std::size_t count;
    };
    std::vector<Stream> streams;
    std::size_t total = 0;
    for (const auto& pool : org.pools) {
        auto it = demand.find(pool.name);
        if (it == demand.end()) continue;
        for (const auto& p : org.projects) {
            auto d = it->second.find(p.name);
            if (d == it->second.end() || d->second < 1) continue;
            auto q = team_for(m, p.name, pool.name);
            if (!q) continue;
            // No team is admitted more than the pool holds, so a demand beyond
            // it changes nothing on the Kueue side: capped there.
            const double cap = std::min(d->second, pool_gpus(pool));
            if (cap < 1) continue;
            streams.push_back({*q, &pool, static_cast<std::size_t>(std::floor(cap))});
            total += streams.back().count;
        }
        if (total > kMaxDemandWorkloads) {
            diags.error(pool.file, pool.mark,
                        "node pool \"" + pool.name + "\": the comparison (" + scenario +
                            ") simulates one 1-GPU Workload per GPU asked for, up to each pool's size: more than " +
                            std::to_string(kMaxDemandWorkloads) + " here, over its limit; compare a demands file of fewer GPUs",
                        "runai.scenario");
            return std::nullopt;
        }
    }
    std::size_t order = 0;
    for (std::size_t i = 0;; ++i) {
        bool any = false;
        for (const auto& s : streams) {
            if (i >= s.count) continue;
            any = true;
            objects.push_back(workload("demand-" + s.q.team + "-" + s.pool->name + "-" + std::to_string(i), s.q.ns,
                                       s.q.local_queue, *s.pool, order++));
        }
        if (!any) break;
    }
    scenarios::add_missing_namespaces(objects);
    Diagnostics quiet;
    scheduler::Result r = scheduler::simulate(objects, {}, quiet);
    // admitted[team][flavor]
    std::map<std::string, std::map<std::string, double>> admitted;
    for (const auto& w : r.workloads) {
        if (!w.admitted || w.name.rfind("demand-", 0) != 0) continue;
        for (const auto& a : w.assignments) {
            auto f = a.flavors.find("nvidia.com/gpu");
            if (f != a.flavors.end()) admitted[w.cluster_queue][f->second] += a.count;
        }
    }

    for (const auto& pool : org.pools) {
        if (pool_gpus(pool) <= 0) continue;
        auto shares = runai_shares(org, pool, demand[pool.name]);
        for (const auto& p : org.projects) {
            const PoolResources* pr = resources_in(p, pool.name);
            if (!pr) continue;
            ComparisonRow row;
            row.project = p.name;
            row.department = p.parent;
            row.pool = pool.name;
            row.demand = demand[pool.name][p.name];
            row.deserved = pr->gpu.set ? pr->gpu.deserved : 0;
            row.runai = shares[p.name];
            row.runai = std::min(row.runai, row.demand);
            auto q = team_for(m, p.name, pool.name);
            // The ClusterQueue is named after the team (the site's default).
            if (q) row.kueue = admitted[q->team][pool.name];
            c.rows.push_back(row);
        }
    }
    return c;
}

}  // namespace queueforge::importer::runai
