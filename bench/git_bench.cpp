// Git-facing commands as whole processes, median of ROUNDS runs each:
//   generate   the Argo CD plugin rendering examples/multi-team
//   diff       diff --base HEAD~500 in a repository of 1,000 commits
//   hook       check --staged (the pre-commit hook's command) with a staged change
//   bench_git [rounds = 20]
// The repository is made in a temporary folder with git (1,000 commits, each
// changing a quota of the multi-team site) and removed afterwards.
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;

namespace {

double run_ms(const std::vector<std::string>& args, const fs::path& cwd) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    posix_spawn_file_actions_destroy(&fa);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "%s %s exited %d\n", args[0].c_str(), args[1].c_str(), WEXITSTATUS(status));
        return -1;
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(const std::vector<std::string>& args, const fs::path& cwd, int rounds) {
    std::vector<double> t;
    for (int i = 0; i < rounds; ++i) t.push_back(run_ms(args, cwd));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
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
