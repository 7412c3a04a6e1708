// A site file through the whole pipeline (compile_site: parse, model, lower).
#include "fuzz_util.hpp"

#include <queueforge/compile.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics diags;
    auto lowered = compile_site("queueforge-site.yaml", text, diags);
    fuzz::require_error_on_failure(!lowered, diags, "compile_site");
    fuzz::require_positioned(diags, "compile_site");
    return 0;
}
