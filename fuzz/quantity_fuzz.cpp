// Kubernetes quantities: parsing, and the canonical spelling read back to the
// same value (as Go's resource.Quantity round-trips below 10^21). Arithmetic
// must not trap.
#include "fuzz_util.hpp"

#include <queueforge/base/quantity.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    std::string error;
    auto q = Quantity::parse(text, &error);
    if (!q) {
        if (error.empty()) fuzz::fail("a refused quantity without a reason");
        return 0;
    }
    // Go prints the bare mantissa for values beyond the largest suffix (1000E
    // prints as "1", 2^70 too), and queueforge does the same on purpose
    // (compiler/base/quantity/quantity.cpp): the round trip holds below 10^21.
    const int128 limit = static_cast<int128>(1'000'000'000'000'000) * 1'000'000'000'000'000;  // 10^30 nanos
    if (q->nanos() >= limit || q->nanos() <= -limit) return 0;
    const std::string canonical = q->to_string();
    std::string again_error;
    auto again = Quantity::parse(canonical, &again_error);
    if (!again) fuzz::fail("the canonical spelling \"" + canonical + "\" of \"" + text + "\" does not parse: " + again_error);
    if (!(*again == *q)) fuzz::fail("\"" + text + "\" -> \"" + canonical + "\" changes the value");
    (void)q->value();
    (void)q->milli_value();
    (void)q->add(*q);
    (void)q->sub(*again);
    (void)q->mul(1000);
    (void)q->scale(125, 1000);
    (void)q->compare(Quantity::from_milli(1500));
    return 0;
}
