#pragma once
// Reading typed fields of one object with positioned findings: a malformed
// value is reported at its node (rule "sim.invalid" unless given) and read as
// absent. The model's builders and the simulator's (engines/scheduler
// parse_util.hpp extends it) share it; lenient chains of optional lookups
// use base/node_read.hpp instead.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace queueforge::model {

// Reports findings about one object: "<kind> <name>: <message>".
struct FieldReader {
    const Resource& r;
    Diagnostics& diags;

    void error(const Node* at, const std::string& msg, const std::string& rule = "sim.invalid") const;
    void warning(const Node* at, const std::string& msg, const std::string& rule = "sim.invalid") const;
    // The finding `error`/`warning` would add, without adding it.
    Diagnostic finding(Severity s, const Node* at, const std::string& msg, const std::string& rule = "sim.invalid") const;

    const Node* map_at(const Node* n, const char* key) const;  // a map child or nullptr (reports non-maps)
    const Node* seq_at(const Node* n, const char* key) const;  // a sequence child or nullptr
    std::string str_at(const Node* n, const char* key) const;  // scalar text, "" when absent
    std::optional<std::int64_t> int_at(const Node* n, const char* key) const;
    std::optional<bool> bool_at(const Node* n, const char* key) const;
    std::optional<Quantity> quantity(const Node* v, const std::string& what) const;
};

// Text of a non-null scalar, else "".
std::string scalar_text(const Node* n);

// Go's time.ParseDuration -> ns (negative allowed); nullopt when Go would
// refuse it. The one duration reader of the Configuration's fields.
std::optional<std::int64_t> parse_go_duration(const std::string& text);

}  // namespace queueforge::model
