// A timeline thresholds file (Kueue scheduler-perf's rangespec.yaml).
#include "fuzz_util.hpp"

#include <queueforge/engines/timeline.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics diags;
    auto t = timeline::parse_thresholds("rangespec.yaml", text, diags);
    fuzz::require_error_on_failure(!t, diags, "parse_thresholds");
    fuzz::require_positioned(diags, "parse_thresholds");
    return 0;
}
