// A podSet's topologyRequest: what Kueue's job framework makes of the
// Topology-Aware Scheduling annotations on a pod template, and which of them
// Kueue's webhooks refuse.
//
// Source: kubernetes-sigs/kueue at ff69552e79ad21652c36caa97038382e55625cf7,
// pkg/controller/jobframework/tas.go (podSetTopologyRequestBuilder.Build),
// tas_validation.go (ValidateTASPodSetRequest,
// ValidateSliceSizeAnnotationUpperBound, ValidatePodSetGroupingTopology and
// the multi-layer constraints check), apis/kueue/v1beta2/workload_types.go
// (PodSetTopologyRequest, PodsetSliceRequiredTopologyConstraint: field names
// and JSON spelling) and topology_types.go (annotation keys); the per-kind
// index labels and webhook order in pkg/controller/jobs/*. Feature gates at
// their defaults: TopologyAwareScheduling (beta, on since 0.14) and
// TASMultiLayerTopology (beta, on since 0.19). Read for the facts; written
// here independently.
//
// Messages are Kueue's field errors as the API server prints them
// ("<path>: Invalid value: \"v\": detail", "Forbidden: ...", "Required value:
// ...", "Duplicate value: ..."); Go parse errors keep strconv's wording. Two
// known differences: a JSON syntax error in the multi-layer constraints
// annotation names the first offending byte in queueforge's words, not
// encoding/json's; and only the first reason a label name is invalid is given
// (apimachinery lists every one).
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/names.hpp>
#include <queueforge/base/text.hpp>

#include <nlohmann/json.hpp>

#include <queueforge/base/tas_annotations.hpp>

#include <algorithm>
#include <map>

namespace queueforge::workloads::detail {

namespace {

using namespace tas_annotations;


std::string q(std::string_view s) { return go_quote(s); }

// One annotation of the template: its value node (for positions) and text.
struct Ann {
    const Node* at = nullptr;
    std::string value;
    explicit operator bool() const { return at != nullptr; }
};

Ann get(const Node* anns, std::string_view key) {
    const Node* n = anns && anns->is_map() ? anns->find(key) : nullptr;
    if (!n) return {};
    return {n, n->is_scalar() && !n->is_null() ? n->text().str() : std::string()};
}

// The topology annotations of a pod template (or a LeaderWorkerSet's).
struct TopologyAnns {
    Ann required, preferred, unconstrained, slice_required, slice_size, constraints, group;
};

TopologyAnns get_all(const Node* anns) {
    return {get(anns, kRequired),      get(anns, kPreferred),        get(anns, kUnconstrained), get(anns, kSliceRequired),
            get(anns, kSliceSize),     get(anns, kSliceConstraints), get(anns, kGroupName)};
}

// strconv.ParseBool.
std::optional<bool> parse_bool(const std::string& s) {
    for (const char* t : {"1", "t", "T", "TRUE", "true", "True"})
        if (s == t) return true;
    for (const char* f : {"0", "f", "F", "FALSE", "false", "False"})
        if (s == f) return false;
    return std::nullopt;
}

// strconv.ParseInt(s, 10, 32): the value, or strconv's reason.
struct Int32 {
    std::int64_t value = 0;
    std::string error;  // "invalid syntax" | "value out of range"
};
Int32 parse_int32(std::string_view s) {
    std::string_view d = s;
    bool neg = false;
    if (!d.empty() && (d.front() == '+' || d.front() == '-')) neg = d.front() == '-', d.remove_prefix(1);
    if (d.empty() || !std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; })) return {0, "invalid syntax"};
    std::int64_t v = 0;
    for (char c : d) {
        v = v * 10 + (c - '0');
        if (v > kInt32Max + 1) return {0, "value out of range"};
    }
    if (neg) v = -v;
    if (v > kInt32Max || v < kInt32Min) return {0, "value out of range"};
    return {v, ""};
}

