// KAI scheduler's resource division (see fairshare.hpp for the source and
// commit). The Go code walks maps, whose order is random; the results do not
// depend on it except where KAI itself breaks ties (creation time, then UID),
// which the vector order stands for here.
#include <queueforge/engines/fairshare.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace queueforge::fairshare {

namespace {

// Rounds of divideUpToFairShare are bounded in Go only by arithmetic; each
// round here gives at least one unit or ends, so this cap is never reached
// on real input and only guards against a bug turning into a hang.
constexpr int kMaxRounds = 100000;

bool satisfied(const Queue& q) {
    const Share& s = q.share;
    if (s.request <= s.fair_share) return true;
    return s.max_allowed != kUnlimited && s.max_allowed <= s.fair_share;
}

double remaining_requested(const Queue& q) {
    const double requested = q.share.requestable();
    return requested < q.share.fair_share ? 0 : requested - q.share.fair_share;
}

double set_deserved(double total, std::vector<Queue*>& queues) {
    double remaining = total;
    for (Queue* q : queues) {
        double deserved = q->share.deserved;
        if (deserved == kUnlimited) deserved = total;
        const double amount = std::min(deserved, q->share.requestable());
        q->share.fair_share += amount;
        remaining -= amount;
    }
    return remaining;
}

// Index into the sibling vector -> the fraction rounding kept back.
using Remainders = std::map<std::size_t, double>;

double divide_up_to_fair_share(double total, double k, const std::vector<Queue*>& all,
                               const std::vector<std::size_t>& queues, Remainders& rr) {
    for (int round = 0; round < kMaxRounds; ++round) {
        bool another = false;
        const double to_give = total;
        // calcShareWeights
        double total_weights = 0;
        for (std::size_t i : queues)
            if (remaining_requested(*all[i]) > 0) total_weights += all[i]->share.over_quota_weight;
        if (total_weights == 0) break;
        std::map<std::size_t, double> weight;
        double weight_sum = 0;
        for (std::size_t i : queues) {
            if (satisfied(*all[i])) continue;
            const Share& s = all[i]->share;
            const double nw = s.over_quota_weight / total_weights;
            const double w = std::max(0.0, nw + k * (nw - s.usage));
            weight[i] = w;
            weight_sum += w;
        }
        if (weight_sum == 0) break;
        for (std::size_t i : queues) {
            Queue& q = *all[i];
            if (total == 0) break;
            if (satisfied(q)) continue;
            const double requested = remaining_requested(q);
            if (q.share.over_quota_weight == 0) continue;
            auto it = weight.find(i);
            const double fair = to_give * ((it == weight.end() ? 0.0 : it->second) / weight_sum);
            // getResourceToGiveInCurrentRound: whole units while not satisfied.
            double give = 0;
            if (requested <= fair) {
                give = requested;
                rr.erase(i);
            } else {
                const double whole = std::floor(fair);
                if (whole > 0) give = whole;
                if (fair - give > 0) rr[i] = fair - give;
            }
            if (give == 0) continue;
            q.share.fair_share += give;
            total -= give;
            another = another || requested < fair;
        }
        if (!another || total == 0) break;
    }
    return total;
}

// divideRemainingResource: one unit (or the fraction left) at a time to the
// largest kept-back fraction, ties to the queue created first.
double divide_remaining(double total, const std::vector<Queue*>& all, const Remainders& rr) {
    std::vector<std::pair<std::size_t, double>> order(rr.begin(), rr.end());
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first < b.first;
    });
    for (const auto& [i, frac] : order) {
        if (total == 0) break;
        const double give = std::min(1.0, total);
        all[i]->share.fair_share += give;
        total -= give;
    }
    return total;
}

}  // namespace

double Share::requestable() const {
    if (max_allowed == kUnlimited) return request;
    return std::min(max_allowed, request);
}

double divide_over_quota(double total, double k_value, std::vector<Queue*>& queues) {
    std::vector<int> priorities;
    for (const Queue* q : queues) priorities.push_back(q->priority);
    std::sort(priorities.begin(), priorities.end(), std::greater<>());
    priorities.erase(std::unique(priorities.begin(), priorities.end()), priorities.end());

    std::map<int, Remainders> kept;
    double remaining = total;
    for (int p : priorities) {
        std::vector<std::size_t> members;
        for (std::size_t i = 0; i < queues.size(); ++i)
            if (queues[i]->priority == p) members.push_back(i);
        Remainders rr;
        remaining = divide_up_to_fair_share(remaining, k_value, queues, members, rr);
        kept[p] = std::move(rr);
    }
    for (int p : priorities) {
        if (remaining <= 0) break;
        const Remainders& rr = kept[p];
        if (rr.empty()) continue;
        remaining = divide_remaining(remaining, queues, rr);
    }
    return remaining;
}

double set_resource_share(double total, double k_value, std::vector<Queue*>& queues) {
    double remaining = set_deserved(total, queues);
    if (remaining > 0)
        remaining = divide_over_quota(remaining, k_value, queues);
    else
        remaining = 0;
    return remaining;
}

namespace {

double sum_requests_below(std::vector<Queue>& queues, std::size_t i, int depth) {
    bool has_children = false;
    double sum = 0;
    if (depth > 64) return queues[i].share.request;  // a cycle: stop rather than recurse forever
    for (std::size_t c = 0; c < queues.size(); ++c)
        if (queues[c].parent == static_cast<int>(i)) {
            has_children = true;
            sum += sum_requests_below(queues, c, depth + 1);
        }
    if (has_children) queues[i].share.request = sum;
    return queues[i].share.request;
}

void divide_level(double total, double k, std::vector<Queue>& queues, int parent, int depth) {
    if (depth > 64) return;
    std::vector<Queue*> level;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < queues.size(); ++i)
        if (queues[i].parent == parent) {
            level.push_back(&queues[i]);
            index.push_back(i);
        }
    if (level.empty()) return;
    set_resource_share(total, k, level);
    for (std::size_t i : index) divide_level(queues[i].share.fair_share, k, queues, static_cast<int>(i), depth + 1);
}

}  // namespace

void divide_tree(double total, double k_value, std::vector<Queue>& queues, bool sum_requests) {
    if (sum_requests)
        for (std::size_t i = 0; i < queues.size(); ++i)
            if (queues[i].parent < 0) sum_requests_below(queues, i, 0);
    divide_level(total, k_value, queues, -1, 0);
}

}  // namespace queueforge::fairshare
