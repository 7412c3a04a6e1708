#pragma once
// Object skeletons with queueforge's labels and Argo CD annotations
// (conventions.md 1.7 and 5.1).
#include "lower/context.hpp"
#include "lower/provenance.hpp"

#include <string>
#include <utility>
#include <vector>

namespace queueforge::lower {

// Sync waves, which are also the stream order (conventions.md 1.7, 5.5).
inline constexpr int kWaveNamespace = -20;
inline constexpr int kWaveKueueOperator = -15;  // the Kueue CR configures Kueue before any queue exists
inline constexpr int kWaveEmbeddedKueueDsc = -10;
inline constexpr int kWaveFlavor = 0;
inline constexpr int kWaveClusterQueue = 1;
inline constexpr int kWaveLocalQueue = 2;
inline constexpr int kWaveTenantRbac = 3;  // after the queues its members submit to
inline constexpr int kWaveHardwareProfile = 4;  // after the LocalQueues the dashboard looks for
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
    std::string rule;         // why the object exists, recorded with `origin`
    Origin name_from;         // where metadata.name comes from (unknown mark: `origin`)
    // Top-level fields after metadata (spec, or value and description), so
    // that the document is complete when its provenance is attached.
    std::vector<std::pair<std::string, Node>> fields;
    // Records for the rest of the object (paths from the document root),
    // recorded after the ones add_object makes, so they win for the same path.
    std::vector<PendingRecord> provenance;
};

// ObjectSpec::fields holding one field, moved in: a braced list
// ({{"spec", std::move(spec)}}) would deep-copy the tree out of its
// initializer_list, once per object.
inline std::vector<std::pair<std::string, Node>> one_field(std::string key, Node value) {
    std::vector<std::pair<std::string, Node>> fields;
    fields.emplace_back(std::move(key), std::move(value));
    return fields;
}

// Appends an object with apiVersion, kind, metadata and `fields`, with its
// provenance, and returns its document.
Node& add_object(Context& ctx, ObjectSpec spec);

// A map with its keys sorted byte-wise, for maps whose keys are data.
Node sorted_string_map(std::vector<std::pair<std::string, std::string>> kv);

}  // namespace queueforge::lower