// strconv.ParseUint(s, 10, 64) succeeds.
bool is_uint64(std::string_view s) {
    if (s.empty() || s.size() > 20 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    return s.size() < 20 || s <= "18446744073709551615";
}

struct Constraint {
    std::string topology;
    std::int64_t size = 0;
};

// encoding/json's Unmarshal into []PodsetSliceRequiredTopologyConstraint:
// keys matched case-insensitively, unknown keys ignored, null elements and
// fields zero. Returns the error text on failure.
std::optional<std::string> parse_constraints(const std::string& text, std::vector<Constraint>& out) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // encoding/json names the offending character for the common case of
        // a value that is not JSON at all.
        std::size_t i = 0;
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
        if (i == text.size()) return std::string("unexpected end of JSON input");
        const char c = text[i];
        if (c != '[' && c != '{' && c != '"' && c != '-' && !(c >= '0' && c <= '9') && c != 't' && c != 'f' && c != 'n')
            return "invalid character " + std::string(c == '\'' ? "'\\''" : "'" + std::string(1, c) + "'") + " looking for beginning of value";
        return "invalid JSON at byte " + std::to_string(e.byte) + " (not a JSON array of {topology, size})";
    }
    const std::string go_type = "[]v1beta2.PodsetSliceRequiredTopologyConstraint";
    auto json_kind = [](const nlohmann::json& v) -> std::string {
        if (v.is_object()) return "object";
        if (v.is_array()) return "array";
        if (v.is_string()) return "string";
        if (v.is_boolean()) return "bool";
        if (v.is_number()) return "number";
        return "null";
    };
    if (j.is_null()) return std::nullopt;
    if (!j.is_array()) return "json: cannot unmarshal " + json_kind(j) + " into Go value of type " + go_type;
    std::optional<std::string> first_error;  // Go keeps decoding after a type error and reports the first
    auto field_error = [&](const std::string& what, const std::string& field, const std::string& type) {
        if (!first_error)
            first_error = "json: cannot unmarshal " + what + " into Go struct field PodsetSliceRequiredTopologyConstraint." +
                          field + " of type " + type;
    };
    for (const auto& e : j) {
        Constraint c;
        if (!e.is_null() && !e.is_object()) {
            if (!first_error)
                first_error = "json: cannot unmarshal " + json_kind(e) + " into Go value of type v1beta2.PodsetSliceRequiredTopologyConstraint";
            out.push_back(c);
            continue;
        }
        if (e.is_object())
            for (const auto& [key, v] : e.items()) {
                const std::string k = lower(key);
                if (k == "topology") {
                    if (v.is_string()) c.topology = v.get<std::string>();
                    else if (!v.is_null()) field_error(json_kind(v), "topology", "string");
                } else if (k == "size") {
                    if (v.is_number_integer() && v.get<std::int64_t>() >= kInt32Min && v.get<std::int64_t>() <= kInt32Max &&
                        !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kInt32Max)))
                        c.size = v.get<std::int64_t>();
                    else if (v.is_number()) field_error("number " + v.dump(), "size", "int32");
                    else if (!v.is_null()) field_error(json_kind(v), "size", "int32");
                }
            }
        out.push_back(c);
    }
    return first_error;
}

std::string annotation_path(const std::string& meta_path) { return meta_path + ".annotations"; }
std::string key_path(const std::string& meta_path, std::string_view key) {
    return annotation_path(meta_path) + "[" + std::string(key) + "]";
}

// metavalidation.ValidateLabelName.
void label_name(std::vector<TasError>& errs, const Ann& a, const std::string& path) {
    if (auto why = check_qualified_name(a.value); !why.empty())
        errs.push_back({a.at, path, "Invalid value: " + q(a.value) + ": " + why});
}

}  // namespace

