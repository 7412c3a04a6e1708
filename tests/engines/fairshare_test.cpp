// The KAI scheduler's own resource-division tests, translated: github.com/
// NVIDIA/KAI-Scheduler commit 72de64fc8eca10fa8cca26a20156178f3edbe092,
// pkg/scheduler/plugins/proportion/resource_division/resource_division_test.go
// (Describe "setResourceShare - GPU" / "- CPU"). Each SECTION names the Go
// Context and It it comes from; the numbers are KAI's.
#include <queueforge/engines/fairshare.hpp>

#include <catch2/catch.hpp>

using namespace queueforge::fairshare;

namespace {

Queue queue(std::string name, double deserved, double weight, double request, double fair = 0,
            double max_allowed = kUnlimited) {
    Queue q;
    q.name = std::move(name);
    q.share.deserved = deserved;
    q.share.over_quota_weight = weight;
    q.share.request = request;
    q.share.fair_share = fair;
    q.share.max_allowed = max_allowed;
    return q;
}

std::vector<Queue*> ptrs(std::vector<Queue>& qs) {
    std::vector<Queue*> out;
    for (auto& q : qs) out.push_back(&q);
    return out;
}

}  // namespace

TEST_CASE("fairshare: single queue within quota (KAI sanity)", "[fairshare]") {
    std::vector<Queue> qs{queue("queue-1", 3, 0, 2)};
    auto p = ptrs(qs);
    SECTION("gives requested GPUs - no remaining") {
        CHECK(set_resource_share(2, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 2);
    }
    SECTION("gives requested GPUs with remaining") {
        CHECK(set_resource_share(3, 0, p) == 1);
        CHECK(qs[0].share.fair_share == 2);
    }
    SECTION("doesn't give more GPUs than allowed") {
        qs[0].share.max_allowed = 2;
        CHECK(set_resource_share(3, 0, p) == 1);
        CHECK(qs[0].share.fair_share == 2);
    }
    SECTION("gives up to deserved when over subscribed") {
        CHECK(set_resource_share(1, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 2);
    }
    SECTION("gives up to full quota") {
        qs[0].share.request = 5;
        CHECK(set_resource_share(7, 0, p) == 4);
        CHECK(qs[0].share.fair_share == 3);
    }
    SECTION("gives with fraction, if stated in deserved") {
        qs[0].share.deserved = 1.5;
        CHECK(set_resource_share(2, 0, p) == 0.5);
        CHECK(qs[0].share.fair_share == 1.5);
    }
    SECTION("gives with fraction, if stated in request") {
        qs[0].share.request = 1.5;
        CHECK(set_resource_share(2, 0, p) == 0.5);
        CHECK(qs[0].share.fair_share == 1.5);
    }
    SECTION("doesn't give if deserved is zero") {
        qs[0].share.deserved = 0;
        CHECK(set_resource_share(2, 0, p) == 2);
        CHECK(qs[0].share.fair_share == 0);
    }
}

TEST_CASE("fairshare: single queue over quota (KAI sanity)", "[fairshare]") {
    std::vector<Queue> qs{queue("queue-1", 3, 1, 5, 3)};
    auto p = ptrs(qs);
    SECTION("gives requested GPUs no remaining") {
        CHECK(divide_over_quota(2, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 5);
    }
    SECTION("gives requested GPUs with remaining") {
        CHECK(divide_over_quota(3, 0, p) == 1);
        CHECK(qs[0].share.fair_share == 5);
    }
    SECTION("doesn't give more GPUs than allowed") {
        qs[0].share.max_allowed = 4;
        CHECK(divide_over_quota(2, 0, p) == 1);
        CHECK(qs[0].share.fair_share == 4);
    }
    SECTION("doesn't give when over quota weight is zero") {
        qs[0].share.over_quota_weight = 0;
        CHECK(divide_over_quota(2, 0, p) == 2);
        CHECK(qs[0].share.fair_share == 3);
    }
    SECTION("gives with fraction if requested") {
        qs[0].share.request = 4.5;
        CHECK(divide_over_quota(2, 0, p) == 0.5);
        CHECK(qs[0].share.fair_share == 4.5);
    }
    SECTION("gives remainder fraction") {
        CHECK(divide_over_quota(0.5, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 3.5);
    }
    SECTION("gives when deserved is zero") {
        qs[0].share.deserved = 0;
        qs[0].share.fair_share = 0;
        CHECK(divide_over_quota(6, 0, p) == 1);
        CHECK(qs[0].share.fair_share == 5);
    }
    SECTION("doesn't break when there are zero resources to divide") {
        CHECK(divide_over_quota(0, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 3);
    }
    SECTION("doesn't give when over quota weight is zero, 10 to divide") {
        qs[0].share.over_quota_weight = 0;
        CHECK(divide_over_quota(10, 0, p) == 10);
        CHECK(qs[0].share.fair_share == 3);
    }
}

TEST_CASE("fairshare: two queues over quota, one of weight zero (KAI sanity)", "[fairshare]") {
    std::vector<Queue> qs{queue("queue-1", 3, 0, 5, 3), queue("queue-2", 3, 1, 3, 3)};
    auto p = ptrs(qs);
    CHECK(divide_over_quota(10, 0, p) == 10);
    CHECK(qs[0].share.fair_share == 3);
}

// DescribeTable "two queues": both deserve 2, weight 2, request 6 unless the
// entry says otherwise; queue-1 was created first.
TEST_CASE("fairshare: two queues (KAI table)", "[fairshare]") {
    struct Entry {
        const char* name;
        double total;
        double request[2];
        double max_allowed[2];
        double weight[2];
        int priority[2];
        double remaining;
        double share[2];
    };
    const Entry entries[] = {
        {"allocates many available gpus", 15, {6, 6}, {kUnlimited, kUnlimited}, {2, 2}, {100, 100}, 3, {6, 6}},
        {"allocates exact requested amount gpus", 12, {6, 6}, {kUnlimited, kUnlimited}, {2, 2}, {100, 100}, 0, {6, 6}},
        {"allocates GPUs proportionally", 8, {6, 6}, {kUnlimited, kUnlimited}, {1, 3}, {100, 100}, 0, {3, 5}},
        {"doesn't allocate more than allowed", 12, {6, 6}, {5, kUnlimited}, {2, 2}, {100, 100}, 1, {5, 6}},
        {"distributes remainder between queues based on largest remaining", 11, {10, 10}, {kUnlimited, kUnlimited},
         {1, 4}, {100, 100}, 0, {3, 8}},
        {"distributes remainder between queues based on creation time", 11, {6, 6}, {kUnlimited, kUnlimited}, {2, 2},
         {100, 100}, 0, {6, 5}},
        {"priority doesn't affect deserved", 4, {6, 6}, {kUnlimited, kUnlimited}, {2, 2}, {1, 2}, 0, {2, 2}},
        {"priority does affect over-quota", 6, {6, 6}, {kUnlimited, kUnlimited}, {2, 2}, {1, 2}, 0, {2, 4}},
        {"priority does affect over-quota, even when overQuotaWeight is set", 6, {6, 6}, {kUnlimited, kUnlimited},
         {100, 1}, {1, 2}, 0, {2, 4}},
    };
    for (const auto& e : entries) {
        INFO(e.name);
        std::vector<Queue> qs;
        for (int i = 0; i < 2; ++i) {
            qs.push_back(queue("queue-" + std::to_string(i + 1), 2, e.weight[i], e.request[i], 0, e.max_allowed[i]));
            qs.back().priority = e.priority[i];
        }
        auto p = ptrs(qs);
        CHECK(set_resource_share(e.total, 0, p) == e.remaining);
        CHECK(qs[0].share.fair_share == e.share[0]);
        CHECK(qs[1].share.fair_share == e.share[1]);
    }
}

TEST_CASE("fairshare: divides the remainder even when using priorities (KAI)", "[fairshare]") {
    std::vector<Queue> qs{queue("queue-1", 2, 2, 5), queue("queue-2", 2, 2, 5), queue("queue-3", 1, 2, 0)};
    qs[0].priority = 2;
    qs[1].priority = 2;
    qs[2].priority = 1;
    auto p = ptrs(qs);
    CHECK(set_resource_share(5, 0, p) == 0);
    CHECK(qs[0].share.fair_share == 3);
    CHECK(qs[1].share.fair_share == 2);
    CHECK(qs[2].share.fair_share == 0);
}

// Describe "setResourceShare - CPU", Context "three queues": deserved 5000,
// weight 5000, request 5000 each, 10000 millicores in the cluster.
TEST_CASE("fairshare: three queues sharing CPU (KAI)", "[fairshare]") {
    std::vector<Queue> qs{queue("queue-1", 5000, 5000, 5000), queue("queue-2", 5000, 5000, 5000),
                          queue("queue-3", 5000, 5000, 5000)};
    auto p = ptrs(qs);
    SECTION("all queues get their deserved fairShare - over subscription") {
        CHECK(set_resource_share(10000, 0, p) == 0);
        for (const auto& q : qs) CHECK(q.share.fair_share == 5000);
    }
    SECTION("all queues get their deserved fairShare - over quota") {
        for (auto& q : qs) q.share.request = 6000;
        CHECK(set_resource_share(18000, 0, p) == 0);
        for (const auto& q : qs) CHECK(q.share.fair_share == 6000);
    }
    SECTION("reclaims unneeded resources from an allocated queue to fulfill the unallocated queue") {
        qs[0].share.request = 7000;
        qs[1].share.request = 2000;
        qs[2].share.request = 2000;
        CHECK(set_resource_share(10000, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 6000);
        CHECK(qs[1].share.fair_share == 2000);
        CHECK(qs[2].share.fair_share == 2000);
    }
    SECTION("reclaims from both allocated queues to fulfill the last unallocated queue") {
        qs[0].share.request = 7000;
        qs[1].share.request = 5000;
        qs[2].share.request = 2000;
        CHECK(set_resource_share(10000, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 5000);
        CHECK(qs[1].share.fair_share == 5000);
        CHECK(qs[2].share.fair_share == 2000);
    }
    SECTION("one queue requests more than it deserves and is allowed") {
        qs[0].share.request = 7000;
        qs[0].share.max_allowed = 7000;
        qs[1].share.request = 2000;
        qs[2].share.request = 2000;
        CHECK(set_resource_share(10000, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 6000);
        CHECK(qs[1].share.fair_share == 2000);
        CHECK(qs[2].share.fair_share == 2000);
    }
    SECTION("q2 has no deserved CPU but is allowed over quota") {
        qs[1].share.deserved = 0;
        CHECK(set_resource_share(10000, 0, p) == 0);
        CHECK(qs[0].share.fair_share == 5000);
        CHECK(qs[1].share.fair_share == 0);
        CHECK(qs[2].share.fair_share == 5000);
    }
}

// Not a KAI table: the tree of proportion.go (setFairShareForQueues). A
// department's fair share is what its projects divide: idle quota of one
// department goes to the other department first, then among its projects.
TEST_CASE("fairshare: departments first, then their projects", "[fairshare]") {
    std::vector<Queue> qs;
    qs.push_back(queue("dept-a", 8, 1, 0));
    qs.push_back(queue("dept-b", 8, 1, 0));
    qs.push_back(queue("a1", 6, 1, 16));
    qs.back().parent = 0;
    qs.push_back(queue("a2", 6, 1, 16));
    qs.back().parent = 0;
    qs.push_back(queue("b1", 2, 1, 2));
    qs.back().parent = 1;
    divide_tree(16, 1, qs);
    CHECK(qs[0].share.request == 32);  // summed from a1 and a2
    CHECK(qs[1].share.request == 2);
    CHECK(qs[0].share.fair_share == 14);  // 8 deserved + the 6 that b leaves idle
    CHECK(qs[1].share.fair_share == 2);
    // 14 to share: 6 deserved each, then 2 over quota split 1/1.
    CHECK(qs[2].share.fair_share == 7);
    CHECK(qs[3].share.fair_share == 7);
    CHECK(qs[4].share.fair_share == 2);

    SECTION("projects keep their deserved even beyond their department's (setDeservedResource does not cap)") {
        std::vector<Queue> t;
        t.push_back(queue("dept-a", 4, 1, 0));
        t.push_back(queue("dept-b", 12, 1, 0));
        t.push_back(queue("a1", 4, 1, 16));
        t.back().parent = 0;
        t.push_back(queue("a2", 4, 1, 16));
        t.back().parent = 0;
        t.push_back(queue("b1", 12, 1, 16));
        t.back().parent = 1;
        divide_tree(16, 1, t);
        CHECK(t[0].share.fair_share == 4);
        // a1 and a2 deserve 8 together and the department gets 4: each still
        // gets its deserved (over subscription, as for top-level queues).
        CHECK(t[2].share.fair_share == 4);
        CHECK(t[3].share.fair_share == 4);
        CHECK(t[4].share.fair_share == 12);
    }
}

TEST_CASE("fairshare: historical usage lowers the weight with kValue", "[fairshare]") {
    // w = max(0, nw + k (nw - usage)): equal weights, queue-1 used half the
    // cluster lately; with k = 1 it weighs 0.5 + (0.5 - 0.5) = 0.5 against
    // 1.5: 8 x 1/3 = 2.67 -> 2 and 8 x 2/3 = 5.33 -> 5, and the unit left goes
    // to the larger fraction kept back (0.67, queue-1).
    std::vector<Queue> qs{queue("queue-1", 0, 1, 100), queue("queue-2", 0, 1, 100)};
    qs[0].share.usage = 0.5;
    auto p = ptrs(qs);
    CHECK(set_resource_share(8, 1, p) == 0);
    CHECK(qs[0].share.fair_share == 3);
    CHECK(qs[1].share.fair_share == 5);
}

// pkg/scheduler/plugins/proportion/proportion_test.go, DescribeTable "Set fair
// share for 2 hierarchy queues - simplified": departments d1, d2 each with one
// queue (q1, q2); everything deserves 2, weighs 1 and requests 100 unless the
// entry overrides it; priorities are Go's zero value unless set; kValue 0.
TEST_CASE("fairshare: two departments with one queue each (KAI proportion table)", "[fairshare]") {
    struct Entry {
        const char* name;
        double total;
        double deserved[4];  // d1, q1, d2, q2
        double weight[4];
        int priority[4];
        double expected[4];
    };
    const Entry entries[] = {
        {"two top parent queues - sanity", 4, {2, 2, 2, 2}, {1, 1, 1, 1}, {0, 0, 0, 0}, {2, 2, 2, 2}},
        // q2 keeps deserved 2 although d2 gets 1: oversubscription, as KAI's comment says.
        {"two top parent queues - deserved department quota", 4, {3, 2, 1, 2}, {1, 1, 1, 1}, {0, 0, 0, 0}, {3, 3, 1, 2}},
        {"two top parent queues - over-quota", 12, {3, 2, 1, 2}, {1, 1, 1, 1}, {0, 0, 0, 0}, {7, 7, 5, 5}},
        {"two top parent queues - over-quota weight", 12, {3, 2, 1, 2}, {1, 1, 7, 1}, {0, 0, 0, 0}, {4, 4, 8, 8}},
        {"two top parent queues - over-quota weight - reversed", 12, {3, 2, 1, 2}, {7, 1, 1, 1}, {0, 0, 0, 0},
         {10, 10, 2, 2}},
        {"two top parent queues - priority", 12, {1, 1, 1, 1}, {7, 1, 1, 1}, {1, 0, 2, 0}, {1, 1, 11, 11}},
        {"two top parent queues - priority - reversed", 12, {1, 1, 1, 1}, {1, 1, 7, 1}, {2, 0, 1, 0}, {11, 11, 1, 1}},
    };
    for (const auto& e : entries) {
        INFO(e.name);
        std::vector<Queue> qs;
        const char* names[] = {"d1", "q1", "d2", "q2"};
        const int parents[] = {-1, 0, -1, 2};
        for (int i = 0; i < 4; ++i) {
            qs.push_back(queue(names[i], e.deserved[i], e.weight[i], 100));
            qs.back().parent = parents[i];
            qs.back().priority = e.priority[i];
        }
        divide_tree(e.total, 0, qs, /*sum_requests=*/false);
        for (int i = 0; i < 4; ++i) {
            INFO(names[i]);
            CHECK(qs[i].share.fair_share == e.expected[i]);
        }
    }
}
