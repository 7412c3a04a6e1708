#pragma once
// Small readers over Node trees for the simulator's model builder: typed
// field access, quantities, timestamps, selectors, taints and tolerations.
// Malformed values are reported (rule "sim.invalid") and read as absent.
#include "engines/scheduler/model.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/model/field_reader.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

// Reports findings about one object (model::FieldReader), plus the readers
// only the simulator needs.
struct Reader : model::FieldReader {
    // name -> quantity of a ResourceList map; bad entries reported and skipped.
    std::map<std::string, Quantity> resource_list(const Node* n, const char* key, const std::string& what) const;
    std::map<std::string, std::string> string_map(const Node* n, const char* key) const;
    std::vector<SelectorReq> requirements(const Node* seq) const;
    std::vector<Taint> taints(const Node* seq) const;
    std::vector<Toleration> tolerations(const Node* seq) const;
};

using model::scalar_text;
using model::parse_go_duration;
// RFC 3339 (fractional seconds and offsets allowed) -> ns since epoch.
std::optional<std::int64_t> parse_time(const std::string& s);
// Kueue's integer for a request quantity: milli-value for cpu, value
// otherwise, both rounded up and clamped (kueue-semantics 3.3).
std::int64_t resource_value(const std::string& resource, const Quantity& q);
double quantity_to_double(const Quantity& q);

// Unknown queue names (rule sim.unknown-queue): "; did you mean \"x\"?"
// when one of `candidates` is close to `name`, else "".
std::string suggestion(const std::string& name, std::vector<std::string> candidates);
std::vector<std::string> cluster_queue_names(const Model& m);
std::vector<std::string> local_queue_names(const Model& m, const std::string& ns);  // LocalQueues of one namespace

}  // namespace queueforge::scheduler::detail
