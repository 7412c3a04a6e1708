#pragma once
// Shell scripts in real git repositories made in temporary folders: queueforge
// on PATH, a private HOME (git identity, no user configuration leaking in).
#include "test_util.hpp"

#include <filesystem>
#include <string>

namespace qf_test {

struct Shell {
    int exit = -1;
    std::string out, err;
};

inline Shell sh(const std::filesystem::path& dir, const std::string& script) {
    TempDir tmp;
    std::string bin = std::filesystem::path(QF_BINARY).parent_path().string();
    write_text(tmp.path / "script.sh",
               "set -e\nexport HOME=" + shell_quote(tmp.path.string()) + " PATH=" + shell_quote(bin) +
                   ":$PATH GIT_CONFIG_NOSYSTEM=1 PRE_COMMIT_HOME=" + shell_quote((tmp.path / "pre-commit").string()) +
                   "\ngit config --global user.email t@example.com\ngit config --global user.name test\n"
                   "git config --global init.defaultBranch main\ngit config --global advice.detachedHead false\n"
                   "cd " + shell_quote(dir.string()) + "\n" + script + "\n");
    std::string cmd = "bash " + shell_quote((tmp.path / "script.sh").string()) + " >" + shell_quote((tmp.path / "out").string()) +
                      " 2>" + shell_quote((tmp.path / "err").string());
    int status = std::system(cmd.c_str());
    Shell r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_text(tmp.path / "out");
    r.err = read_text(tmp.path / "err");
    return r;
}

// The hook repository pre-commit installs from: this project's
// .pre-commit-hooks.yaml committed in `dir`; returns the commit.
inline std::string commit_hook_repository(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(source_dir() / ".pre-commit-hooks.yaml", dir / ".pre-commit-hooks.yaml");
    auto r = sh(dir, "git init -q && git add -A && git commit -qm hooks && git rev-parse HEAD");
    return r.exit == 0 && r.out.size() >= 40 ? r.out.substr(0, 40) : std::string();
}

// A copy of examples/multi-team as the site `folder`, named `name`.
inline void add_multi_team_site(const std::filesystem::path& folder, const std::string& name) {
    std::filesystem::create_directories(folder);
    std::filesystem::copy(source_dir() / "examples/multi-team", folder, std::filesystem::copy_options::recursive);
    auto file = folder / "queueforge-site.yaml";
    std::string s = read_text(file);
    const std::string from = "  name: multi-team\n";
    s.replace(s.find(from), from.size(), "  name: " + name + "\n");
    write_text(file, s);
}

inline bool replace_once(const std::filesystem::path& file, const std::string& from, const std::string& to) {
    std::string s = read_text(file);
    auto at = s.find(from);
    if (at == std::string::npos) return false;
    s.replace(at, from.size(), to);
    write_text(file, s);
    return true;
}

}  // namespace qf_test
