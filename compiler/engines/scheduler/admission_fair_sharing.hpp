#pragma once
// Kueue's usage-based Admission Fair Sharing (AFS), as at kubernetes-sigs/kueue
// ff69552e79ad21652c36caa97038382e55625cf7:
//  * pkg/util/admissionfairsharing/admission_fair_sharing.go: the alpha rate,
//    the entry penalty, the LocalQueue usage (weighted sum / LQ weight, +Inf
//    for a weight <= 0) and the decay of consumed usage;
//  * pkg/cache/queue/afs/{usage_ledger,entry_penalties}.go: the per-LocalQueue
//    ledger (decayed history, per-workload pending penalties, last update);
//  * pkg/util/resource MulByFloat: decimal product rounded down to 9 digits
//    (nano units here, exact);
//  * pkg/scheduler/scheduler.go shouldApplyEntryPenalty/updateEntryPenalty:
//    the penalty is pushed when the workload is assumed (quota reservation);
//  * pkg/controller/core/workload_controller.go updateAfsConsumedUsage: on the
//    transition into Admitted the history is decayed towards the live
//    admitted usage and the workload's penalty is folded in;
//  * pkg/controller/core/localqueue_controller.go reconcileConsumedUsage: every
//    usageSamplingInterval after the last update the history is decayed
//    towards the LocalQueue's live admitted usage.
// The simulator admits without admission checks, so quota reservation and
// Admitted coincide: the penalty is pushed and settled at the same instant.
// The ledger's clock only moves when the caller advances it (timeline mode);
// one-shot simulate keeps it still, as Kueue's unit tests keep their fake clock.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/model/kueue_config.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::scheduler::detail {

struct Model;
struct Workload;

// Resource name -> amount in nano units (Kueue's decimal quantities at scale 9).
using NanoList = std::map<std::string, int128>;

// Configuration.admissionFairSharing as read (model/kueue_config.hpp).
using AfsConfig = model::AdmissionFairSharing;

// Pure functions (admission_fair_sharing.go, resource.MulByFloat).
namespace afs {
double seconds(std::int64_t ns);  // Go's Duration.Seconds()
double alpha_rate(double sampling_s, double half_life_s);
// Decimal product rounded toward zero at 9 fractional digits; the factor is
// the shortest decimal that round-trips f (Go FormatFloat 'f', -1).
int128 mul_by_float(int128 nano, double f);
NanoList mul_by_float(const NanoList& l, double f);
NanoList merge_keep_sum(const NanoList& a, const NanoList& b);
double approximate_float(int128 nano);  // Quantity.AsApproximateFloat64
double usage(const NanoList& consumed, const NanoList& penalty, double lq_weight,
             const std::map<std::string, double>& weights);
NanoList entry_penalty(const NanoList& total_requests, const AfsConfig& cfg);
NanoList decayed_consumed(const NanoList& old_usage, const NanoList& new_usage, double elapsed_s, double half_life_s);
}  // namespace afs

// One LocalQueue's ledger entry (UsageLedgerEntry).
struct AfsEntry {
    NanoList resources;                  // decayed consumed history
    NanoList pending;                    // sum of penalty_records
    std::map<int, NanoList> records;     // workload id -> pushed penalty
    std::int64_t last_update = 0;
    NanoList live;                       // admitted usage of the LocalQueue (cache)
    mutable std::optional<double> usage_cache;
};

class AfsLedger {
public:
    // Entries for the LocalQueues of usage-based ClusterQueues, seeded from
    // their status.fairSharing.admissionFairSharingStatus.consumedResources.
    void init(const Model& m);
    bool enabled_for_cq(const Model& m, int cq) const;
    // The LocalQueue's usage for ordering (CalculateUsage), 0 without entry.
    double usage(const Model& m, int lq) const;
    // The workload reserved quota: penalty pushed (when shouldApplyEntryPenalty),
    // live usage raised, then settled (Admitted).
    void admitted(const Model& m, int wl);
    // The workload released its quota (finished or evicted): live usage lowered,
    // any unsettled penalty dropped.
    void released(const Model& m, int wl);
    // Moves the ledger's clock to `now_ns`, running the LocalQueue controller's
    // samples that fall due on the way (each at last_update + interval).
    void advance(const Model& m, std::int64_t now_ns);
    // The ledger primitives (entry_penalties.go). PushPenalty: replaces the
    // workload's record; an entry it creates starts its clock at `now_ns`.
    void push_penalty(int lq, int wl, const NanoList& penalty, std::int64_t now_ns);
    // SubPenalty: drops the workload's record and returns it; without a
    // record (or an entry) it changes nothing and creates nothing.
    std::optional<NanoList> sub_penalty(int lq, int wl);
    // updateAfsConsumedUsage: decay towards the live usage since the last
    // update, fold exactly the workload's recorded penalty, stamp the clock.
    void settle(const Model& m, int lq, int wl);
    const NanoList& pending(int lq) const;
    bool has_pending(int lq) const;
    // An empty ledger for `lqs` LocalQueues (tests).
    void reset(std::size_t lqs) { entries_.assign(lqs, std::nullopt); }
    // For tests and reports.
    const AfsEntry* entry(int lq) const;
    std::int64_t clock() const { return clock_; }

private:
    NanoList usage_of(const Model& m, const Workload& w) const;
    std::vector<std::optional<AfsEntry>> entries_;  // per LocalQueue
    std::int64_t clock_ = 0;
    bool started_ = false;
};

}  // namespace queueforge::scheduler::detail
