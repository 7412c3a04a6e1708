// A timeline scenario file (Kueue scheduler-perf's generator config).
#include "fuzz_util.hpp"

#include <queueforge/engines/timeline.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics diags;
    auto s = timeline::parse_scenario("scenario.yaml", text, diags);
    fuzz::require_error_on_failure(!s, diags, "parse_scenario");
    fuzz::require_positioned(diags, "parse_scenario");
    return 0;
}
