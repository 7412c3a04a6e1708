#pragma once
// One cluster's objects as policies see them: each object converted to a CEL
// value once, the `objects` list, the `target` map, and lookups from what a
// policy returns back to the object it names.
#include "checks/policy/model.hpp"

#include <queueforge/frontend/platform.hpp>

#include <optional>
#include <string_view>
#include <string>
#include <unordered_map>
#include <vector>

namespace queueforge::policy {

// A CEL string: what the objects' lookups, the `target` map and an admission
// request are built of.
inline cel::Value str(std::string s) { return cel::Value::string(std::move(s)); }

struct Cluster {
    const std::vector<Resource>& objects;
    std::optional<Target> target;
    cel::Value all;                  // `objects`: the objects as CEL, same order
    cel::KindIndex kinds;            // `objects` by kind, for comprehensions that filter on it
    cel::Value target_value;         // `target`, or null
    std::uint64_t cost_limit = 0;      // per expression
    std::uint64_t set_cost_limit = 0;  // per set-scope expression

    Cluster(const std::vector<Resource>& objs, std::optional<Target> t, std::uint64_t limit);
    // Drops what evaluations converted of the objects (lazily converted
    // values keep it): a policy that walks `objects` would otherwise leave
    // every object it read converted, in memory, until all policies ran.
    void forget_conversions();
    // Object i as CEL.
    const cel::Value& value(std::size_t i) const { return all.as_list()[i]; }
    Cluster(const Cluster&) = delete;
    Cluster& operator=(const Cluster&) = delete;

    // The input object a returned CEL value stands for (by apiVersion group,
    // kind, namespace and name); nullopt when it is none of them.
    std::optional<std::size_t> find(const cel::Value& v) const;
    // The Namespace object called `name`, or nullptr.
    const Resource* namespace_object(const std::string& name, std::size_t* index = nullptr) const;

private:
    bool is(std::size_t i, std::string_view group, std::string_view kind, std::string_view ns, std::string_view name) const;
    // Each object's identity as a hash of its group, kind, namespace and
    // name, with its index, sorted: 16 bytes an object (a map of the
    // identities as strings held about 170, per evaluator); a lookup
    // compares the objects a hash names.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> by_key_;
    std::unordered_map<std::string, std::size_t> namespaces_;
};

// `target` as CEL: name, platform, openshiftAI, kueue, kueueApiVersion, ... .
cel::Value target_value(const Target& t);

}  // namespace queueforge::policy
