// Tests for compiler/checks/rules: Kueue's own examples (kueue-semantics.md section 2).
// Every rule has a case that fires (checked by rule id, field path,
// position and wording) and one that must stay quiet. The wording is Kueue's
// own (pkg/webhooks, the CRD x-kubernetes-validations), restated on purpose.
#include "rules_test_util.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

using namespace rules_test;

TEST_CASE("rules: Kueue's documentation examples raise no errors", "[rules]") {
    const std::filesystem::path dir = std::filesystem::path(QF_SHARED_DIR) / "upstream" / "kueue-examples";
    if (!std::filesystem::exists(dir)) {
        WARN("skipped: " << dir << " not found");
        return;
    }
    // Justified exclusions: samples Kueue's current webhook itself rejects.
    // admin/minimal-cq.yaml is a fragment showing admissionChecksStrategy on
    // a ClusterQueue without resourceGroups; since Kueue 0.18 (#10336) every
    // onFlavors entry must be one of the ClusterQueue's flavors (V36), so the
    // API rejects it as written. Checked to fail with exactly that rule.
    const std::map<std::string, std::string> excluded{{"admin/minimal-cq.yaml", "V36"}};

    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() > 50);

    std::size_t kueue_objects = 0;
    for (const auto& f : files) {
        Diagnostics load_diags;
        auto in = load_resources({f.string()}, load_diags);
        Diagnostics d;
        for (const auto& r : in.resources) {
            if (r.ref.api_version.starts_with("kueue.x-k8s.io/")) ++kueue_objects;
            rules::check_object(r, d);
        }
        const std::string rel = std::filesystem::relative(f, dir).generic_string();
        INFO(rel << "\n" << dump(d));
        if (auto ex = excluded.find(rel); ex != excluded.end()) {
            REQUIRE(d.count(Severity::Error) >= 1);
            for (const auto& x : d.all()) CHECK(x.rule == ex->second);
            continue;
        }
        CHECK(d.count(Severity::Error) == 0);
    }
    CHECK(kueue_objects > 40);
}
