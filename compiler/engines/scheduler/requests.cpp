// Pod request aggregation as Kueue computes it for a pending Workload:
// AdjustResources (LimitRange defaults, limits as missing requests), the
// Kubernetes PodRequests aggregation (sidecars, init containers, pod-level
// resources, overhead), excluded prefixes, transformations, int64 conversion
// and multiplication by the pod count. kueue-semantics.md 4.2-4.5.
#include "engines/scheduler/requests.hpp"

#include <algorithm>
#include <set>

namespace queueforge::scheduler::detail {

namespace {

struct Container {
    ResourceList requests, limits;
    bool sidecar = false;
};

ResourceList keep_first(const ResourceList& a, const ResourceList& b) {
    ResourceList out = a;
    for (const auto& [k, v] : b) out.emplace(k, v);
    return out;
}

ResourceList keep_min(const ResourceList& a, const ResourceList& b) {
    ResourceList out = a;
    for (const auto& [k, v] : b) {
        auto it = out.find(k);
        if (it == out.end() || v < it->second) out[k] = v;
    }
    return out;
}

ResourceList keep_max(const ResourceList& a, const ResourceList& b) {
    ResourceList out = a;
    for (const auto& [k, v] : b) {
        auto it = out.find(k);
        if (it == out.end() || it->second < v) out[k] = v;
    }
    return out;
}

void add_into(ResourceList& to, const ResourceList& from) {
    for (const auto& [k, v] : from) {
        auto it = to.find(k);
        if (it == to.end()) {
            to[k] = v;
        } else if (auto sum = it->second.add(v)) {
            it->second = *sum;
        }
    }
}

void max_into(ResourceList& to, const ResourceList& from) {
    for (const auto& [k, v] : from) {
        auto it = to.find(k);
        if (it == to.end() || it->second < v) to[k] = v;
    }
}

std::map<std::string, std::int64_t> to_ints(const ResourceList& l) {
    std::map<std::string, std::int64_t> out;
    for (const auto& [k, v] : l) out[k] = resource_value(k, v);
    return out;
}

// MapRequests.GreaterKeys: names present in both whose value in `a` exceeds `b`.
std::vector<std::string> greater_keys(const ResourceList& a, const ResourceList& b) {
    std::vector<std::string> out;
    if (a.empty() || b.empty()) return out;
    auto ai = to_ints(a), bi = to_ints(b);
    for (const auto& [k, v] : ai) {
        auto it = bi.find(k);
        if (it != bi.end() && v > it->second) out.push_back(k);
    }
    return out;  // std::map order = sorted
}

std::string field_invalid(const std::string& path, const std::vector<std::string>& names, const std::string& detail) {
    std::string v = "[";
    for (std::size_t i = 0; i < names.size(); ++i) v += (i ? ",\"" : "\"") + names[i] + "\"";
    v += "]";
    return path + ": Invalid value: " + v + ": " + detail;
}

// Quantity x Quantity, rounded up to nano units like inf.Dec -> Quantity.
std::optional<Quantity> multiply(const Quantity& a, const Quantity& b) {
    int128 nb = b.nanos();
    int128 whole = nb / 1000000000;
    int128 frac = nb % 1000000000;
    if (whole > INT64_MAX || whole < INT64_MIN) return std::nullopt;
    auto p1 = a.mul(static_cast<std::int64_t>(whole));
    auto p2 = a.scale(static_cast<std::int64_t>(frac), 1000000000);
    if (!p1 || !p2) return std::nullopt;
    return p1->add(*p2);
}

ResourceList apply_transformations(const ResourceList& input, const Config& cfg) {
    if (cfg.transformations.empty()) return input;
    auto find = [&](const std::string& name) -> const Transformation* {
        for (const auto& t : cfg.transformations)
            if (t.input == name) return &t;
        return nullptr;
    };
    bool match = false;
    for (const auto& [k, v] : input)
        if (find(k)) match = true;
    if (!match) return input;
    ResourceList retained, generated;
    for (const auto& [name, q] : input) {
        const Transformation* t = find(name);
        if (!t) {
            retained[name] = q;
            continue;
        }
        Quantity base = q;
        if (!t->multiply_by.empty()) {
            auto it = input.find(t->multiply_by);
            if (it != input.end())
                if (auto p = multiply(q, it->second)) base = *p;
        }
        for (const auto& [out, factor] : t->outputs)
            if (auto p = multiply(base, factor)) add_into(generated, {{out, *p}});
        if (!t->replace) retained[name] = q;
    }
    for (auto& [k, v] : generated)
        if (v.sign() < 0) v = Quantity();
    add_into(retained, generated);
    return retained;
}

void read_container(const Reader& rd, const Node& c, bool init, Container& out) {
    const Node* res = rd.map_at(&c, "resources");
    std::string cname = rd.str_at(&c, "name");
    out.requests = rd.resource_list(res, "requests", "container " + cname + " request");
    out.limits = rd.resource_list(res, "limits", "container " + cname + " limit");
    out.sidecar = init && rd.str_at(&c, "restartPolicy") == "Always";
    for (const auto& [k, v] : out.requests)
        if (v.sign() < 0)
            rd.warning(res, "container " + cname + " requests a negative " + k + " (" + v.to_string() +
                                "); Kueue counts it as 0",
                       "sim.negative-request");
}

}  // namespace

void add_limit_range(const Reader& rd, const Node& spec, LimitRangeSummary& s) {
    s.any = true;
    const Node* limits = rd.seq_at(&spec, "limits");
    if (!limits) return;
    for (const auto& item : limits->items()) {
        if (!item.is_map()) continue;
        std::string type = rd.str_at(&item, "type");
        LimitRangeItem* into = type == "Container" ? &s.container : type == "Pod" ? &s.pod : nullptr;
        if (!into) continue;
        into->found = true;
        into->max = keep_min(into->max, rd.resource_list(&item, "max", "LimitRange max"));
        into->min = keep_max(into->min, rd.resource_list(&item, "min", "LimitRange min"));
        into->dflt = keep_first(into->dflt, rd.resource_list(&item, "default", "LimitRange default"));
        into->default_request =
            keep_first(into->default_request, rd.resource_list(&item, "defaultRequest", "LimitRange defaultRequest"));
    }
}

std::string aggregate_errors(const std::vector<std::string>& errs) {
    std::vector<std::string> uniq;
    for (const auto& e : errs)
        if (std::find(uniq.begin(), uniq.end(), e) == uniq.end()) uniq.push_back(e);
    if (uniq.empty()) return {};
    if (uniq.size() == 1) return uniq[0];
    std::string out = "[";
    for (std::size_t i = 0; i < uniq.size(); ++i) out += (i ? ", " : "") + uniq[i];
    return out + "]";
}

PodSetRequests podset_requests(const Reader& rd, const Node* spec, int index, std::int32_t count,
                               const LimitRangeSummary* lr, const Config& cfg, Model& m,
                               std::vector<std::string>& invalid, std::vector<std::string>& limit_range) {
    std::vector<Container> inits, mains;
    if (const Node* s = rd.seq_at(spec, "initContainers"))
        for (const auto& c : s->items()) read_container(rd, c, true, inits.emplace_back());
    if (const Node* s = rd.seq_at(spec, "containers"))
        for (const auto& c : s->items()) read_container(rd, c, false, mains.emplace_back());
    const Node* pod_res_node = rd.map_at(spec, "resources");
    bool has_pod_res = pod_res_node != nullptr;
    ResourceList pod_requests = rd.resource_list(pod_res_node, "requests", "pod-level request");
    ResourceList pod_limits = rd.resource_list(pod_res_node, "limits", "pod-level limit");
    ResourceList overhead = rd.resource_list(spec, "overhead", "overhead");

    // 4.2 step 2: LimitRange defaults; values already present win.
    if (lr && lr->container.found) {
        for (auto* list : {&inits, &mains})
            for (auto& c : *list) {
                c.limits = keep_first(c.limits, lr->container.dflt);
                c.requests = keep_first(c.requests, lr->container.default_request);
            }
    }
    if (lr && has_pod_res && lr->pod.found) {
        pod_limits = keep_first(pod_limits, lr->pod.dflt);
        pod_requests = keep_first(pod_requests, lr->pod.default_request);
    }
    // 4.2 step 3: limits as missing requests.
    for (auto* list : {&inits, &mains})
        for (auto& c : *list) c.requests = keep_first(c.requests, c.limits);
    if (has_pod_res) pod_requests = keep_first(pod_requests, pod_limits);

    const std::string base = "spec.podSets[" + std::to_string(index) + "].template.spec";
    // ValidateResources (V71): requests must not exceed limits.
    for (std::size_t i = 0; i < inits.size(); ++i)
        if (auto k = greater_keys(inits[i].requests, inits[i].limits); !k.empty())
            invalid.push_back(field_invalid(base + ".initContainers[" + std::to_string(i) + "]", k,
                                            "requests must not exceed its limits"));
    for (std::size_t i = 0; i < mains.size(); ++i)
        if (auto k = greater_keys(mains[i].requests, mains[i].limits); !k.empty())
            invalid.push_back(field_invalid(base + ".containers[" + std::to_string(i) + "]", k,
                                            "requests must not exceed its limits"));
    if (has_pod_res)
        if (auto k = greater_keys(pod_requests, pod_limits); !k.empty())
            invalid.push_back(field_invalid(base + ".resources", k, "requests must not exceed its limits"));

    // 4.3: per-pod aggregation.
    ResourceList reqs, sidecars, init_max;
    for (const auto& c : mains) add_into(reqs, c.requests);
    for (const auto& c : inits) {
        ResourceList cand;
        if (c.sidecar) {
            add_into(reqs, c.requests);
            add_into(sidecars, c.requests);
            cand = sidecars;
        } else {
            cand = c.requests;
            add_into(cand, sidecars);
        }
        max_into(init_max, cand);
    }
    max_into(reqs, init_max);
    bool pod_level = false;
    for (const auto& [k, v] : pod_requests)
        if (k == "cpu" || k == "memory") pod_level = true;
    if (pod_level)
        for (const auto& [k, v] : pod_requests)
            if (k == "cpu" || k == "memory") reqs[k] = v;
    add_into(reqs, overhead);

    // ValidateLimitRange: per container max/min, then the pod totals.
    if (lr && lr->any) {
        auto check = [&](const std::vector<Container>& list, const std::string& path) {
            if (!lr->container.found) return;
            for (std::size_t i = 0; i < list.size(); ++i) {
                std::string p = base + "." + path + "[" + std::to_string(i) + "]";
                ResourceList cmin = keep_min(list[i].requests, list[i].limits);
                ResourceList cmax = keep_max(list[i].requests, list[i].limits);
                if (auto k = greater_keys(cmax, lr->container.max); !k.empty())
                    limit_range.push_back(field_invalid(p, k, "requests must not be above the limitRange max"));
                if (auto k = greater_keys(lr->container.min, cmin); !k.empty())
                    limit_range.push_back(field_invalid(p, k, "requests must not be below the limitRange min"));
            }
        };
        check(inits, "initContainers");
        check(mains, "containers");
        if (lr->pod.found) {
            if (auto k = greater_keys(reqs, lr->pod.max); !k.empty())
                limit_range.push_back(field_invalid(base, k, "requests must not be above the limitRange max"));
            if (auto k = greater_keys(lr->pod.min, reqs); !k.empty())
                limit_range.push_back(field_invalid(base, k, "requests must not be below the limitRange min"));
        }
    }

    // 4.4 steps 1-2: excluded prefixes, transformations.
    ResourceList effective;
    for (const auto& [k, v] : reqs) {
        bool excluded = false;
        for (const auto& p : cfg.exclude_prefixes)
            if (k.rfind(p, 0) == 0) excluded = true;
        if (!excluded) effective[k] = v;
    }
    effective = apply_transformations(effective, cfg);

    PodSetRequests out;
    out.pod = reqs;
    out.per_pod = effective;
    // Steps 4-5: int64 (rounded up, clamped), negatives floored, x count.
    for (const auto& [k, v] : effective) {
        std::int64_t val = std::max<std::int64_t>(0, resource_value(k, v));
        out.total.emplace_back(m.resource_id(k), sat_mul(val, count));
    }
    m.sort_requests(out.total);
    return out;
}

}  // namespace queueforge::scheduler::detail
