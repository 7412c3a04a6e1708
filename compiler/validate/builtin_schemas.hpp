#pragma once
// The schemas queueforge ships (schemas/kueue, schemas/opendatahub), compiled
// once per run from the copies embedded in the binary.
#include <queueforge/diagnostics.hpp>
#include <queueforge/openapi.hpp>

namespace queueforge::validate {

void load_builtin_schemas(openapi::SchemaSet& out, Diagnostics& diags);

}  // namespace queueforge::validate
