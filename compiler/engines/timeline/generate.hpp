#pragma once
// Scenario -> the Kueue objects Kueue's performance generator creates, plus
// when each Workload arrives and how long it runs.
#include <queueforge/engines/timeline.hpp>

#include <map>

namespace queueforge::timeline::detail {

struct Arrival {
    std::string namespace_, name, class_name;
    std::int64_t at_ms = 0;
    std::int64_t runtime_ms = 0;
    Mark mark;  // the workload template in the scenario
};

// What a Workload is made from (make_workload), kept apart from its
// manifest so that large scenarios need not hold every manifest at once.
struct WorkloadSpec {
    std::string queue;  // LocalQueue name, in the arrival's namespace
    const WorkloadTemplate* tmpl = nullptr;
    std::int64_t seq = 0;  // creation order: the uid
};

struct Generated {
    std::vector<Resource> objects;        // flavor, ClusterQueues, Namespaces, LocalQueues
    std::vector<Arrival> arrivals;        // by arrival time, then generation order
    std::vector<WorkloadSpec> specs;      // one per arrival
    std::map<std::string, std::string> queue_class;  // generated ClusterQueue -> its queuesSet className
};

// Workload creation times are kEpoch + at_ms.
inline constexpr std::int64_t kEpochSeconds = 1767225600;  // 2026-01-01T00:00:00Z

// `s` must outlive the result (specs point at its templates).
Generated generate(const Scenario& s, const std::vector<Resource>& cluster, Diagnostics& diags);

Resource make_workload(const std::string& file, const Arrival& a, const WorkloadSpec& spec);

// RFC 3339 UTC with milliseconds for kEpoch + ms.
std::string timestamp_ms(std::int64_t ms);

}  // namespace queueforge::timeline::detail
