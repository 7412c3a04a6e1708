#pragma once
// Helpers shared by the tests: files, the CLI as a process, and in-memory
// compilation.
#include <queueforge/compile.hpp>
#include <queueforge/backends/emit.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace qf_test {

inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& s) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << s;
}

inline std::filesystem::path source_dir() { return QF_SOURCE_DIR; }

// ../shared when it is there; tests that need it skip with a message otherwise.
inline std::optional<std::filesystem::path> shared_dir() {
    std::filesystem::path p = QF_SHARED_DIR;
    if (std::filesystem::exists(p / "kueue-semantics.md")) return p;
    return std::nullopt;
}

// A fresh empty folder under the system temp dir, removed with the object.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        static int counter = 0;
        path = std::filesystem::temp_directory_path() /
               ("qf-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

struct RunResult {
    int exit = -1;
    std::string out;
    std::string err;
};

inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs the queueforge binary with `args` (already quoted where needed), in
// `cwd` when given.
inline RunResult run_cli_in(const std::filesystem::path& cwd, const std::string& args, const std::string& stdin_text = {}) {
    TempDir tmp;
    auto in = tmp.path / "in", out = tmp.path / "out", err = tmp.path / "err";
    write_text(in, stdin_text);
    std::string cmd = shell_quote(QF_BINARY) + " " + args + " <" + shell_quote(in.string()) + " >" +
                      shell_quote(out.string()) + " 2>" + shell_quote(err.string());
    if (!cwd.empty()) cmd = "cd " + shell_quote(cwd.string()) + " && " + cmd;
    int status = std::system(cmd.c_str());
    RunResult r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_text(out);
    r.err = read_text(err);
    return r;
}

inline RunResult run_cli(const std::string& args, const std::string& stdin_text = {}) {
    return run_cli_in({}, args, stdin_text);
}

// Compiles a site held in memory to a YAML stream (empty on error).
inline std::string build_text(const std::string& site, queueforge::Diagnostics& diags,
                              const std::string& target = {}) {
    auto lowered = queueforge::compile_site("site.yaml", site, diags, {.target_override = target});
    if (!lowered || diags.has_errors()) return {};
    return queueforge::render_stream(lowered->objects, "");
}

inline bool has_rule(const queueforge::Diagnostics& d, const std::string& rule) {
    for (const auto& x : d.all())
        if (x.rule == rule) return true;
    return false;
}

// The findings of one rule, in order.
inline std::vector<queueforge::Diagnostic> with_rule(const queueforge::Diagnostics& d, const std::string& rule) {
    std::vector<queueforge::Diagnostic> out;
    for (const auto& x : d.all())
        if (x.rule == rule) out.push_back(x);
    return out;
}

inline std::string messages(const queueforge::Diagnostics& d) {
    std::string s;
    for (const auto& x : d.all())
        s += std::to_string(x.mark.line) + ":" + std::to_string(x.mark.col) + " " + x.message + " [" + x.rule + "]\n";
    return s;
}

}  // namespace qf_test
