#pragma once
// One emitted Kubernetes object with what the emitter needs to place it.
#include <queueforge/mark.hpp>
#include <queueforge/node.hpp>

#include <string>

namespace queueforge {

struct Object {
    std::string api_version;
    std::string kind;
    std::string name;
    std::string namespace_;  // empty for cluster-scoped kinds
    Node doc;                // the whole manifest, keys in emission order
    Mark origin;             // the site element it was lowered from
    int wave = 0;            // Argo CD sync wave, also the stream order
    int kind_rank = 0;       // order of kinds within a wave (conventions.md 5.5)
};

}  // namespace queueforge
