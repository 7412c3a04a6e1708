// Whole-file replacement (base/io/safe_write.cpp), which every command that
// writes one file uses: the HTML report, import's site, the capacity and
// diff outputs.
#include <catch2/catch.hpp>

#include "test_util.hpp"

#include <queueforge/base/safe_write.hpp>

#include <filesystem>
#include <string>

using namespace queueforge;

TEST_CASE("safe write: a file is replaced whole or not at all, nothing left beside it", "[safe-write]") {
    qf_test::TempDir tmp;
    auto out = tmp.path / "report.html";
    std::string error;
    REQUIRE(replace_file_atomically(out.string(), "first", error));
    CHECK(qf_test::read_text(out) == "first");
    std::string big(3 << 20, 'x');
    REQUIRE(replace_file_atomically(out.string(), big, error));
    CHECK(qf_test::read_text(out) == big);
    // Nothing else is left in the folder.
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.path)) ++files;
    CHECK(files == 1);
    CHECK_FALSE(replace_file_atomically((tmp.path / "no/such/dir/r.html").string(), "x", error));
    CHECK_FALSE(error.empty());
    CHECK_FALSE(std::filesystem::exists(tmp.path / "no"));
    // A folder in the way: refused, and the folder is left as it was.
    std::filesystem::create_directories(tmp.path / "dir.html/inside");
    CHECK_FALSE(replace_file_atomically((tmp.path / "dir.html").string(), "x", error));
    CHECK(std::filesystem::is_directory(tmp.path / "dir.html/inside"));
    files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.path)) ++files;
    CHECK(files == 2);
}
