// Git-facing commands as whole processes, median of ROUNDS runs each:
//   generate   the Argo CD plugin rendering examples/multi-team
//   diff       diff --base HEAD~500 in a repository of 1,000 commits
//   hook       check --staged (the pre-commit hook's command) with a staged change
//   bench_git [rounds = 20]
// The repository is made in a temporary folder with git (1,000 commits, each
// changing a quota of the multi-team site) and removed afterwards.
#include "spawn.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

double median(const std::vector<std::string>& args, const fs::path& cwd, int rounds) {
    double ms = qf_bench::median_ms(args, rounds, cwd.string());
    if (ms < 0) std::fprintf(stderr, "%s %s failed\n", args[0].c_str(), args[1].c_str());
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    fs::path src = QF_SOURCE_DIR;
    fs::path repo = fs::temp_directory_path() / ("qf-bench-git-" + std::to_string(getpid()));
    fs::create_directories(repo / "clusters");
    fs::copy(src / "examples/multi-team", repo / "clusters/prod", fs::copy_options::recursive);
    fs::path script = repo / "make-history.sh";
    {
        std::FILE* f = std::fopen(script.c_str(), "w");
        std::fprintf(f, "%s",
                     "set -e\nexport GIT_CONFIG_NOSYSTEM=1 HOME=\"$PWD\"\n"
                     "git init -q && git config user.email b@example.com && git config user.name bench\n"
                     "git add clusters && git commit -qm base\n"
                     "for i in $(seq 1 999); do\n"
                     "  sed -i \"s/^  # history: .*$//; 1i\\\\  # history: $i\" clusters/prod/queueforge-site.yaml\n"
                     "  git commit -qam \"change $i\"\n"
                     "done\n"
                     "sed -i 's#nvidia.com/gpu: 16}#nvidia.com/gpu: 12}#' clusters/prod/queueforge-site.yaml\n"
                     "git add clusters\n");
        std::fclose(f);
    }
    std::fprintf(stderr, "making a repository of 1,000 commits in %s ...\n", repo.c_str());
    if (std::system(("cd '" + repo.string() + "' && bash make-history.sh").c_str()) != 0) return 1;
    const std::string bin = QF_BINARY;
    double gen = median({bin, "generate"}, src / "examples/multi-team", rounds);
    double diff = median({bin, "diff", "--base", "HEAD~500", "clusters/prod"}, repo, rounds);
    double diff_ns = median({bin, "diff", "--base", "HEAD~500", "--no-simulate", "clusters/prod"}, repo, rounds);
    double hook = median({bin, "check", "--staged", "clusters/prod"}, repo, rounds);
    std::printf("generate examples/multi-team:            %7.1f ms (target 20 ms)\n", gen);
    std::printf("diff --base HEAD~500 (1,000 commits):    %7.1f ms (target 200 ms)\n", diff);
    std::printf("  the same with --no-simulate:           %7.1f ms\n", diff_ns);
    std::printf("check --staged (the pre-commit hook):    %7.1f ms (target 100 ms)\n", hook);
    fs::remove_all(repo);
}