TasBuild build_topology_request(const Node* annotations, const TasSource& src, Mark mark) {
    const auto [required, preferred, unconstrained, slice_required, slice_size, constraints, group] = get_all(annotations);

    TasBuild out;
    Node req = Node::mapping(mark);
    if (required) {
        req.set("required", Node::string(required.value, required.at->mark()));
    } else if (preferred) {
        req.set("preferred", Node::string(preferred.value, preferred.at->mark()));
    } else if (unconstrained) {
        auto b = parse_bool(unconstrained.value);
        if (!b) {
            out.error = TasError{unconstrained.at, "", "strconv.ParseBool: parsing " + q(unconstrained.value) + ": invalid syntax"};
            return out;
        }
        req.set("unconstrained", Node::boolean(*b, unconstrained.at->mark()));
    } else {
        const bool slice_layer = (slice_required && slice_size) || constraints;
        if (!slice_layer && !src.pod_index_label && !src.sub_group_index_label && !src.sub_group_count) return out;
    }

    std::vector<Constraint> layers;
    if (constraints) {  // TASMultiLayerTopology: on
        if (auto err = parse_constraints(constraints.value, layers)) {
            out.error = TasError{constraints.at, "", "failed to parse multi-layer topology constraints annotation: " + *err};
            return out;
        }
        if (layers.empty() || layers.size() > 3) {
            out.error = TasError{constraints.at, "", "topology constraints must contain between 1 and 3 entries: got " + std::to_string(layers.size())};
            return out;
        }
    } else if (slice_required && slice_size) {
        const Int32 n = parse_int32(slice_size.value);
        if (!n.error.empty()) {
            out.error = TasError{slice_size.at, "", "strconv.ParseInt: parsing " + q(slice_size.value) + ": " + n.error};
            return out;
        }
        req.set("podSetSliceRequiredTopology", Node::string(slice_required.value, slice_required.at->mark()));
        req.set("podSetSliceSize", Node::integer(n.value, slice_size.at->mark()));
    }

    // JSON field order of PodSetTopologyRequest: the builder's fields go
    // between the mode and the group name.
    Node ordered = Node::mapping(mark);
    for (auto key : {"required", "preferred", "unconstrained"})
        if (const Node* v = req.find(key)) ordered.set(key, *v);
    if (src.pod_index_label) ordered.set("podIndexLabel", Node::string(*src.pod_index_label, mark));
    if (src.sub_group_index_label) ordered.set("subGroupIndexLabel", Node::string(*src.sub_group_index_label, mark));
    if (src.sub_group_count) ordered.set("subGroupCount", Node::integer(*src.sub_group_count, mark));
    if (group && (required || preferred)) ordered.set("podSetGroupName", Node::string(group.value, group.at->mark()));
    for (auto key : {"podSetSliceRequiredTopology", "podSetSliceSize"})
        if (const Node* v = req.find(key)) ordered.set(key, *v);
    if (!layers.empty()) {
        Node seq = Node::sequence(constraints.at->mark());
        for (const auto& c : layers) {
            Node m = Node::mapping(constraints.at->mark());  // omitempty on both fields
            if (!c.topology.empty()) m.set("topology", Node::string(c.topology, constraints.at->mark()));
            if (c.size != 0) m.set("size", Node::integer(c.size, constraints.at->mark()));
            seq.push(std::move(m));
        }
        ordered.set("podsetSliceRequiredTopologyConstraints", std::move(seq));
    }
    out.request = std::move(ordered);
    return out;
}

std::vector<TasError> validate_topology_annotations(const Node* annotations, const std::string& meta_path) {
    std::vector<TasError> errs;
    const auto [required, preferred, unconstrained, slice_required, slice_size, constraints, group] = get_all(annotations);

    if (int(bool(required)) + int(bool(preferred)) + int(bool(unconstrained)) > 1)
        errs.push_back({annotations, annotation_path(meta_path),
                        "Invalid value: must not contain more than one topology annotation: [" + q(kRequired) + ", " +
                            q(kPreferred) + ", " + q(kUnconstrained) + "]"});
    if (required) label_name(errs, required, key_path(meta_path, kRequired));
    if (preferred) label_name(errs, preferred, key_path(meta_path, kPreferred));
    if (slice_required) label_name(errs, slice_required, key_path(meta_path, kSliceRequired));

    if (group) {
        const std::string gp = key_path(meta_path, kGroupName);
        if (is_uint64(group.value)) errs.push_back({group.at, gp, "Invalid value: " + q(group.value) + ": must not be a number"});
        if (slice_size) errs.push_back({group.at, gp, "Forbidden: may not be set when '" + std::string(kSliceSize) + "' is specified"});
        if (slice_required)
            errs.push_back({group.at, gp, "Forbidden: may not be set when '" + std::string(kSliceRequired) + "' is specified"});
        if (!preferred && !required)
            errs.push_back({group.at, gp, "Forbidden: may not be set when neither '" + std::string(kPreferred) + "' nor '" +
                                              std::string(kRequired) + "' is specified"});
    }

    if (unconstrained && !parse_bool(unconstrained.value))
        errs.push_back({unconstrained.at, key_path(meta_path, kUnconstrained), "Invalid value: " + q(unconstrained.value) + ": must be a boolean value"});

    if (slice_size) {
        const Int32 n = parse_int32(slice_size.value);
        const std::string sp = key_path(meta_path, kSliceSize);
        if (!n.error.empty()) errs.push_back({slice_size.at, sp, "Invalid value: " + q(slice_size.value) + ": must be a numeric value"});
        else if (n.value < 1) errs.push_back({slice_size.at, sp, "Invalid value: " + q(slice_size.value) + ": must be greater than or equal to 1"});
    }

    if (slice_required && !slice_size)
        errs.push_back({slice_required.at, key_path(meta_path, kSliceSize),
                        "Required value: must be set when '" + std::string(kSliceRequired) + "' is specified"});
    if (!slice_required && slice_size)
        errs.push_back({slice_size.at, key_path(meta_path, kSliceSize),
                        "Forbidden: may not be set when '" + std::string(kSliceRequired) + "' is not specified"});

    // The multi-layer constraints (TASMultiLayerTopology on).
    if (constraints) {
        const std::string cp = key_path(meta_path, kSliceConstraints);
        if (slice_required) errs.push_back({constraints.at, cp, "Forbidden: may not be set when '" + std::string(kSliceRequired) + "' is specified"});
        if (slice_size) errs.push_back({constraints.at, cp, "Forbidden: may not be set when '" + std::string(kSliceSize) + "' is specified"});
        if (group)
            errs.push_back({group.at, key_path(meta_path, kGroupName),
                            "Forbidden: may not be set when '" + std::string(kSliceConstraints) + "' is specified"});
        std::vector<Constraint> layers;
        if (auto err = parse_constraints(constraints.value, layers)) {
            errs.push_back({constraints.at, cp, "Invalid value: " + q(constraints.value) + ": must be a valid JSON array: " + *err});
            return errs;
        }
        if (layers.empty() || layers.size() > 3) {
            errs.push_back({constraints.at, cp, "Invalid value: " + q(constraints.value) + ": topology constraints must contain between 1 and 3 entries"});
            return errs;
        }
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const std::string ep = cp + "[" + std::to_string(i) + "]";
            if (auto why = check_qualified_name(layers[i].topology); !why.empty())
                errs.push_back({constraints.at, ep + ".topology", "Invalid value: " + q(layers[i].topology) + ": " + why});
            if (layers[i].size < 1)
                errs.push_back({constraints.at, ep + ".size", "Invalid value: " + std::to_string(layers[i].size) + ": must be greater than or equal to 1"});
        }
        std::map<std::string, std::size_t> seen;
        for (std::size_t i = 0; i < layers.size(); ++i) {
            auto [it, fresh] = seen.emplace(layers[i].topology, i);
            if (!fresh)
                errs.push_back({constraints.at, cp + "[" + std::to_string(i) + "].topology",
                                "Duplicate value: " + q(layers[i].topology + " (also at index " + std::to_string(it->second) + ")")});
        }
        for (std::size_t i = 0; i + 1 < layers.size(); ++i)
            if (layers[i + 1].size > 0 && layers[i].size % layers[i + 1].size != 0)
                errs.push_back({constraints.at, cp + "[" + std::to_string(i + 1) + "].size",
                                "Invalid value: " + std::to_string(layers[i + 1].size) + ": must evenly divide the parent layer size " +
                                    std::to_string(layers[i].size)});
    }
    return errs;
}

