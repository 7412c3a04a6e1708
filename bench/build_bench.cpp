// Compiles a generated site of TEAMS teams × POOLS pools in process and
// prints the time per phase and the peak resident memory.
//   bench_build [teams=1000] [pools=20] [rounds=5] [write-site-to-file]
#include "site_generator.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/backends/emit.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {


double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    int teams = argc > 1 ? std::stoi(argv[1]) : 1000;
    int pools = argc > 2 ? std::stoi(argv[2]) : 20;
    int rounds = argc > 3 ? std::stoi(argv[3]) : 5;
    std::string site = qf_bench::generate_site(teams, pools);
    // With a fourth argument the site is only written out, for timing the CLI
    // as a whole process:  bench_build 1000 20 1 /tmp/big-site.yaml
    if (argc > 4) {
        std::FILE* f = std::fopen(argv[4], "wb");
        if (!f || std::fwrite(site.data(), 1, site.size(), f) != site.size()) return 1;
        std::fclose(f);
        return 0;
    }
    std::vector<double> load_ms, compile_ms, emit_ms;
    std::size_t objects = 0, bytes = 0;
    for (int r = 0; r < rounds; ++r) {
        queueforge::Diagnostics diags;
        auto tl = std::chrono::steady_clock::now();
        auto docs = queueforge::load_yaml("bench.yaml", site, diags);
        load_ms.push_back(ms_since(tl));
        docs.clear();
        auto t0 = std::chrono::steady_clock::now();
        auto lowered = queueforge::compile_site("bench.yaml", site, diags);
        compile_ms.push_back(ms_since(t0));
        if (!lowered) {
            std::fprintf(stderr, "bench site failed to compile\n");
            return 1;
        }
        auto t1 = std::chrono::steady_clock::now();
        std::string out = queueforge::render_stream(lowered->objects, "bench.yaml");
        emit_ms.push_back(ms_since(t1));
        objects = lowered->objects.size();
        bytes = out.size();
    }
    std::sort(load_ms.begin(), load_ms.end());
    std::sort(compile_ms.begin(), compile_ms.end());
    std::sort(emit_ms.begin(), emit_ms.end());
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("site: %d teams x %d pools, %zu bytes of input\n", teams, pools, site.size());
    std::printf("output: %zu objects, %zu bytes\n", objects, bytes);
    std::printf("yaml load alone: median %.1f ms\n", load_ms[load_ms.size() / 2]);
    std::printf("parse+lower: median %.1f ms (min %.1f)\n", compile_ms[compile_ms.size() / 2], compile_ms.front());
    std::printf("emit:        median %.1f ms (min %.1f)\n", emit_ms[emit_ms.size() / 2], emit_ms.front());
    std::printf("total:       median %.1f ms\n", compile_ms[compile_ms.size() / 2] + emit_ms[emit_ms.size() / 2]);
    std::printf("peak RSS:    %.1f MB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
    return 0;
}
