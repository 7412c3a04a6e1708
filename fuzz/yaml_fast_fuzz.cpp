// The fast manifest reader (compiler/base/yaml/fast_parse.*) alone: it must never
// crash, whatever it is given; it may decline (nullopt). Read in parts side
// by side (as a large stream is), it must give what one reader gives: a
// stream one reader takes is taken in parts too, with the same documents.
#include "fuzz_util.hpp"
#include "base/yaml/fast_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    LoadOptions one;
    one.threads = 1;
    const auto whole = yaml_detail::fast_parse(text, one);
    LoadOptions split;
    split.threads = 3;
    split.parallel_min_bytes = 0;
    const auto parts = yaml_detail::fast_parse(text, split);
    if (!whole) return 0;
    if (!parts) fuzz::fail("one reader took the stream, the parts declined it");
    if (whole->size() != parts->size()) fuzz::fail("read in parts: another number of documents");
    for (std::size_t i = 0; i < whole->size(); ++i) {
        const Document &a = (*whole)[i], &b = (*parts)[i];
        if (a.index != b.index || a.start != b.start) fuzz::fail("read in parts: another document index or start");
        const std::string d = fuzz::tree_difference(a.root, b.root, "");
        if (!d.empty()) fuzz::fail("read in parts: " + d);
    }
    return 0;
}
