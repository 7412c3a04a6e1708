// The stages of docs/architecture.md, in pipeline order: a file under
// compiler/<group>/ or include/queueforge/<group>/ may include headers of its
// own group and of earlier groups only. Read from the source tree, so a new
// include that breaks the order fails here with the file and the line.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 8> kStages{"base",   "frontend", "model",    "lower",
                                                  "checks", "engines",  "backends", "integrations"};

int rank(std::string_view stage) {
    return static_cast<int>(std::find(kStages.begin(), kStages.end(), stage) - kStages.begin());
}

// The stage of a path relative to compiler/ or include/queueforge/; the
// pipeline's own headers (compile.hpp, lower.hpp) sit at the top of include/.
// The compile step (pipeline/, compile.hpp) runs Kueue's rules on what it
// lowers, so it ranks with checks/; validate and the policies compile the
// sites they find among manifests through it.
int stage_of(const std::string& rel) {
    const auto slash = rel.find('/');
    const std::string first = slash == std::string::npos ? rel : rel.substr(0, slash);
    if (slash == std::string::npos) {
        if (first == "lower.hpp") return rank("lower");
        return first == "compile.hpp" ? rank("checks") : -1;
    }
    if (first == "pipeline") return rank("checks");
    auto it = std::find(kStages.begin(), kStages.end(), first);
    return it == kStages.end() ? -1 : static_cast<int>(it - kStages.begin());
}

// Known breaches still to remove, each with its reason. The test fails when
// one is gone too, so the list only shrinks.
const std::vector<std::pair<std::string, std::string>> kKnown{};

struct Breach {
    std::string file, include;
    int line = 0;
};

std::vector<Breach> breaches_under(const fs::path& root) {
    static const std::regex include_re(R"re(^\s*#\s*include\s+[<"]([^>"]+)[>"])re");
    std::vector<Breach> out;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) continue;
        const auto ext = entry.path().extension();
        if (ext != ".cpp" && ext != ".hpp" && ext != ".def") continue;
        const std::string rel = fs::relative(entry.path(), root).generic_string();
        const int own = stage_of(rel);
        if (own < 0) continue;
        std::ifstream in(entry.path());
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            std::smatch m;
            if (!std::regex_search(line, m, include_re)) continue;
            std::string target = m[1];
            if (target.rfind("queueforge/", 0) == 0) target = target.substr(11);
            const int theirs = stage_of(target);
            if (theirs > own) out.push_back({root.filename().string() + "/" + rel, m[1], n});
        }
    }
    return out;
}

}  // namespace

TEST_CASE("layering: no stage includes a later stage of the pipeline", "[architecture]") {
    const fs::path src = QF_SOURCE_DIR;
    std::vector<Breach> all = breaches_under(src / "compiler");
    for (auto& b : breaches_under(src / "include" / "queueforge")) all.push_back(std::move(b));
    for (const auto& known : kKnown) {
        const auto& [file, include] = known;
        // Named again for the lambda: clang before 16 cannot capture a structured binding.
        auto it = std::find_if(all.begin(), all.end(),
                               [&, f = file, i = include](const Breach& b) { return b.file == f && b.include == i; });
        INFO(file << " no longer includes " << include << ": remove it from kKnown");
        CHECK(it != all.end());
        if (it != all.end()) all.erase(it);
    }
    for (const auto& b : all) UNSCOPED_INFO(b.file << ":" << b.line << " includes " << b.include);
    CHECK(all.empty());
}

TEST_CASE("layering: the stage table knows every folder of compiler/", "[architecture]") {
    const fs::path src = QF_SOURCE_DIR;
    for (const auto& entry : fs::directory_iterator(src / "compiler")) {
        if (!entry.is_directory()) continue;
        INFO(entry.path().filename().string());
        CHECK(stage_of(entry.path().filename().string() + "/x") >= 0);
    }
}
