// The release notes behind upgrade-check: every change between two
// neighbouring rows of the target matrix has a sourced note, ids are stable
// and dashed, and notes are ordered.
#include <queueforge/frontend/platform.hpp>
#include <queueforge/frontend/release_notes.hpp>
#include <queueforge/integrations/upgrade.hpp>

#include <catch2/catch.hpp>

#include <regex>
#include <set>

using namespace queueforge;

namespace {

std::vector<std::string> rhoai_targets() {
    std::vector<std::string> out;
    for (const auto& t : supported_targets())
        if (t.starts_with("rhoai-")) out.push_back(t);
    return out;
}

Target target(const std::string& name) {
    auto t = find_target(name);
    REQUIRE(t.target);
    return *t.target;
}

}  // namespace

TEST_CASE("release notes: every change between neighbouring OpenShift AI rows has its note", "[release-notes]") {
    const auto names = rhoai_targets();
    REQUIRE(names.size() >= 10);
    for (std::size_t i = 0; i + 1 < names.size(); ++i) {
        const Target a = target(names[i]), b = target(names[i + 1]);
        for (const auto& c : upgrade::platform_changes(a, b)) {
            INFO(names[i] << " -> " << names[i + 1] << ": " << c.id << " " << c.detail);
            // A fact of the matrix without a note falls back to "matrix-...".
            CHECK_FALSE(c.id.starts_with("matrix-"));
            CHECK_FALSE(c.source.empty());
            CHECK_FALSE(c.what.empty());
        }
    }
}

TEST_CASE("release notes: every change between neighbouring Kueue minors has its note", "[release-notes]") {
    for (int minor = 6; minor < 20; ++minor) {
        const Target a = target("kueue-0." + std::to_string(minor)), b = target("kueue-0." + std::to_string(minor + 1));
        for (const auto& c : upgrade::platform_changes(a, b)) {
            INFO(a.name << " -> " << b.name << ": " << c.id);
            if (c.id == "matrix-kueue-release") continue;  // a Kueue minor without a note of its own
            CHECK_FALSE(c.id.starts_with("matrix-"));
        }
    }
}

TEST_CASE("release notes: ids, texts and order", "[release-notes]") {
    static const std::regex id_re("[a-z0-9]+(-[a-z0-9]+)*");
    const auto notes = platform::release_notes();
    REQUIRE(notes.size() > 30);
    for (std::size_t i = 0; i < notes.size(); ++i) {
        const auto& n = notes[i];
        INFO(n.id << " at " << n.at.to_string());
        CHECK(std::regex_match(std::string(n.id), id_re));
        CHECK_FALSE(n.up_text.empty());
        CHECK_FALSE(n.down_text.empty());
        CHECK_FALSE(n.source.empty());
        if (i > 0 && notes[i - 1].track == n.track) CHECK(notes[i - 1].at <= n.at);
        if (i > 0) CHECK(static_cast<int>(notes[i - 1].track) <= static_cast<int>(n.track));
    }
}

TEST_CASE("release notes: the changes of one upgrade, both ways", "[release-notes]") {
    auto up = upgrade::platform_changes(target("rhoai-3.4"), target("rhoai-3.5"));
    std::set<std::string> ids;
    for (const auto& c : up) ids.insert(c.id);
    CHECK(ids.count("operator-creates-queues"));
    CHECK(ids.count("kueue-api"));
    CHECK(ids.count("dsc-auto-create-queues"));
    CHECK(ids.count("kueue-v1beta1-deprecated"));  // Kueue 0.14 -> 0.18 crosses 0.16
    CHECK_FALSE(ids.count("kueue-v1beta1-unserved"));
    for (const auto& c : up)
        if (c.id == "kueue-api") {
            CHECK(c.detail == "Kueue API version queueforge emits: kueue.x-k8s.io/v1beta1 -> kueue.x-k8s.io/v1beta2");
            CHECK(c.severity == Severity::Note);
        }
    auto down = upgrade::platform_changes(target("rhoai-3.5"), target("rhoai-3.4"));
    for (const auto& c : down)
        if (c.id == "dsc-auto-create-queues") CHECK(c.severity == Severity::Error);
    // The same target: nothing changes.
    CHECK(upgrade::platform_changes(target("rhoai-3.5"), target("rhoai-3.5")).empty());
    // Kueue 0.19 -> 0.20 names the v1beta1 removal with its changelog entry.
    bool unserved = false;
    for (const auto& c : upgrade::platform_changes(target("kueue-0.19"), target("kueue-0.20")))
        if (c.id == "kueue-v1beta1-unserved") {
            unserved = true;
            CHECK(c.severity == Severity::Error);
            CHECK(c.source.find("#14558") != std::string::npos);
        }
    CHECK(unserved);
}
