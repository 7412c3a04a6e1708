#pragma once
// The queueforge binary as a child process the test controls (signals,
// wait4's resource usage), its output thrown away.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>

extern char** environ;

namespace qf_test {

inline pid_t spawn_cli(const std::vector<std::string>& args) {
    std::vector<std::string> argv_s{QF_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, QF_BINARY, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
    return pid;
}

}  // namespace qf_test
