// `queueforge validate FILE` on N generated ClusterQueue/LocalQueue/
// ResourceFlavor objects (one file, every ClusterQueue with a note) in each
// output format, N doubling up to MAX: wall time, peak memory, exponent.
//   bench_scaling_validate [max=100000] [start=12500] [formats=text,json,sarif]
#include "scaling.hpp"
#include "site_generator.hpp"

#include <sstream>

int main(int argc, char** argv) {
    const long max = argc > 1 ? std::atol(argv[1]) : 100000;
    const long start = argc > 2 ? std::atol(argv[2]) : 12500;
    const std::string formats = argc > 3 ? argv[3] : "text,json,sarif";
    const std::string dir = qf_bench::scratch_dir();
    std::stringstream list(formats);
    for (std::string format; std::getline(list, format, ',');) {
        qf_bench::run_doubling({.title = "validate -o " + format + " (objects)",
                                .start = start,
                                .max = max,
                                .budget_s = 60,
                                .prepare = [&](long n) {
                                    const std::string file = dir + "/objects-" + std::to_string(n) + ".yaml";
                                    if (!std::filesystem::exists(file)) qf_bench::write_file(file, qf_bench::generate_objects(n));
                                    return std::vector<std::string>{QF_BINARY, "validate", file, "-o", format};
                                }});
    }
    std::filesystem::remove_all(dir);
}
