// Peak memory of the CLI as users run it (issue 15, item 4): the process's
// own maximum resident set (wait4), for the inputs the scaling benchmarks
// double (bench/scaling_build_bench.cpp). The sanitizers' shadow memory
// multiplies every figure, so the bounds apply to plain builds only.
#include "../../bench/site_generator.hpp"
#include "spawn_cli.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>

namespace {

struct Peak {
    int exit = -1;
    long kib = 0;  // ru_maxrss
};

// Runs the CLI with `args`, output to /dev/null, and reads its peak.
Peak run_measured(const std::vector<std::string>& args) {
    const pid_t pid = qf_test::spawn_cli(args);
    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

// The sanitizers' shadow memory multiplies every figure.
constexpr bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(QF_SANITIZED)
    return true;
#else
    return false;
#endif
}

}  // namespace

TEST_CASE("memory: build of 10,000 teams x 20 pools peaks under 300 MiB", "[memory][slow]") {
    if (sanitized()) {
        WARN("skipped: peak memory is not bounded under the sanitizers");
        return;
    }
    qf_test::TempDir tmp;
    const auto site = tmp.path / "queueforge-site.yaml";
    qf_test::write_text(site, qf_bench::generate_site(10000, 20));
    // The site and its lowered objects were held at once: 434 MiB.
    const Peak stream = run_measured({"build", site.string()});
    CHECK(stream.exit == 0);
    CHECK(stream.kib < 300 * 1024);
    const Peak folder = run_measured({"build", site.string(), "-o", (tmp.path / "rendered").string()});
    CHECK(folder.exit == 0);
    CHECK(folder.kib < 300 * 1024);
}

TEST_CASE("memory: validate of 100k objects peaks under 200 MiB in json and text and sarif", "[memory][slow]") {
    if (sanitized()) {
        WARN("skipped: peak memory is not bounded under the sanitizers");
        return;
    }
    qf_test::TempDir tmp;
    const auto file = tmp.path / "objects.yaml";
    qf_test::write_text(file, qf_bench::generate_objects(100000));
    // Huge pages (allocator.cpp) add about 15 MiB to validate's peak: the
    // bound holds with them.
    for (const char* format : {"json", "text", "sarif"}) {
        INFO(format);
        const Peak p = run_measured({"validate", file.string(), "-o", format});
        CHECK(p.exit == 0);
        CHECK(p.kib < 200 * 1024);
    }
}