std::vector<TasError> validate_slice_size_bound(const Node* annotations, const std::string& meta_path, std::int64_t count) {
    std::vector<TasError> errs;
    if (const Ann size = get(annotations, kSliceSize)) {
        const std::string sp = key_path(meta_path, kSliceSize);
        const Int32 n = parse_int32(size.value);
        if (!n.error.empty()) return {{size.at, sp, "Invalid value: " + q(size.value) + ": must be a numeric value"}};
        if (n.value > count)
            errs.push_back({size.at, sp, "Invalid value: " + q(size.value) + ": must not be greater than pod set count " + std::to_string(count)});
    }
    if (const Ann c = get(annotations, kSliceConstraints)) {
        std::vector<Constraint> layers;
        if (!parse_constraints(c.value, layers) && !layers.empty() && layers[0].size > count)
            errs.push_back({c.at, key_path(meta_path, kSliceConstraints),
                            "Invalid value: " + std::to_string(layers[0].size) + ": must not be greater than pod set count " + std::to_string(count)});
    }
    return errs;
}

std::vector<TasError> validate_podset_groups(const std::vector<const PodSet*>& pod_sets) {
    // Groups in order of first appearance.
    std::vector<std::pair<std::string, std::vector<const PodSet*>>> groups;
    for (const PodSet* ps : pod_sets) {
        const Node* g = ps->topology_request ? ps->topology_request->find("podSetGroupName") : nullptr;
        if (!g) continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == g->text(); });
        if (it == groups.end()) groups.push_back({g->text(), {ps}});
        else it->second.push_back(ps);
    }
    auto group_at = [](const PodSet* ps) { return ps->topology_request->find("podSetGroupName"); };
    auto group_path = [](const PodSet* ps) { return key_path(ps->tas.path, kGroupName); };
    auto anns_at = [](const PodSet* ps) -> const Node* {
        const Node* m = ps->tas.meta ? ps->tas.meta : present(&ps->tmpl, "metadata");
        return present(m, "annotations");
    };
    std::vector<TasError> errs;
    for (const auto& [name, members] : groups) {
        if (members.size() != 2) {
            for (const PodSet* ps : members)
                errs.push_back({group_at(ps), group_path(ps),
                                "Invalid value: " + q(name) + ": can only define groups of exactly 2 pod sets, got: " +
                                    std::to_string(members.size()) + " pod set(s)"});
            continue;
        }
        const PodSet* a = members[0];
        const PodSet* b = members[1];
        if (a->count != 1 && b->count != 1) {
            const std::string msg = "can only define groups where at least one pod set has only 1 replica, got: " +
                                    std::to_string(a->count) + " replica(s) and " + std::to_string(b->count) + " replica(s) in the group";
            errs.push_back({group_at(a), group_path(a), "Invalid value: " + q(name) + ": " + msg});
            errs.push_back({group_at(b), group_path(b), "Invalid value: " + q(name) + ": " + msg});
        }
        // Both name the same required, or the same preferred, level (a group
        // name is only kept with one of them).
        auto level = [](const PodSet* ps, const char* key) -> std::optional<std::string> {
            const Node* v = ps->topology_request->find(key);
            return v ? std::optional<std::string>(v->text()) : std::nullopt;
        };
        if (level(a, "required") != level(b, "required") || level(a, "preferred") != level(b, "preferred")) {
            const std::string tmpl = "Invalid value: must specify '" + std::string(kRequired) + "' or '" + std::string(kPreferred) +
                                     "' topology consistent with '";
            const std::string tail = "' in group '" + name + "'";
            errs.push_back({anns_at(a), annotation_path(a->tas.path), tmpl + annotation_path(b->tas.path) + tail});
            errs.push_back({anns_at(b), annotation_path(b->tas.path), tmpl + annotation_path(a->tas.path) + tail});
        }
    }
    return errs;
}

