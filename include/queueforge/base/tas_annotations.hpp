#pragma once
// Kueue's podset annotations for topology-aware scheduling (apis/kueue/v1beta2
// constants.go at ff69552e): read from job templates by the job framework
// (engines/workloads/topology_request.cpp), written for a site sample's
// `topology:` (engines/workloads/site_samples.cpp), and the mark of a pod
// placed by TAS (engines/scheduler: such pods are no node's non-TAS usage).
#include <string_view>

namespace queueforge::tas_annotations {

inline constexpr std::string_view kRequired = "kueue.x-k8s.io/podset-required-topology";
inline constexpr std::string_view kPreferred = "kueue.x-k8s.io/podset-preferred-topology";
inline constexpr std::string_view kUnconstrained = "kueue.x-k8s.io/podset-unconstrained-topology";
inline constexpr std::string_view kSliceRequired = "kueue.x-k8s.io/podset-slice-required-topology";
inline constexpr std::string_view kSliceSize = "kueue.x-k8s.io/podset-slice-size";
inline constexpr std::string_view kSliceConstraints = "kueue.x-k8s.io/podset-slice-required-topology-constraints";
inline constexpr std::string_view kGroupName = "kueue.x-k8s.io/podset-group-name";

// pkg/util/tas IsTAS: a pod carrying one of these was placed by TAS.
inline bool marks_tas_pod(std::string_view key) {
    return key == kRequired || key == kPreferred || key == kUnconstrained || key == kSliceRequired ||
           key == kSliceConstraints;
}

}  // namespace queueforge::tas_annotations
