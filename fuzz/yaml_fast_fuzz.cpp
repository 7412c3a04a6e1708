// The fast manifest reader (compiler/base/yaml/fast_parse.*) alone: it must never
// crash, whatever it is given; it may decline (nullopt).
#include "fuzz_util.hpp"
#include "base/yaml/fast_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = queueforge::fuzz::text_of(data, size);
    (void)queueforge::yaml_detail::fast_parse(text, queueforge::LoadOptions{});
    return 0;
}
