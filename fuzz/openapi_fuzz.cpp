// A manifest against the built-in schemas (schemas/): every object of the
// input is validated against the schema of its apiVersion/kind, checked with
// plain OpenAPI semantics, and defaulted as the API server would.
#include "fuzz_util.hpp"
#include "validate/builtin_schemas.hpp"

#include <queueforge/openapi.hpp>
#include <queueforge/resource.hpp>

namespace {

const queueforge::openapi::SchemaSet& schemas() {
    static const queueforge::openapi::SchemaSet set = [] {
        queueforge::openapi::SchemaSet s;
        queueforge::Diagnostics diags;
        queueforge::validate::load_builtin_schemas(s, diags);
        if (diags.has_errors() || s.size() == 0) queueforge::fuzz::fail("the built-in schemas do not load");
        return s;
    }();
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
        const openapi::Schema* schema = schemas().find(r.ref.api_version, r.ref.kind);
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
