#pragma once
// The schemas queueforge ships (schemas/), embedded in the binary. Shared
// parts (the pod template, quantities, job specs) live once in
// schemas/definitions/ and are pulled in with
// `$ref: "definitions/<file>#/<Name>"`, expanded before compilation.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/checks/openapi.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace queueforge::validate {

struct BuiltinSchema {
    std::string file;  // "schemas/batch/v1/job.yaml"
    std::string api_version;
    std::string kind;
    Node schema;  // $refs expanded
};

// The built-in schemas of one run. Each is read and compiled when an object
// of its kind is first validated, and only once: a run that validates a
// PyTorchJob does not pay for the forty other kinds.
class BuiltinSchemas {
public:
    // The schema of the kind, or nullptr when there is none. Problems with
    // the embedded files (none expected; tests compile them all) are errors
    // against the schema file, rule "schema.invalid".
    const openapi::Schema* find(const std::string& api_version, const std::string& kind, Diagnostics& diags);
    static bool has(std::string_view api_version, std::string_view kind);
    // Every built-in schema with its $refs expanded, in a fixed order (tests).
    std::vector<BuiltinSchema> all(Diagnostics& diags);

private:
    std::optional<Node> load(const std::string& file, Diagnostics& diags);
    std::map<std::string, Node> definitions_;  // schemas/definitions/ files, parsed once
    std::map<std::pair<std::string, std::string>, std::shared_ptr<const openapi::Schema>> compiled_;
};

// Expands the $refs in `schema` (from `file`) in place.
void expand_schema_refs(Node& schema, const std::string& file, Diagnostics& diags);

}  // namespace queueforge::validate
