// `validate` as a library call: any manifest stream (sites included) through
// the schemas, Kueue's rules and the cross-object checks.
#include "fuzz_util.hpp"

#include <queueforge/checks/validate.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    LoadedResources input;
    Diagnostics diags;
    load_resources_from_text("manifest.yaml", text, input, diags);
    // The built-in schemas are compiled once per process (on first use of
    // each kind), not per input: the work per input follows the input.
    static ObjectValidator validator = [] {
        Diagnostics none;  // no CRDs to load
        return ObjectValidator({}, none);
    }();
    ValidationOptions opts;
    (void)validate_all(input, opts, validator, diags);
    fuzz::require_positioned(diags, "validate_all");
    return 0;
}
