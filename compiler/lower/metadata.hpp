#pragma once
// Object skeletons with queueforge's labels and Argo CD annotations
// (conventions.md 1.7 and 5.1).
#include "lower/context.hpp"

#include <string>
#include <utility>
#include <vector>

namespace queueforge::lower {

// Sync waves, which are also the stream order (conventions.md 1.7, 5.5).
inline constexpr int kWaveNamespace = -20;
inline constexpr int kWaveEmbeddedKueueDsc = -10;
inline constexpr int kWaveFlavor = 0;
inline constexpr int kWaveClusterQueue = 1;
inline constexpr int kWaveLocalQueue = 2;
inline constexpr int kWavePlatformDsc = 10;

struct ObjectSpec {
    std::string api_version;
    std::string kind;
    std::string name;
    std::string namespace_;
    std::string component;  // app.kubernetes.io/component
    std::vector<std::pair<std::string, std::string>> labels;       // extra labels
    std::vector<std::pair<std::string, std::string>> annotations;  // extra annotations
    std::vector<std::string> sync_options;                          // besides SkipDryRunOnMissingResource
    bool custom_resource = true;
    int wave = 0;
    int kind_rank = 0;
    Mark origin;
};

// Appends an object with apiVersion, kind and metadata filled in and returns
// its document so the caller can add spec (or top-level fields).
Node& add_object(Context& ctx, ObjectSpec spec);

// A map with its keys sorted byte-wise, for maps whose keys are data.
Node sorted_string_map(std::vector<std::pair<std::string, std::string>> kv);

}  // namespace queueforge::lower
