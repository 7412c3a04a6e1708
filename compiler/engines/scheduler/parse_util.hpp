#pragma once
// Small readers over Node trees for the simulator's model builder: typed
// field access, quantities, timestamps, selectors, taints and tolerations.
// Malformed values are reported (rule "sim.invalid") and read as absent.
#include "engines/scheduler/model.hpp"

#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

// Reports findings about one object.
struct Reader {
    const Resource& r;
    Diagnostics& diags;

    void error(const Node* at, const std::string& msg, const std::string& rule = "sim.invalid") const;
    void warning(const Node* at, const std::string& msg, const std::string& rule = "sim.invalid") const;

    const Node* map_at(const Node* n, const char* key) const;  // a map child or nullptr (reports non-maps)
    const Node* seq_at(const Node* n, const char* key) const;  // a sequence child or nullptr
    std::string str_at(const Node* n, const char* key) const;  // scalar text, "" when absent
    std::optional<std::int64_t> int_at(const Node* n, const char* key) const;
    std::optional<bool> bool_at(const Node* n, const char* key) const;
    std::optional<Quantity> quantity(const Node* v, const std::string& what) const;
    // name -> quantity of a ResourceList map; bad entries reported and skipped.
    std::map<std::string, Quantity> resource_list(const Node* n, const char* key, const std::string& what) const;
    std::map<std::string, std::string> string_map(const Node* n, const char* key) const;
    std::vector<SelectorReq> requirements(const Node* seq) const;
    std::vector<Taint> taints(const Node* seq) const;
    std::vector<Toleration> tolerations(const Node* seq) const;
};

std::string scalar_text(const Node* n);
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

// Go's time.ParseDuration -> ns (negative allowed); nullopt when Go would
// refuse it. The one duration reader of the Configuration's fields.
std::optional<std::int64_t> parse_go_duration(const std::string& text);

}  // namespace queueforge::scheduler::detail
