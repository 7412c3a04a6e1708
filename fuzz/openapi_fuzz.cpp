// A manifest against the built-in schemas (schemas/): every object of the
// input is validated against the schema of its apiVersion/kind, checked with
// plain OpenAPI semantics, and defaulted as the API server would.
#include "fuzz_util.hpp"
#include "checks/validate/builtin_schemas.hpp"

#include <queueforge/checks/openapi.hpp>
#include <queueforge/frontend/manifests.hpp>

namespace {

// The built-in schemas compile lazily, each on first use; one set serves
// every input of the run (a harness cache, not library state).
queueforge::validate::BuiltinSchemas& schemas() {
    static queueforge::validate::BuiltinSchemas set;
    return set;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    LoadedResources input;
    Diagnostics diags;
    load_resources_from_text("manifest.yaml", text, input, diags);
    for (auto& r : input.resources) {
        Diagnostics load;
        const openapi::Schema* schema = schemas().find(r.ref.api_version, r.ref.kind, load);
        if (load.has_errors()) fuzz::fail("a built-in schema does not load");
        if (!schema) continue;
        openapi::validate(*schema, r.doc, r.file, r.ref, diags);
        (void)openapi::conforms(*schema, r.doc);
        Node defaulted = r.doc;
        openapi::apply_defaults(*schema, defaulted);
        openapi::validate(*schema, defaulted, r.file, r.ref, diags);
    }
    fuzz::require_positioned(diags, "openapi::validate");
    return 0;
}
