// The HTML report of examples/multi-team, in process: compile + capacity +
// simulation (+ the timeline of examples/timeline/multi-team-day.yaml) and
// rendering, and the atomic write on its own. Budget: 100 ms per report.
// The report command is not registered in the CLI here, so nothing is
// spawned.
//   bench_report [rounds=30]
#include <queueforge/engines/capacity.hpp>
#include <queueforge/backends/html_report.hpp>
#include <queueforge/base/safe_write.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr double kBudgetMs = 100;

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Figures {
    double median = 0, min = 0, max = 0;
};

Figures figures(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

void print(const char* what, const Figures& f) {
    std::printf("  %-46s median %7.2f ms   min %7.2f   max %7.2f\n", what, f.median, f.min, f.max);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace queueforge;
    const int rounds = std::max(1, argc > 1 ? std::atoi(argv[1]) : 30);
    const std::string site = std::string(QF_SOURCE_DIR) + "/examples/multi-team";
    const std::string scenario = std::string(QF_SOURCE_DIR) + "/examples/timeline/multi-team-day.yaml";
    const std::string out = (std::filesystem::temp_directory_path() /
                             ("qf-bench-report-" + std::to_string(::getpid()) + ".html")).string();

    html_report::Options plain;
    plain.site = site;
    html_report::Options with_timeline = plain;
    with_timeline.scenario = scenario;

    std::vector<double> cap_ms, collect_ms, render_ms, total_ms, tl_ms, write_ms;
    std::size_t bytes = 0, tl_bytes = 0;
    for (int r = 0; r < rounds; ++r) {
        {
            Diagnostics diags;
            std::vector<SourceText> sources;
            auto t0 = std::chrono::steady_clock::now();
            auto c = capacity::load(site, {}, diags, sources);
            std::string text = c ? capacity::render_text(*c) : "";
            cap_ms.push_back(ms_since(t0));
            if (!c || text.empty()) {
                std::fprintf(stderr, "capacity failed\n");
                return 1;
            }
        }
        {
            Diagnostics diags;
            std::vector<SourceText> sources;
            auto t0 = std::chrono::steady_clock::now();
            auto in = html_report::collect(plain, diags, sources);
            collect_ms.push_back(ms_since(t0));
            if (!in) {
                std::fprintf(stderr, "report input failed\n");
                return 1;
            }
            auto t1 = std::chrono::steady_clock::now();
            std::string html = html_report::render(*in);
            render_ms.push_back(ms_since(t1));
            total_ms.push_back(ms_since(t0));
            bytes = html.size();
            auto t2 = std::chrono::steady_clock::now();
            std::string error;
            if (!replace_file_atomically(out, html, error)) {
                std::fprintf(stderr, "%s\n", error.c_str());
                return 1;
            }
            write_ms.push_back(ms_since(t2));
        }
        {
            Diagnostics diags;
            std::vector<SourceText> sources;
            auto t0 = std::chrono::steady_clock::now();
            auto in = html_report::collect(with_timeline, diags, sources);
            std::string html = in ? html_report::render(*in) : "";
            tl_ms.push_back(ms_since(t0));
            if (!in) {
                std::fprintf(stderr, "timeline report input failed\n");
                return 1;
            }
            tl_bytes = html.size();
        }
    }
    std::error_code ec;
    std::filesystem::remove(out, ec);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const Figures total = figures(total_ms), tl = figures(tl_ms);
    std::printf("report of examples/multi-team, in process, %d rounds\n", rounds);
    print("capacity (compile + quota tree + text)", figures(cap_ms));
    print("report inputs (compile, capacity, simulate)", figures(collect_ms));
    print("render HTML", figures(render_ms));
    print("report total (inputs + render)", total);
    print("atomic write (temp file, fsync, rename)", figures(write_ms));
    print("report --scenario multi-team-day (timeline)", tl);
    std::printf("  document: %zu bytes (%zu with the timeline); peak RSS %ld KiB\n", bytes, tl_bytes, ru.ru_maxrss);
    const bool ok = total.median <= kBudgetMs && tl.median <= kBudgetMs;
    std::printf("budget %.0f ms per report: %s\n", kBudgetMs, ok ? "met" : "EXCEEDED");
    return ok ? 0 : 1;
}
