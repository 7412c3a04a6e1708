#pragma once
// The schemas queueforge ships (schemas/), compiled once per run from the
// copies embedded in the binary. Shared parts (the pod template, quantities)
// live once in schemas/definitions/ and are pulled in with
// `$ref: "definitions/<file>#/<Name>"`, expanded before compilation.
#include <queueforge/diagnostics.hpp>
#include <queueforge/node.hpp>
#include <queueforge/openapi.hpp>

#include <string>
#include <vector>

namespace queueforge::validate {

struct BuiltinSchema {
    std::string file;  // "schemas/batch/v1/job.yaml"
    std::string api_version;
    std::string kind;
    Node schema;  // $refs expanded
};

// Every built-in schema, in a fixed order; problems with $refs are errors
// (rule "schema.invalid") against the schema file.
std::vector<BuiltinSchema> builtin_schemas(Diagnostics& diags);

// Expands the $refs in `schema` (from `file`) in place.
void expand_schema_refs(Node& schema, const std::string& file, Diagnostics& diags);

void load_builtin_schemas(openapi::SchemaSet& out, Diagnostics& diags);

}  // namespace queueforge::validate
