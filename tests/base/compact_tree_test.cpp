// The compact storage of trees: CompactString (a scalar's text, a key),
// CompactVector (a node's items and entries) and Node's own payload switching.
#include <queueforge/base/compact_string.hpp>
#include <queueforge/base/compact_vector.hpp>
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/yaml_emit.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>
#include <unordered_set>

using namespace queueforge;

TEST_CASE("CompactString keeps every length from empty to long, inline up to 15 bytes", "[compact]") {
    for (std::size_t n = 0; n <= 70; ++n) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i) s += static_cast<char>('a' + (i * 7) % 26);
        const CompactString c(s);
        CHECK(c.size() == n);
        CHECK(c.view() == s);
        CHECK(c == s);
        CHECK(c.empty() == s.empty());
        const CompactString copy = c;
        CHECK(copy == c);
        // A copy of long text shares it; short text is inline in each.
        CHECK((copy.data() == c.data()) == (n > CompactString::inline_capacity));
        CompactString moved = std::move(const_cast<CompactString&>(copy));
        CHECK(moved.view() == s);
        CompactString assigned("x");
        assigned = moved;
        CHECK(assigned == s);
        assigned = assigned;  // self-assignment keeps the text
        CHECK(assigned == s);
        // Inline up to 15 bytes: the text lives inside the object.
        const auto* self = reinterpret_cast<const char*>(&c);
        const bool inside = c.data() >= self && c.data() < self + sizeof c;
        CHECK(inside == (n <= CompactString::inline_capacity));
    }
}

TEST_CASE("CompactString copies share long text, which lives until its last copy goes", "[compact]") {
    const std::string text = "kueue.x-k8s.io/v1beta2 and more than fifteen bytes";
    std::vector<CompactString> copies;
    {
        const CompactString first(text);
        for (int i = 0; i < 100; ++i) copies.push_back(first);
        CHECK(copies.back().data() == first.data());
    }  // the first is gone; its copies hold the text
    for (const auto& c : copies) CHECK(c == text);
    // Assigning a new value to one copy leaves the others as they were.
    copies[0] = "other text, also longer than fifteen";
    CHECK(copies[1] == text);
    CHECK(copies[0] == "other text, also longer than fifteen");
    // Copied and dropped from two threads at once: every copy still reads
    // the text and the last one frees it (the sanitizer build checks that).
    const CompactString shared(text);
    std::atomic<int> wrong{0};
    auto churn = [&] {
        for (int i = 0; i < 20000; ++i) {
            CompactString c = shared;
            CompactString d = c;
            if (d != text) ++wrong;
        }
    };
    std::thread other(churn);
    churn();
    other.join();
    CHECK(wrong == 0);
    CHECK(shared == text);
}

TEST_CASE("CompactString holds any byte and compares as its bytes", "[compact]") {
    const std::string with_nul("a\0b", 3);
    CHECK(CompactString(with_nul).size() == 3);
    CHECK(CompactString(with_nul) == with_nul);
    const std::string long_nul = std::string(20, 'x') + std::string("\0\xff", 2);
    CHECK(CompactString(long_nul).view() == long_nul);
    CHECK(CompactString("abc") < CompactString("abd"));
    CHECK(CompactString("ab") < "abc");
    CHECK("abc" == CompactString("abc"));
    CHECK(std::string("abc") == CompactString("abc"));
    CHECK(std::string_view("abc") != CompactString("abcd"));
    CHECK(CompactString("a") + "b" == "ab");
    CHECK("a" + CompactString("b") + 'c' == "abc");
    CHECK(std::string(30, 'y') + CompactString("z") == std::string(30, 'y') + "z");
    const std::string as_string = CompactString("kueue.x-k8s.io/v1beta2");
    CHECK(as_string == "kueue.x-k8s.io/v1beta2");
    CHECK(CompactString("kueue.x-k8s.io/v1beta2").find('/') == 14);
    CHECK(CompactString("kueue.x-k8s.io/v1beta2").substr(15) == "v1beta2");
    std::unordered_set<CompactString> set{CompactString("a"), CompactString(std::string(40, 'b'))};
    CHECK(set.count(CompactString(std::string(40, 'b'))) == 1);
    std::map<CompactString, int> ordered{{"b", 2}, {"a", 1}};
    CHECK(ordered.begin()->first == "a");
}

