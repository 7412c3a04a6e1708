#pragma once
// A fast reader for the plain YAML that Kubernetes manifests are made of:
// block maps and lists, one-line plain and quoted scalars, and flow
// collections (which covers JSON). yaml-cpp's scanner is the cost of reading
// large dumps; this reader takes the common case at a multiple of its speed.
//
// It is deliberately partial: on anything outside that subset (anchors,
// tags, block scalars, multi-line plain scalars, non-string keys, duplicate
// keys, limits reached, anything unusual) it returns nullopt and the caller
// falls back to yaml-cpp, which then also reports any error. So it never
// reports a problem itself, and when it returns documents they are the trees
// yaml-cpp's path would build, marks included (a differential test checks
// this on every YAML file the project and ../shared hold).
#include <queueforge/base/yaml_load.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace queueforge::yaml_detail {

std::optional<std::vector<Document>> fast_parse(std::string_view text, const LoadOptions& opts);

// How many threads read a stream of `bytes` (LoadOptions::threads and
// parallel_min_bytes): 1 below the threshold.
unsigned parallel_parts(std::size_t bytes, const LoadOptions& opts);

}  // namespace queueforge::yaml_detail
