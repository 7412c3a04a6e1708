#pragma once
// Turning a policy's verdict into a Diagnostic about an object: the object's
// file, the position of the field the policy names (or of the object), the
// policy id as the rule.
#include "checks/policy/cluster.hpp"

#include <string>

namespace queueforge::policy {

struct Finding {
    Severity severity = Severity::Error;
    std::string rule;
    std::string message;
    std::size_t object = 0;  // index into the cluster's objects
    std::string field_path;
};

void report(const Cluster& c, const Finding& f, Diagnostics& out);

// CEL values in messages: strings as they are, anything else in CEL syntax.
std::string describe(const cel::Value& v);

// A one-line excerpt of an expression for messages.
std::string excerpt(const std::string& expression);

}  // namespace queueforge::policy
