// load_yaml through yaml-cpp (the fast reader off), the path every input the
// fast reader declines takes. Errors are diagnostics, never exceptions, and
// an error means no documents.
#include "fuzz_util.hpp"

#include <queueforge/base/yaml_load.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    LoadOptions opts;
    opts.fast_path = false;
    Diagnostics diags;
    auto docs = load_yaml("input.yaml", text, diags, opts);
    if (diags.has_errors() && !docs.empty()) fuzz::fail("load_yaml returned documents along with an error");
    fuzz::require_positioned(diags, "load_yaml");
    return 0;
}
