#pragma once
// Reading Admission Fair Sharing settings into the simulator's model
// (afs_build.cpp).
#include "engines/scheduler/model.hpp"
#include "engines/scheduler/parse_util.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

void read_cq_afs(const Reader& rd, const Node* spec, ClusterQueue& cq);
void read_lq_afs(const Reader& rd, const Node* doc, LocalQueue& lq);
// Warns about resourceWeights for resources no ClusterQueue covers (Kueue
// accepts them; they weigh nothing).
void check_afs_weights(const Model& m, Diagnostics& diags);

}  // namespace queueforge::scheduler::detail