TEST_CASE("CompactVector grows erases and inserts like std::vector", "[compact]") {
    CompactVector<std::string> v;
    std::vector<std::string> want;
    for (int i = 0; i < 100; ++i) {
        v.push_back(std::string(static_cast<std::size_t>(i % 40), 'a') + std::to_string(i));
        want.push_back(std::string(static_cast<std::size_t>(i % 40), 'a') + std::to_string(i));
    }
    CHECK(std::equal(v.begin(), v.end(), want.begin(), want.end()));
    v.erase(v.begin() + 10, v.begin() + 20);
    want.erase(want.begin() + 10, want.begin() + 20);
    v.erase(v.begin());
    want.erase(want.begin());
    v.insert(v.begin() + 5, "inserted");
    want.insert(want.begin() + 5, "inserted");
    v.pop_back();
    want.pop_back();
    CHECK(std::equal(v.begin(), v.end(), want.begin(), want.end()));
    CHECK(v.size() == want.size());
    // An element of the vector pushed onto it while it grows stays valid.
    CompactVector<std::string> self{std::string(50, 'q')};
    for (int i = 0; i < 10; ++i) self.push_back(self[0]);
    for (const auto& s : self) CHECK(s == std::string(50, 'q'));
    // Taken from a std::vector: exactly its size.
    std::vector<std::string> src{"a", "b", "c"};
    CompactVector<std::string> taken(std::move(src));
    CHECK(taken.size() == 3);
    CHECK(taken.capacity() == 3);
    CHECK(taken[2] == "c");
    CompactVector<std::string> copy = taken;
    CHECK(copy == taken);
    copy = copy;
    CHECK(copy == taken);
    copy.clear();
    CHECK(copy.empty());
    CHECK(taken.size() == 3);
    taken.shrink_to_fit();
    CHECK(taken.capacity() == 3);
}

TEST_CASE("Node is 40 bytes and an entry 64 and a node's payload switches cleanly", "[compact]") {
    STATIC_REQUIRE(sizeof(Node) == 40);
    STATIC_REQUIRE(sizeof(Node::Entry) == 64);
    Node n = Node::string(std::string(30, 's'));
    CHECK(n.text() == std::string(30, 's'));
    n.items().push_back(Node::integer(1));  // a text node's payload becomes a list
    CHECK(n.text().empty());
    CHECK(n.items().size() == 1);
    n.entries();  // and a map
    CHECK(n.items().empty());
    // Assigning a node its own child (the child lives in the payload it replaces).
    Node map = Node::mapping();
    map.set("a", Node::sequence());
    map.find("a")->push(Node::string(std::string(40, 'x')));
    map = std::move(*map.find("a"));
    REQUIRE(map.is_seq());
    CHECK(map.items()[0].text() == std::string(40, 'x'));
    Node seq = Node::sequence();
    seq.push(Node::mapping()).set("k", Node::string("v"));
    seq = seq.items()[0];  // a copy of its own child
    REQUIRE(seq.is_map());
    CHECK(seq.find("k")->text() == "v");
}

TEST_CASE("A loaded tree survives copies and moves and prints the same", "[compact]") {
    const std::string text =
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: a-rather-long-cluster-queue-name\n"
        "spec:\n  resourceGroups:\n  - coveredResources: [cpu, nvidia.com/gpu]\n    flavors:\n    - name: default\n"
        "      resources:\n      - name: cpu\n        nominalQuota: \"12\"\n";
    Diagnostics diags;
    auto loaded = load_yaml("cq.yaml", text, diags);
    REQUIRE(loaded.size() == 1);
    const std::string printed = emit_yaml(loaded[0].root);
    Node copy = loaded[0].root;
    Node moved = std::move(loaded[0].root);
    CHECK(emit_yaml(copy) == printed);
    CHECK(emit_yaml(moved) == printed);
    CHECK(copy.same_as(moved));
    CHECK(copy.find("metadata")->find("name")->text() == "a-rather-long-cluster-queue-name");
}