bool apply_topology_requests(const Reporter& rep, Built& b) {
    using Mode = TasChecks::Mode;
    auto annotations_of = [](const PodSet& ps) -> const Node* {
        const Node* m = ps.tas.meta ? ps.tas.meta : present(&ps.tmpl, "metadata");
        return present(m, "annotations");
    };
    auto report = [&](const TasError& e, const std::string& suffix) {
        const Node* at = e.at ? e.at : &rep.doc();
        rep.invalid(at, e.path, e.message + suffix);
    };

    // Build() for every podSet (PodSets); the first failure is the error.
    std::optional<TasError> build_error;
    const std::string build_prefix = "Kueue cannot build the Workload: ";
    for (auto& ps : b.pod_sets) {
        TasBuild r = build_topology_request(annotations_of(ps), ps.tas, ps.mark);
        if (r.error) {
            if (!build_error) build_error = TasError{r.error->at, "", build_prefix + r.error->message};
            continue;
        }
        ps.topology_request = std::move(r.request);
    }
    const TasChecks& c = b.tas;
    if (c.mode == Mode::None || (c.mode == Mode::AfterPodSets && build_error)) {
        if (build_error) report(*build_error, "");
        return !build_error;
    }

    std::vector<TasError> errs;
    for (const auto& ps : b.pod_sets)
        if (!ps.tas.path.empty()) {
            auto e = validate_topology_annotations(annotations_of(ps), ps.tas.path);
            errs.insert(errs.end(), e.begin(), e.end());
        }
    // The batch Job webhook: only unconstrained topology with elastic jobs.
    if (errs.empty() && c.job_webhook && elastic(rep.doc()) && !b.pod_sets.empty()) {
        const PodSet& ps = b.pod_sets.front();
        for (auto [key, mode] : {std::pair{kRequired, "required"}, std::pair{kPreferred, "preferred"}})
            if (const Ann a = get(annotations_of(ps), key)) {
                // Kueue builds this path with Child, not Key.
                errs.push_back({a.at, annotation_path(ps.tas.path) + "." + std::string(key),
                                std::string("Forbidden: ") + mode + " topology is not supported with elastic jobs"});
                break;
            }
    }
    if (!build_error && !(c.job_webhook && !errs.empty())) {
        std::vector<const PodSet*> validated;
        for (const auto& ps : b.pod_sets)
            if (!ps.tas.path.empty()) {
                if (c.slice_bound) {
                    auto e = validate_slice_size_bound(annotations_of(ps), ps.tas.path, ps.count);
                    errs.insert(errs.end(), e.begin(), e.end());
                }
                validated.push_back(&ps);
            }
        if (c.groups) {
            auto e = validate_podset_groups(validated);
            errs.insert(errs.end(), e.begin(), e.end());
        }
    }
    for (const auto& e : errs) report(e, c.detail_suffix);
    if (errs.empty() && build_error) report(*build_error, "");
    return errs.empty() && !build_error;
}

}  // namespace queueforge::workloads::detail
