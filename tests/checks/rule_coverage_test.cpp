// Every catalogued rule id is named by some test (an expectation on the id,
// a golden file holding it), or is listed in untested_rules.txt, a list that
// may only shrink: a new rule comes with its test.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/checks/rule_catalogue.hpp>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

bool named_in(const std::string& text, const std::string& id) {
    // The id as a whole token, not part of a longer one: "a.b" is not named
    // by "a.b-c", "a.b.c", "a.b_c" or "xa.b".
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
    for (std::size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
        const std::size_t end = at + id.size();
        const bool left_ok = at == 0 || (!word(text[at - 1]) && text[at - 1] != '.');
        const bool right_ok = end == text.size() || (!word(text[end]) && !(text[end] == '.' && end + 1 < text.size() &&
                                                                           std::isalpha(static_cast<unsigned char>(text[end + 1]))));
        if (left_ok && right_ok) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("rule coverage: every catalogued rule is named by a test, or listed as untested", "[gate][catalogue]") {
    queueforge::Diagnostics d;
    const auto catalogue = queueforge::rules::load_catalogue(d);
    const fs::path tests = qf_test::source_dir() / "tests";
    std::string all;
    for (const auto& e : fs::recursive_directory_iterator(tests)) {
        const auto name = e.path().filename();
        if (!e.is_regular_file() || name == "untested_rules.txt" || name == "rule_coverage_test.cpp") continue;
        const std::string ext = e.path().extension().string();
        if (ext == ".cpp" || ext == ".hpp" || ext == ".yaml" || ext == ".txt" || ext == ".json" || ext == ".md" ||
            ext == ".sarif" || ext == ".xml" || ext == ".html")
            all += qf_test::read_text(e.path()) + "\n";
    }
    std::set<std::string> listed;
    std::istringstream in(qf_test::read_text(tests / "checks/untested_rules.txt"));
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') listed.insert(line);

    std::string untested, now_tested, unknown;
    for (const auto& r : catalogue.all()) {
        if (r.origin == "policy") continue;  // each policy has its own pass/fail fixtures (policy_test)
        const bool tested = named_in(all, r.id);
        if (!tested && !listed.count(r.id)) untested += r.id + "\n";
        if (tested && listed.count(r.id)) now_tested += r.id + "\n";
    }
    for (const auto& id : listed)
        if (!catalogue.find(id)) unknown += id + "\n";
    INFO("named by no test (add a test that expects the id):\n" << untested);
    CHECK(untested.empty());
    INFO("tested now (remove from tests/checks/untested_rules.txt):\n" << now_tested);
    CHECK(now_tested.empty());
    INFO("listed but not catalogued:\n" << unknown);
    CHECK(unknown.empty());
    CHECK(listed.size() <= 55);  // the list only shrinks: lower this bound with it
}
