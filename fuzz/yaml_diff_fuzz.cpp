// Differential: whenever the fast reader takes an input, yaml-cpp's path must
// accept it too (no error, no warning) and build the same documents, marks
// included. compiler/yaml/fast_parse.hpp promises exactly this.
#include "fuzz_util.hpp"
#include "yaml/fast_parse.hpp"

#include <queueforge/yaml_load.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    auto fast = yaml_detail::fast_parse(text, LoadOptions{});
    if (!fast) return 0;
    LoadOptions slow_opts;
    slow_opts.fast_path = false;
    Diagnostics diags;
    auto slow = load_yaml("input.yaml", text, diags, slow_opts);
    if (diags.has_errors() || diags.count(Severity::Warning))
        fuzz::fail("yaml-cpp's path reports a problem on input the fast reader took: " + diags.all().front().message);
    if (fast->size() != slow.size())
        fuzz::fail("document count " + std::to_string(fast->size()) + " vs " + std::to_string(slow.size()));
    for (std::size_t i = 0; i < slow.size(); ++i) {
        if ((*fast)[i].index != slow[i].index) fuzz::fail("document index differs");
        if ((*fast)[i].start != slow[i].start) fuzz::fail("document start differs");
        auto d = fuzz::tree_difference((*fast)[i].root, slow[i].root, "doc" + std::to_string(i));
        if (!d.empty()) fuzz::fail(d);
    }
    return 0;
}
