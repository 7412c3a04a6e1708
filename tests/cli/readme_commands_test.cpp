// Every queueforge command line printed in the README's code blocks runs, in
// README order, in a workspace laid out as the README assumes (the bundled
// examples, a manifests/ folder, clusters/prod with its rendered output, a
// git history with a main branch, ...), and exits as documented: 0 unless
// the line carries a `# exit N` comment or is followed by `$ echo $?` and N.
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;

struct Line {
    std::string command;  // as run, `$ ` and the trailing comment removed
    int expected = 0;
    int readme_line = 0;
};

std::string trim(std::string s) {
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    return s;
}

// Lines of fenced code blocks that run queueforge; continuation lines joined.
std::vector<Line> readme_commands(const std::string& text) {
    std::vector<Line> out;
    std::istringstream in(text);
    std::string raw;
    bool in_block = false;
    int n = 0;
    std::string pending;
    int pending_line = 0;
    const std::regex exit_comment(R"(#\s*exit\s+([0-9]+))");
    while (std::getline(in, raw)) {
        ++n;
        if (raw.starts_with("```")) {
            in_block = !in_block;
            continue;
        }
        if (!in_block) continue;
        std::string line = trim(raw);
        if (!pending.empty()) {
            line = pending + " " + line;
            pending.clear();
        } else {
            pending_line = n;
        }
        if (line.ends_with("\\")) {
            pending = trim(line.substr(0, line.size() - 1));
            continue;
        }
        if (line == "$ echo $?") {
            std::string value;
            if (std::getline(in, value)) {
                ++n;
                if (!out.empty()) out.back().expected = std::stoi(trim(value));
            }
            continue;
        }
        if (line.starts_with("$ ")) line = line.substr(2);
        const bool runs = line.starts_with("queueforge ") ||
                          (line.find("| queueforge ") != std::string::npos && !line.starts_with("#"));
        // Output lines that merely start with the name (pre-commit's) have no options after it.
        if (!runs || line.find("......") != std::string::npos) continue;
        Line l;
        l.readme_line = pending_line;
        std::smatch m;
        if (std::regex_search(line, m, exit_comment)) l.expected = std::stoi(m[1]);
        if (auto hash = line.find("  #"); hash != std::string::npos) line = line.substr(0, hash);
        l.command = trim(line);
        out.push_back(l);
    }
    return out;
}

void copy_tree(const fs::path& from, const fs::path& to) {
    fs::create_directories(to);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

int sh(const std::string& cmd) {
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("README: every queueforge command line exits as documented", "[cli][readme][slow]") {
    const auto shared = qf_test::shared_dir();
    if (!shared) {
        WARN("skipped: ../shared is not beside the checkout (the README runs Kueue's scheduler-perf configs from it)");
        return;
    }
    const auto lines = readme_commands(qf_test::read_text(qf_test::source_dir() / "README.md"));
    REQUIRE(lines.size() >= 15);

    // The workspace the README's examples assume.
    qf_test::TempDir tmp;
    const fs::path ws = tmp.path / "repo";
    copy_tree(qf_test::source_dir() / "examples", ws / "examples");
    fs::create_symlink(*shared, tmp.path / "shared");
    const std::string bin = qf_test::shell_quote(fs::path(QF_BINARY).parent_path().string());
    const std::string env = "cd " + qf_test::shell_quote(ws.string()) + " && export PATH=" + bin + ":\"$PATH\" NO_COLOR=1 && ";
    // manifests/: the queues of an OpenShift AI 2.19 cluster; crds/: Kueue 0.10's CRDs (what 2.19 ships).
    REQUIRE(sh(env + "queueforge build examples/multi-team --target rhoai-2.19 -o manifests/ >/dev/null 2>&1") == 0);
    copy_tree(*shared / "upstream/kueue/v0.10.6", ws / "crds");
    // clusters/prod with its rendered output, and a policy of the organisation's.
    copy_tree(qf_test::source_dir() / "examples/multi-team", ws / "clusters/prod");
    REQUIRE(sh(env + "queueforge build clusters/prod -o clusters/prod/rendered >/dev/null 2>&1") == 0);
    qf_test::write_text(ws / "org-policies/team-label.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Policy
metadata:
  name: org-team-label
spec:
  severity: error
  description: Every ClusterQueue says which team owns it
  match:
    kinds: [{group: kueue.x-k8s.io, kinds: [ClusterQueue]}]
  validations:
  - expression: "object.metadata.?labels[?'queueforge.io/team'].orValue('') != ''"
    message: the ClusterQueue has no queueforge.io/team label
)");
    // site/: the Diagnostics section's broken site.
    qf_test::write_text(ws / "site/queueforge-site.yaml", R"(apiVersion: queueforge.io/v1alpha1
kind: Site
metadata:
  name: diagnostics
spec:
  target: kueue-0.13
  pools:
      - name: GPU
  teams:
    - name: a
      namespaces: [a]
      quota:
          - pool: gpu
            nominall: {cpu: 9}
)");
    // A git history whose main branch is the workspace as it is now.
    REQUIRE(sh(env + "git init -q -b main . && git -c user.email=t@t -c user.name=t add -A && "
                     "git -c user.email=t@t -c user.name=t commit -qm base") == 0);

    for (const auto& l : lines) {
        std::string cmd = l.command;
        // kubectl is not here: the same objects come from a file.
        if (auto pipe = cmd.find("| queueforge "); pipe != std::string::npos && cmd.starts_with("kubectl "))
            cmd = "cat manifests/*.yaml " + cmd.substr(pipe);
        const fs::path out = tmp.path / "out", err = tmp.path / "err";
        const bool redirected = cmd.find(" > ") != std::string::npos;
        const std::string full = env + cmd + (redirected ? "" : " >" + qf_test::shell_quote(out.string())) + " 2>" +
                                 qf_test::shell_quote(err.string());
        const int rc = sh(full);
        INFO("README.md:" << l.readme_line << ": " << l.command << "\nstderr:\n" << qf_test::read_text(err));
        CHECK(rc == l.expected);
    }
}
