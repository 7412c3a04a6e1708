// Reading a Run:ai export (runai.hpp describes the shapes and their sources).
// Every problem names the Run:ai object (project "llm", node pool "a100") and
// its file:line:col; reading goes on after an error so one run reports all.
#include <queueforge/integrations/runai.hpp>

#include <queueforge/base/names.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

namespace queueforge::importer::runai {

namespace {

struct Reader {
    std::string file;
    Diagnostics& diags;
    bool ok = true;

    void error(Mark m, const std::string& msg, const std::string& rule) {
        diags.error(file, m, msg, rule);
        ok = false;
    }
};

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A lowercase RFC 1123 label: what Namespaces, ClusterQueues, Cohorts and
// ResourceFlavors are named with.
bool dns_label(const std::string& s) {
    if (s.empty() || s.size() > 63) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return s.front() != '-' && s.back() != '-';
}

std::optional<double> number_of(const Node& n) {
    if (!n.is_scalar() || n.is_null()) return std::nullopt;
    const std::string& t = n.text();
    if (t.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string text_of(const Node* n) { return queueforge::text(n); }  // base/node_read.hpp

const Node* first_of(const Node& n, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (const Node* v = n.find(k); v && !v->is_null()) return v;
    return nullptr;
}

std::string fmt(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    std::string s = std::to_string(v);
    while (!s.empty() && s.back() == '0') s.pop_back();
    return s;
}

// Over-quota priority: Run:ai's rank names (REST API Resources.rank: "the
// scheduling rank of this org-unit within the node pool", default MediumLow,
// e.g. High before Medium; the CLI's priority=High|Medium|Low) in their
// order, or a number. The documentation names MediumLow, Medium and High;
// the others (VeryLow, Low, MediumHigh, VeryHigh) complete the scale by
// their names. Only the order matters: the KAI scheduler divides over-quota
// resources by queue priority, highest first.
std::optional<int> rank_value(const std::string& r) {
    static const std::pair<const char*, int> kRanks[] = {
        {"verylow", 1}, {"lowest", 1},      {"low", 2},  {"mediumlow", 3}, {"medium", 4},
        {"mediumhigh", 5}, {"high", 6}, {"veryhigh", 7}, {"highest", 7},
    };
    const std::string l = lower(r);
    for (const auto& [name, v] : kRanks)
        if (l == name) return v;
    char* end = nullptr;
    const long v = std::strtol(r.c_str(), &end, 10);
    if (!r.empty() && end == r.c_str() + r.size()) return static_cast<int>(v);
    return std::nullopt;
}

void read_quota(Reader& r, const Node& n, const std::string& owner, const std::string& res, const std::string& pool,
                Quota& q) {
    q.set = true;
    q.mark = n.mark();
    const std::string what = owner + ", node pool \"" + pool + "\", " + res;
    if (!n.is_map()) {
        r.error(n.mark(), what + ": expected a map with deserved, limit and overQuotaWeight", "runai.input");
        return;
    }
    double scale = 1;
    if (res == "memory") {
        // Memory quantities: MiB unless units says otherwise (Run:ai's API: Mib, MB, GB).
        const std::string units = lower(text_of(n.find("units")));
        if (units == "mb") scale = 1e6 / 1048576.0;
        else if (units == "gb") scale = 1e9 / 1048576.0;
        else if (!units.empty() && units != "mib") {
            r.error(n.find("units")->mark(), what + ".units: \"" + text_of(n.find("units")) + "\" is not Mib, MB or GB",
                    "runai.input");
        }
    }
    auto read_num = [&](std::initializer_list<const char*> keys, double& out, const char* label) -> const Node* {
        const Node* v = first_of(n, keys);
        if (!v) return nullptr;
        auto d = number_of(*v);
        if (!d) {
            r.error(v->mark(), what + "." + label + ": \"" + text_of(v) + "\" is not a number", "runai.input");
            return nullptr;
        }
        out = *d;
        return v;
    };
    const Node* deserved = read_num({"deserved"}, q.deserved, "deserved");
    const Node* limit = read_num({"limit", "maxAllowed"}, q.limit, "limit");
    const Node* weight = read_num({"overQuotaWeight"}, q.weight, "overQuotaWeight");
    q.weight_set = weight != nullptr;
    if (deserved && q.deserved < 0) {
        r.error(deserved->mark(),
                what + ".deserved: " + fmt(q.deserved) +
                    " is negative; a Kueue nominal quota is a number of units (unlimited deserved has no equivalent)",
                "runai.input");
    }
    if (deserved && res == "gpu" && q.deserved != std::floor(q.deserved)) {
        r.error(deserved->mark(),
                what + ".deserved: " + fmt(q.deserved) +
                    " GPUs is a fraction; Kueue's quota counts whole nvidia.com/gpu devices (GPU fractions have no "
                    "quota equivalent: give whole GPUs, or MIG profiles as their own resources)",
                "runai.fractional-gpu");
    }
    if (limit && q.limit != kUnlimited && q.limit < 0) {
        r.error(limit->mark(), what + ".limit: " + fmt(q.limit) + " is negative (-1 means no limit)", "runai.input");
    } else if (limit && q.limit != kUnlimited && q.limit < q.deserved) {
        r.error(limit->mark(),
                what + ".limit: " + fmt(q.limit) + " is below deserved " + fmt(q.deserved) +
                    "; Run:ai's limit is at least the deserved quota (-1 for no limit)",
                "runai.limit-below-deserved");
    }
    if (weight && q.weight <= 0) {
        r.error(weight->mark(),
                what + ".overQuotaWeight: " + fmt(q.weight) +
                    " is not positive; Kueue's fairSharing.weight 0 means 'borrow last, be preempted first', not "
                    "'never over quota' (set limit equal to deserved for that)",
                "runai.weight");
    }
    q.deserved *= scale;
    if (q.limit != kUnlimited) q.limit *= scale;
}

void read_resources(Reader& r, const Node& list, const std::string& owner, std::vector<PoolResources>& out) {
    if (!list.is_seq()) {
        r.error(list.mark(), owner + ": resources: expected a list of node-pool resources", "runai.input");
        return;
    }
    std::set<std::string> seen;
    for (const auto& e : list.items()) {
        if (!e.is_map()) {
            r.error(e.mark(), owner + ": a resources entry is not a map", "runai.input");
            continue;
        }
        PoolResources pr;
        pr.mark = e.mark();
        const Node* np = e.find("nodePool");
        if (np && np->is_map()) pr.pool = text_of(np->find("name"));
        else if (np) pr.pool = text_of(np);
        if (pr.pool.empty()) {
            r.error(e.mark(), owner + ": a resources entry names no node pool (nodePool.name)", "runai.input");
            continue;
        }
        if (!seen.insert(pr.pool).second) {
            r.error(e.mark(), owner + ": node pool \"" + pr.pool + "\" is listed twice in its resources", "runai.duplicate");
            continue;
        }
        if (const Node* g = e.find("gpu"); g && !g->is_null()) read_quota(r, *g, owner, "gpu", pr.pool, pr.gpu);
        if (const Node* c = e.find("cpu"); c && !c->is_null()) read_quota(r, *c, owner, "cpu", pr.pool, pr.cpu);
        if (const Node* m = e.find("memory"); m && !m->is_null()) read_quota(r, *m, owner, "memory", pr.pool, pr.memory);
        pr.rank = "MediumLow";
        pr.priority = 3;
        if (const Node* rk = first_of(e, {"rank", "priority", "overQuotaPriority"})) {
            pr.rank = text_of(rk);
            auto v = rank_value(pr.rank);
            if (!v)
                r.error(rk->mark(),
                        owner + ", node pool \"" + pr.pool + "\": rank \"" + pr.rank +
                            "\" is none of VeryLow, Low, MediumLow, Medium, MediumHigh, High, VeryHigh or a number",
                        "runai.input");
            else
                pr.priority = *v;
        }
        out.push_back(std::move(pr));
    }
}

void read_unit(Reader& r, const Node& n, const std::string& kind, OrgUnit& u) {
    u.file = r.file;
    u.mark = n.mark();
    u.name = text_of(n.find("name"));
    u.id = text_of(n.find("id"));
    const std::string owner = kind + " \"" + u.name + "\"";
    for (const char* key : {"trainingJobTimeLimitSecs", "interactiveJobTimeLimitSecs"}) {
        const Node* v = n.find(key);
        if (!v || v->is_null()) continue;
        auto secs = number_of(*v);
        if (!secs || *secs < 0)
            r.error(v->mark(), owner + ": " + key + ": \"" + text_of(v) + "\" is not a number of seconds", "runai.input");
        else if (*secs > 0)
            u.time_limits.emplace_back(key, *secs);
    }
    if (const Node* res = first_of(n, {"resources", "nodePoolsResources"})) {
        read_resources(r, *res, owner, u.resources);
    } else if (const Node* flat = first_of(n, {"deservedGpus", "maxAllowedGpus", "gpuOverQuotaWeight"})) {
        // The oldest spelling: GPU quota without node pools, on the default pool.
        (void)flat;
        PoolResources pr;
        pr.pool = "default";
        pr.mark = n.mark();
        Node g = Node::mapping(n.mark());
        if (const Node* v = n.find("deservedGpus")) g.set("deserved", *v);
        if (const Node* v = n.find("maxAllowedGpus")) g.set("limit", *v);
        if (const Node* v = n.find("gpuOverQuotaWeight")) g.set("overQuotaWeight", *v);
        read_quota(r, g, owner, "gpu", pr.pool, pr.gpu);
        pr.rank = "MediumLow";
        pr.priority = 3;
        u.resources.push_back(std::move(pr));
    }
}

void read_pool(Reader& r, const Node& n, NodePool& p) {
    p.file = r.file;
    p.mark = n.mark();
    p.name = text_of(n.find("name"));
    p.label_key = text_of(n.find("labelKey"));
    p.label_value = text_of(n.find("labelValue"));
    const std::string owner = "node pool \"" + p.name + "\"";
    if (const Node* nodes = n.find("nodes"); nodes && !nodes->is_null()) {
        auto v = nodes->as_int();
        if (!v || *v < 0)
            r.error(nodes->mark(), owner + ": nodes: \"" + text_of(nodes) + "\" is not a node count", "runai.input");
        else
            p.nodes = *v;
    }
    if (const Node* a = n.find("allocatable"); a && !a->is_null()) {
        if (!a->is_map()) {
            r.error(a->mark(), owner + ": allocatable: expected a map of resources per node", "runai.input");
        } else {
            for (const auto& e : a->entries()) {
                p.allocatable.emplace_back(e.key, text_of(&e.value));
                if (e.key == "nvidia.com/gpu") {
                    auto g = number_of(e.value);
                    if (!g || *g < 0 || *g != std::floor(*g))
                        r.error(e.value.mark(), owner + ": allocatable nvidia.com/gpu: \"" + e.value.text() +
                                                    "\" is not a whole number of GPUs",
                                "runai.input");
                    else
                        p.gpus_per_node = *g;
                }
            }
        }
    }
    // Placement strategy: placementStrategy (previous API, KAI's
    // SchedulingShard) or schedulingConfiguration.placementStrategy (current).
    const Node* ps = n.find("placementStrategy");
    if (!ps || ps->is_null())
        if (const Node* sc = n.find("schedulingConfiguration"); sc && sc->is_map()) ps = sc->find("placementStrategy");
    if (ps && !ps->is_null()) {
        if (!ps->is_map()) {
            r.error(ps->mark(), owner + ": placementStrategy: expected a map {gpu, cpu} of binpack or spread",
                    "runai.input");
        } else {
            for (const auto& [key, out] : {std::pair<const char*, std::string*>{"gpu", &p.gpu_strategy},
                                           std::pair<const char*, std::string*>{"cpu", &p.cpu_strategy}}) {
                const Node* v = ps->find(key);
                if (!v || v->is_null()) continue;
                const std::string s = lower(text_of(v));
                if (s != "binpack" && s != "spread")
                    r.error(v->mark(),
                            owner + ": placementStrategy." + key + ": \"" + text_of(v) +
                                "\" is neither binpack nor spread",
                            "runai.input");
                else
                    *out = s;
            }
        }
    }
    // Node-level scheduler options besides the strategy: reported, not mapped.
    auto option = [&](const std::string& key, const Node& v) {
        std::string shown = v.is_scalar() ? text_of(&v) : v.is_map() ? "{...}" : "[...]";
        if (v.is_map()) {
            shown.clear();
            for (const auto& e : v.entries())
                shown += (shown.empty() ? "" : ", ") + e.key + ": " + (e.value.is_scalar() ? text_of(&e.value) : "...");
            shown = "{" + shown + "}";
        }
        p.scheduler_options.emplace_back(key, shown);
    };
    if (const Node* sc = n.find("schedulingConfiguration"); sc && sc->is_map())
        for (const auto& e : sc->entries())
            if (e.key != "placementStrategy" && !e.value.is_null()) option(e.key, e.value);
    for (const char* key : {"minRuntime", "kValue", "queueDepthPerAction", "args"})
        if (const Node* v = n.find(key); v && !v->is_null()) option(key, *v);
    p.topology = text_of(first_of(n, {"networkTopologyName", "networkTopology"}));
    if (p.topology.empty()) {
        const std::string id = text_of(n.find("networkTopologyId"));
        if (!id.empty()) p.topology = "#" + id;  // resolved against the topologies' ids
    }
    if (const Node* sh = n.find("topologyShape"); sh && !sh->is_null()) {
        if (!sh->is_seq() || sh->items().empty()) {
            r.error(sh->mark(), owner + ": topologyShape: expected a list of domain counts", "runai.input");
        } else {
            for (const auto& e : sh->items()) {
                auto v = e.as_int();
                if (!v || *v < 1 || *v > static_cast<std::int64_t>(kMaxTopologyNodes)) {
                    r.error(e.mark(), owner + ": topologyShape: \"" + text_of(&e) + "\" is not a count from 1 to " +
                                          std::to_string(kMaxTopologyNodes),
                            "runai.input");
                    p.topology_shape.clear();
                    break;
                }
                p.topology_shape.push_back(*v);
            }
        }
    }
    if (const Node* dc = n.find("deviceClasses"); dc && !dc->is_null()) {
        if (!dc->is_seq()) {
            r.error(dc->mark(), owner + ": deviceClasses: expected a list of DeviceClass names", "runai.input");
        } else {
            std::set<std::string> seen;
            for (const auto& e : dc->items()) {
                // A name, or a DeviceClass object as `kubectl get deviceclasses -o yaml` lists it.
                std::string name = text_of(&e);
                if (e.is_map())
                    if (const Node* md = e.find("metadata"); md && md->is_map()) name = text_of(md->find("name"));
                if (e.is_map() && name.empty()) name = text_of(e.find("name"));
                // A DeviceClass is named with a DNS subdomain (resource.k8s.io
                // DeviceClass metadata.name); Kueue's deviceClassNames take it as is.
                const std::string why = check_dns1123_subdomain(name);
                if (!why.empty()) {
                    r.error(e.mark(), owner + ": deviceClasses: \"" + name + "\" is not a DeviceClass name: " + why,
                            "runai.input");
                    continue;
                }
                if (!seen.insert(name).second) {
                    r.error(e.mark(), owner + ": deviceClasses: \"" + name + "\" is listed twice", "runai.duplicate");
                    continue;
                }
                p.device_classes.push_back(name);
            }
        }
    }
}

void read_topology(Reader& r, const Node& n, NetworkTopology& t) {
    t.file = r.file;
    t.mark = n.mark();
    t.name = text_of(n.find("name"));
    t.id = text_of(n.find("id"));
    const std::string owner = "network topology \"" + t.name + "\"";
    const Node* levels = n.find("levels");
    if (!levels || !levels->is_seq() || levels->items().empty()) {
        r.error(levels ? levels->mark() : n.mark(), owner + ": levels: expected a list of node labels, highest first",
                "runai.input");
        return;
    }
    // The Topology CRD's rules (Kueue apis/kueue/v1beta2/topology_types.go,
    // KAI pkg/apis/kai/v1alpha1/topology_types.go): 1-16 unique label keys,
    // kubernetes.io/hostname only as the lowest.
    if (levels->items().size() > 16)
        r.error(levels->mark(), owner + ": levels: " + std::to_string(levels->items().size()) +
                                    " levels; a Topology has 1 to 16",
                "runai.input");
    for (std::size_t i = 0; i < levels->items().size(); ++i) {
        const Node& e = levels->items()[i];
        std::string label = e.is_map() ? text_of(e.find("nodeLabel")) : text_of(&e);
        const std::string where = owner + ": levels[" + std::to_string(i) + "]";
        if (const std::string why = check_qualified_name(label); !why.empty()) {
            r.error(e.mark(), where + ": \"" + label + "\" is not a node label key: " + why, "runai.input");
            continue;
        }
        if (std::find(t.levels.begin(), t.levels.end(), label) != t.levels.end()) {
            r.error(e.mark(), where + ": \"" + label + "\" is listed twice; levels are unique", "runai.duplicate");
            continue;
        }
        if (label == kHostnameLabel && i + 1 != levels->items().size())
            r.error(e.mark(), where + ": kubernetes.io/hostname can only be the lowest level", "runai.input");
        t.levels.push_back(label);
    }
}

void read_document(Reader& r, const Node& root, Organization& org) {
    if (!root.is_map()) {
        r.error(root.mark(), "a Run:ai export is a map with nodePools, departments and projects", "runai.input");
        return;
    }
    bool any = false;
    auto each = [&](const char* key, auto fn) {
        const Node* list = root.find(key);
        if (!list || list->is_null()) return;
        any = true;
        if (!list->is_seq()) {
            r.error(list->mark(), std::string(key) + ": expected a list", "runai.input");
            return;
        }
        for (const auto& item : list->items()) {
            if (!item.is_map()) {
                r.error(item.mark(), std::string(key) + ": an entry is not a map", "runai.input");
                continue;
            }
            fn(item);
        }
    };
    auto check_name = [&](const Node& n, const std::string& kind, const std::string& name, const char* becomes) {
        if (dns_label(name)) return;
        const Node* at = n.find("name");
        r.error(at ? at->mark() : n.mark(),
                kind + " \"" + name + "\": not a lowercase RFC 1123 label (a-z, 0-9, '-', at most 63), which its " +
                    becomes + " is named with",
                "runai.input");
    };
    each("nodePools", [&](const Node& n) {
        NodePool p;
        read_pool(r, n, p);
        if (p.name.empty()) {
            r.error(n.mark(), "a node pool has no name", "runai.input");
            return;
        }
        check_name(n, "node pool", p.name, "ResourceFlavor");
        org.pools.push_back(std::move(p));
    });
    each("networkTopologies", [&](const Node& n) {
        NetworkTopology t;
        read_topology(r, n, t);
        if (t.name.empty()) {
            r.error(n.mark(), "a network topology has no name", "runai.input");
            return;
        }
        check_name(n, "network topology", t.name, "Topology");
        org.topologies.push_back(std::move(t));
    });
    each("departments", [&](const Node& n) {
        OrgUnit u;
        read_unit(r, n, "department", u);
        if (u.name.empty()) {
            r.error(n.mark(), "a department has no name", "runai.input");
            return;
        }
        check_name(n, "department", u.name, "Cohort");
        org.departments.push_back(std::move(u));
    });
    each("projects", [&](const Node& n) {
        OrgUnit u;
        read_unit(r, n, "project", u);
        if (u.name.empty()) {
            r.error(n.mark(), "a project has no name", "runai.input");
            return;
        }
        check_name(n, "project", u.name, "ClusterQueue");
        // The parent: current API parentId / parentName, previous departmentId / departmentName.
        u.parent = text_of(first_of(n, {"parentName", "departmentName"}));
        if (u.parent.empty()) {
            const std::string id = text_of(first_of(n, {"parentId", "departmentId"}));
            if (!id.empty()) u.parent = "#" + id;  // resolved against department ids below
        }
        // The namespace: requestedNamespace (current API, when set by the
        // admin), status.namespace (what the cluster created), namespace (previous).
        std::set<std::string> seen;
        auto add_ns = [&](const Node* v) {
            const std::string ns = text_of(v);
            if (ns.empty() || !seen.insert(ns).second) return;
            if (!dns_label(ns))
                r.error(v->mark(),
                        "project \"" + u.name + "\": namespace \"" + ns +
                            "\" is not a lowercase RFC 1123 label (a-z, 0-9, '-', at most 63)",
                        "runai.input");
            u.namespaces.push_back(ns);
        };
        add_ns(n.find("requestedNamespace"));
        if (const Node* st = n.find("status"); st && st->is_map()) add_ns(st->find("namespace"));
        add_ns(n.find("namespace"));
        if (u.namespaces.empty())
            r.error(n.mark(),
                    "project \"" + u.name +
                        "\" has no namespace (requestedNamespace, status.namespace or namespace): a team's queue is "
                        "offered in its namespaces, so the project would have none",
                    "runai.no-namespace");
        org.projects.push_back(std::move(u));
    });
    each("priorityClasses", [&](const Node& n) {
        PriorityClass pc;
        pc.name = text_of(n.find("name"));
        const Node* v = n.find("value");
        auto iv = v ? v->as_int() : std::nullopt;
        if (pc.name.empty() || !iv)
            r.error(n.mark(), "a priority class needs a name and an integer value", "runai.input");
        else {
            pc.value = *iv;
            org.priority_classes.push_back(pc);
        }
    });
    if (!any)
        r.error(root.mark(), "no nodePools, departments or projects: this is not a Run:ai export", "runai.input");
}

template <class T>
void check_unique(Diagnostics& diags, const std::vector<T>& items, const std::string& kind, bool& ok) {
    std::map<std::string, const T*> first;
    for (const auto& it : items) {
        auto [pos, fresh] = first.emplace(it.name, &it);
        if (fresh) continue;
        diags.error(it.file, it.mark,
                    kind + " \"" + it.name + "\" is defined twice (first at " + pos->second->file + ":" +
                        std::to_string(pos->second->mark.line) + ":" + std::to_string(pos->second->mark.col) +
                        "); names are unique in Run:ai and become Kueue object names",
                    "runai.duplicate");
        ok = false;
    }
}

void check_references(Organization& org, Diagnostics& diags, bool& ok) {
    check_unique(diags, org.pools, "node pool", ok);
    check_unique(diags, org.topologies, "network topology", ok);
    for (auto& p : org.pools) {
        if (p.topology.empty()) {
            if (!p.topology_shape.empty()) {
                diags.error(p.file, p.mark,
                            "node pool \"" + p.name + "\": topologyShape without a network topology "
                            "(networkTopologyId or networkTopologyName)",
                            "runai.input");
                ok = false;
            }
            continue;
        }
        const NetworkTopology* t = nullptr;
        if (p.topology[0] == '#') {
            const std::string id = p.topology.substr(1);
            for (const auto& x : org.topologies)
                if (x.id == id) t = &x;
            if (!t) {
                diags.error(p.file, p.mark,
                            "node pool \"" + p.name + "\": its network topology id " + id +
                                " is not among the networkTopologies",
                            "runai.unknown-reference");
                ok = false;
                continue;
            }
            p.topology = t->name;
        } else if (!(t = org.topology(p.topology))) {
            diags.error(p.file, p.mark,
                        "node pool \"" + p.name + "\": network topology \"" + p.topology +
                            "\" is not among the networkTopologies",
                        "runai.unknown-reference");
            ok = false;
            continue;
        }
        if (p.topology_shape.empty() || t->levels.empty()) continue;
        // The shape counts the domains of each level that is not the
        // hostname, then the nodes per lowest domain (the site's pool topology.shape).
        std::size_t want = t->levels.size() + 1;
        if (t->levels.back() == kHostnameLabel) --want;
        if (p.topology_shape.size() != want) {
            diags.error(p.file, p.mark,
                        "node pool \"" + p.name + "\": topologyShape has " + std::to_string(p.topology_shape.size()) +
                            " numbers; network topology \"" + t->name + "\" needs " + std::to_string(want) +
                            ": the domains per parent at each level that is not kubernetes.io/hostname, then the "
                            "nodes per lowest domain",
                        "runai.input");
            ok = false;
            continue;
        }
        std::int64_t nodes = 1;
        for (auto v : p.topology_shape) nodes = std::min<std::int64_t>(nodes * v, 1'000'000'000);
        if (p.nodes && *p.nodes != nodes) {
            diags.error(p.file, p.mark,
                        "node pool \"" + p.name + "\": topologyShape describes " + std::to_string(nodes) +
                            " nodes, but the pool has nodes: " + std::to_string(*p.nodes),
                        "runai.input");
            ok = false;
        }
    }
    check_unique(diags, org.departments, "department", ok);
    check_unique(diags, org.projects, "project", ok);
    auto check_pools = [&](const OrgUnit& u, const std::string& kind) {
        for (const auto& pr : u.resources)
            if (!org.pool(pr.pool)) {
                std::string known;
                for (const auto& p : org.pools) known += (known.empty() ? "" : ", ") + p.name;
                diags.error(u.file, pr.mark,
                            kind + " \"" + u.name + "\": node pool \"" + pr.pool + "\" is not among the node pools (" +
                                (known.empty() ? "none" : known) + ")",
                            "runai.unknown-reference");
                ok = false;
            }
    };
    for (const auto& d : org.departments) check_pools(d, "department");
    for (auto& p : org.projects) {
        check_pools(p, "project");
        if (p.parent.empty()) continue;
        if (p.parent[0] == '#') {
            const std::string id = p.parent.substr(1);
            auto it = std::find_if(org.departments.begin(), org.departments.end(),
                                   [&](const OrgUnit& d) { return d.id == id; });
            if (it != org.departments.end()) {
                p.parent = it->name;
                continue;
            }
            diags.error(p.file, p.mark, "project \"" + p.name + "\": its department id " + id + " is not among the departments",
                        "runai.unknown-reference");
            ok = false;
        } else if (!org.department(p.parent)) {
            diags.error(p.file, p.mark,
                        "project \"" + p.name + "\": department \"" + p.parent + "\" is not among the departments",
                        "runai.unknown-reference");
            ok = false;
        }
    }
}

}  // namespace

const NodePool* Organization::pool(const std::string& name) const {
    for (const auto& p : pools)
        if (p.name == name) return &p;
    return nullptr;
}

const NetworkTopology* Organization::topology(const std::string& name) const {
    for (const auto& t : topologies)
        if (t.name == name) return &t;
    return nullptr;
}

const OrgUnit* Organization::department(const std::string& name) const {
    for (const auto& d : departments)
        if (d.name == name) return &d;
    return nullptr;
}

namespace {

bool read_into(const std::string& path, const std::string& text, Organization& org, Diagnostics& diags) {
    const std::size_t errors = diags.count(Severity::Error);
    auto docs = load_yaml(path, text, diags);
    if (diags.count(Severity::Error) > errors) return false;
    Reader r{path, diags};
    if (docs.empty()) r.error(Mark{1, 1}, "the file holds no document: expected a Run:ai export", "runai.input");
    for (const auto& d : docs) read_document(r, d.root, org);
    return r.ok;
}

void finish(Organization& org, Diagnostics& diags, bool& ok) {
    check_references(org, diags, ok);
    if (org.priority_classes.empty()) {
        // The KAI scheduler's PriorityClasses (deployments/kai-scheduler/
        // templates/priorityclasses at the commit fairshare.hpp names): Run:ai's
        // workload priorities. build-preemptible (75) and train (50) are below
        // 100 and so preemptible in Run:ai.
        org.priority_classes = {{"inference", 125}, {"build", 100}, {"build-preemptible", 75}, {"train", 50}};
    }
}

}  // namespace

std::optional<Organization> read_organization_text(const std::string& path, const std::string& text,
                                                   Diagnostics& diags) {
    Organization org;
    bool ok = read_into(path, text, org, diags);
    finish(org, diags, ok);
    if (!ok) return std::nullopt;
    return org;
}

std::optional<Organization> read_organization(const std::vector<std::string>& paths, Diagnostics& diags,
                                              std::vector<SourceText>* sources) {
    Organization org;
    bool ok = true;
    for (const auto& p : paths) {
        std::string text;
        if (!read_file_limited(p, text, diags)) {
            ok = false;
            continue;
        }
        if (sources) sources->push_back({p, text});
        ok = read_into(p, text, org, diags) && ok;
    }
    finish(org, diags, ok);
    if (!ok) return std::nullopt;
    return org;
}

}  // namespace queueforge::importer::runai
