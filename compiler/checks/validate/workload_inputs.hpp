#pragma once
// queueforge's own checks on the Workloads it reads, beyond what the API
// server and Kueue's webhooks refuse: inputs that would make a simulation
// meaningless.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/manifests.hpp>

namespace queueforge::validate {

// workload.no-pod-sets: a kueue.x-k8s.io Workload without podSets.
void check_workload_input(const Resource& r, Diagnostics& diags);

}  // namespace queueforge::validate
