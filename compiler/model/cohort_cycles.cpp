// One linear pass over parent links: each node is walked once; a walk that
// comes back to a node of its own walk has closed a cycle, a walk that meets
// a node finished earlier inherits that node's verdict.
#include <queueforge/model/cohort_cycles.hpp>

#include <algorithm>
#include <cstdint>

namespace queueforge::model {

std::vector<int> CohortCycles::members_from(int c, int from) const {
    std::vector<int> out = cycles[c];
    auto it = std::find(out.begin(), out.end(), from);
    if (it != out.end()) std::rotate(out.begin(), it, out.end());
    return out;
}

CohortCycles find_cohort_cycles(const std::vector<int>& parent) {
    const int n = static_cast<int>(parent.size());
    enum : std::uint8_t { Unseen, OnWalk, Done };
    std::vector<std::uint8_t> state(n, Unseen);
    CohortCycles out;
    out.on_cycle.assign(n, -1);
    out.reaches.assign(n, -1);
    std::vector<int> walk;
    for (int start = 0; start < n; ++start) {
        if (state[start] != Unseen) continue;
        walk.clear();
        int cur = start;
        int verdict = -1;
        while (cur >= 0 && cur < n) {
            if (state[cur] == Done) {
                verdict = out.reaches[cur];
                break;
            }
            if (state[cur] == OnWalk) {
                // Back on this walk: everything from `cur` on is the cycle.
                auto from = std::find(walk.begin(), walk.end(), cur);
                std::vector<int> members(from, walk.end());
                std::rotate(members.begin(), std::min_element(members.begin(), members.end()), members.end());
                verdict = static_cast<int>(out.cycles.size());
                for (int m : members) out.on_cycle[m] = verdict;
                out.cycles.push_back(std::move(members));
                break;
            }
            state[cur] = OnWalk;
            walk.push_back(cur);
            cur = parent[cur];
        }
        for (int w : walk) {
            state[w] = Done;
            out.reaches[w] = verdict;
        }
    }
    return out;
}

}  // namespace queueforge::model
