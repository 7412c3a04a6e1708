// Differential: load_yaml with the fast reader (the default) against
// load_yaml through yaml-cpp alone. Whenever the fast reader takes an input
// (after the encoding and layout checks both paths share), yaml-cpp's path
// must accept it too -- no error, no warning -- and build the same documents,
// marks included, as compiler/base/yaml/fast_parse.hpp promises.
#include "fuzz_util.hpp"

#include <queueforge/base/yaml_load.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics fast_diags, slow_diags;
    auto fast = load_yaml("input.yaml", text, fast_diags);
    LoadOptions slow_opts;
    slow_opts.fast_path = false;
    auto slow = load_yaml("input.yaml", text, slow_diags, slow_opts);
    if (fast_diags.all().size() != slow_diags.all().size()) {
        const auto& more = fast_diags.all().size() > slow_diags.all().size() ? fast_diags : slow_diags;
        fuzz::fail("the two paths report differently: " + std::to_string(fast_diags.all().size()) + " vs " +
                   std::to_string(slow_diags.all().size()) + " findings; first: " + more.all().front().message);
    }
    for (std::size_t i = 0; i < fast_diags.all().size(); ++i) {
        const auto &a = fast_diags.all()[i], &b = slow_diags.all()[i];
        if (a.message != b.message || a.mark != b.mark || a.rule != b.rule)
            fuzz::fail("finding " + std::to_string(i) + " differs: " + a.message + " vs " + b.message);
    }
    if (fast.size() != slow.size())
        fuzz::fail("document count " + std::to_string(fast.size()) + " vs " + std::to_string(slow.size()));
    for (std::size_t i = 0; i < slow.size(); ++i) {
        if (fast[i].index != slow[i].index) fuzz::fail("document index differs");
        if (fast[i].start != slow[i].start) fuzz::fail("document start differs");
        auto d = fuzz::tree_difference(fast[i].root, slow[i].root, "doc" + std::to_string(i));
        if (!d.empty()) fuzz::fail(d);
    }
    return 0;
}
