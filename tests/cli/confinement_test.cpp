// One confinement rule for every command (source_root.hpp): nothing that
// resolves outside the source root is read, whatever command reads it, and
// no write follows a symlink.
#include "test_util.hpp"

#include <queueforge/base/source_root.hpp>

#include <catch2/catch.hpp>

using namespace queueforge;
namespace fs = std::filesystem;

namespace {

// Something outside every repository the tests make, that must never show.
constexpr const char* kSecret = "TOP-SECRET-0xC0FFEE";

struct Shell {
    int exit = -1;
    std::string out, err;
};

// A bash script in `dir`, queueforge on PATH, a private HOME for git.
Shell sh(const fs::path& dir, const std::string& script) {
    qf_test::TempDir tmp;
    const std::string bin = fs::path(QF_BINARY).parent_path().string();
    qf_test::write_text(tmp.path / "script.sh",
                        "set -e\nexport HOME=" + qf_test::shell_quote(tmp.path.string()) + " PATH=" + qf_test::shell_quote(bin) +
                            ":$PATH GIT_CONFIG_NOSYSTEM=1\n"
                            "git config --global user.email t@example.com\ngit config --global user.name test\n"
                            "git config --global init.defaultBranch main\n"
                            "cd " + qf_test::shell_quote(dir.string()) + "\n" + script + "\n");
    const std::string cmd = "bash " + qf_test::shell_quote((tmp.path / "script.sh").string()) + " >" +
                            qf_test::shell_quote((tmp.path / "out").string()) + " 2>" +
                            qf_test::shell_quote((tmp.path / "err").string());
    const int status = std::system(cmd.c_str());
    Shell r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = qf_test::read_text(tmp.path / "out");
    r.err = qf_test::read_text(tmp.path / "err");
    return r;
}

void copy_example(const fs::path& to) {
    fs::create_directories(to);
    fs::copy(qf_test::source_dir() / "examples" / "multi-team", to, fs::copy_options::recursive);
}

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
    std::string s = qf_test::read_text(file);
    auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    s.replace(at, from.size(), to);
    qf_test::write_text(file, s);
}

}  // namespace

TEST_CASE("confine: the source root is the work tree's top or else the command-line path's folder", "[confine]") {
    qf_test::TempDir tmp;
    const fs::path repo = tmp.path / "repo";
    fs::create_directories(repo / ".git");
    fs::create_directories(repo / "clusters" / "prod");
    qf_test::write_text(repo / "clusters" / "prod" / "queueforge-site.yaml", "x: 1\n");
    qf_test::write_text(repo / "shared.yaml", "x: 1\n");
    qf_test::write_text(tmp.path / "outside" / "site.yaml", "x: 1\n");
    CHECK(source_root_of((repo / "clusters" / "prod").string()) == repo.string());
    CHECK(source_root_of((repo / "clusters" / "prod" / "queueforge-site.yaml").string()) == repo.string());
    CHECK(source_root_of((tmp.path / "outside" / "site.yaml").string()) == (tmp.path / "outside").string());
    CHECK(source_root_of((tmp.path / "outside").string() + "/") == (tmp.path / "outside").string());

    // A symlink to a file elsewhere in the repository is followed; one out of it is not.
    fs::create_symlink("../../shared.yaml", repo / "clusters" / "prod" / "in.yaml");
    fs::create_symlink(tmp.path / "outside" / "site.yaml", repo / "clusters" / "prod" / "out.yaml");
    std::string why;
    auto in = confine_input((repo / "clusters" / "prod" / "in.yaml").string(), &why);
    REQUIRE(in);
    CHECK(*in == fs::canonical(repo / "shared.yaml").string());
    CHECK_FALSE(confine_input((repo / "clusters" / "prod" / "out.yaml").string(), &why));
    CHECK(why.find("out.yaml resolves to") != std::string::npos);
    CHECK(why.find("outside the source root") != std::string::npos);
    // A revision written out for reading is its own root.
    qf_test::write_text(tmp.path / "snap" / kSnapshotMarker, "");
    qf_test::write_text(tmp.path / "snap" / "a" / "b.yaml", "x: 1\n");
    CHECK(source_root_of((tmp.path / "snap" / "a" / "b.yaml").string()) == (tmp.path / "snap").string());
    // Streams the user hands over are not repository content.
    CHECK(confine_input("-", &why));
    CHECK(confine_input("/dev/stdin", &why));
}

TEST_CASE("confine: a committed symlink site/queueforge-site.yaml -> /etc/passwd is read by no command", "[confine][cli][git]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "secret.yaml", std::string("token: ") + kSecret + "\n");
    const fs::path repo = tmp.path / "repo";
    copy_example(repo / "good");
    fs::create_directories(repo / "site");
    fs::create_directories(repo / "leak");
    fs::create_symlink("/etc/passwd", repo / "site" / "queueforge-site.yaml");
    fs::create_symlink(tmp.path / "secret.yaml", repo / "leak" / "queueforge-site.yaml");
    REQUIRE(sh(repo, "git init -q && git add -A && git commit -qm base").exit == 0);
    const std::string passwd = qf_test::read_text("/etc/passwd");
    const std::string passwd_line = passwd.substr(0, passwd.find('\n'));

    for (const std::string folder : {"site", "leak"}) {
        for (const std::string& cmd : {"queueforge build " + folder, "queueforge check " + folder,
                                       "queueforge simulate " + folder, "queueforge validate " + folder,
                                       "queueforge explain ClusterQueue/llm " + folder,
                                       "queueforge diff --base HEAD " + folder}) {
            auto r = sh(repo, cmd + " || echo \"exit=$?\"");
            INFO(cmd << "\n" << r.out << r.err);
            CHECK(r.out.find("exit=1") != std::string::npos);
            CHECK((r.out + r.err).find(kSecret) == std::string::npos);
            if (!passwd_line.empty()) CHECK((r.out + r.err).find(passwd_line) == std::string::npos);
            CHECK((r.out + r.err).find(folder + "/queueforge-site.yaml") != std::string::npos);
            CHECK((r.out + r.err).find("outside the source root") != std::string::npos);
        }
    }
    // The site in a revision: a symlink there is refused the same way.
    for (const std::string cmd : {"queueforge build --staged leak", "queueforge check --staged leak",
                                  "queueforge diff --base HEAD --staged leak"}) {
        auto r = sh(repo, cmd + " || echo \"exit=$?\"");
        INFO(cmd << "\n" << r.out << r.err);
        CHECK(r.out.find("exit=") != std::string::npos);
        CHECK((r.out + r.err).find(kSecret) == std::string::npos);
    }
    // The repository's own site still builds, from anywhere below the root.
    CHECK(sh(repo / "good", "queueforge build . >/dev/null").exit == 0);
}

TEST_CASE("confine: a job file: ../../etc/passwd or a symlink out is refused by check and simulate", "[confine][cli][jobs]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "secret.yaml", std::string("apiVersion: v1\nkind: Pod\nmetadata: {name: ") + kSecret + "}\n");
    const fs::path site = tmp.path / "site";
    copy_example(site);
    const fs::path file = site / "queueforge-site.yaml";
    const std::string original = qf_test::read_text(file);
    for (const std::string ref : {"../../etc/passwd", "/etc/passwd", "../secret.yaml", "jobs/link.yaml"}) {
        qf_test::write_text(file, original);
        replace_in(file, "file: jobs/llm-pretrain-pytorchjob.yaml", "file: " + ref);
        std::error_code ec;
        fs::remove(site / "jobs" / "link.yaml", ec);
        fs::create_symlink(tmp.path / "secret.yaml", site / "jobs" / "link.yaml");
        for (const std::string cmd : {"check", "simulate"}) {
            auto r = qf_test::run_cli(cmd + " " + qf_test::shell_quote(site.string()));
            INFO(cmd << " with file: " << ref << "\n" << r.out << r.err);
            CHECK(r.exit == 1);
            CHECK((r.out + r.err).find(kSecret) == std::string::npos);
            CHECK((r.out + r.err).find("root:x:") == std::string::npos);
            CHECK((r.out + r.err).find(ref) != std::string::npos);
            CHECK((r.out + r.err).find("site.path") != std::string::npos);
        }
    }
}

TEST_CASE("confine: init never writes through a symlink planted at its temporary or target file", "[confine][cli]") {
    qf_test::TempDir tmp;
    const fs::path dir = tmp.path / "site";
    fs::create_directories(dir);
    qf_test::write_text(tmp.path / "victim", "precious\n");
    fs::create_symlink(tmp.path / "victim", dir / "queueforge-site.yaml.tmp");
    auto r = qf_test::run_cli("init " + qf_test::shell_quote(dir.string()));
    INFO(r.err);
    CHECK(r.exit == 0);
    CHECK(qf_test::read_text(tmp.path / "victim") == "precious\n");
    CHECK(fs::is_regular_file(fs::symlink_status(dir / "queueforge-site.yaml")));
    CHECK(qf_test::read_text(dir / "queueforge-site.yaml").find("kind: Site") != std::string::npos);
    // --force over a symlinked site file replaces the link, not its target.
    fs::remove(dir / "queueforge-site.yaml");
    fs::create_symlink(tmp.path / "victim", dir / "queueforge-site.yaml");
    r = qf_test::run_cli("init --force " + qf_test::shell_quote(dir.string()));
    CHECK(r.exit == 0);
    CHECK(qf_test::read_text(tmp.path / "victim") == "precious\n");
    CHECK(fs::is_regular_file(fs::symlink_status(dir / "queueforge-site.yaml")));
    for (const auto& e : fs::directory_iterator(dir))
        CHECK(e.path().filename().string().find("queueforge-tmp") == std::string::npos);
}

TEST_CASE("confine: a policy or a scenario or a --running file or a rendered file that links out is not read", "[confine][cli]") {
    qf_test::TempDir tmp;
    qf_test::write_text(tmp.path / "secret.yaml", std::string("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ") + kSecret + "}\n");
    const fs::path work = tmp.path / "work";
    copy_example(work / "site");
    fs::create_directories(work / "links");
    for (const std::string n : {"policy.yaml", "scenario.yaml", "running.yaml"})
        fs::create_symlink(tmp.path / "secret.yaml", work / "links" / n);
    const std::string site = qf_test::shell_quote((work / "site").string());
    auto link = [&](const std::string& n) { return qf_test::shell_quote((work / "links" / n).string()); };
    struct Case {
        std::string args, names;
    };
    for (const Case& c : {Case{"validate --policy " + link("policy.yaml") + " " + site, "policy.yaml"},
                          Case{"simulate --scenario " + link("scenario.yaml") + " " + site, "scenario.yaml"},
                          Case{"report --scenario " + link("scenario.yaml") + " -o " +
                                   qf_test::shell_quote((tmp.path / "r.html").string()) + " " + site,
                               "scenario.yaml"}}) {
        auto r = qf_test::run_cli(c.args);
        INFO(c.args << "\n" << r.out << r.err);
        CHECK(r.exit == 1);
        CHECK((r.out + r.err).find(kSecret) == std::string::npos);
        CHECK((r.out + r.err).find("links/" + c.names + " resolves to") != std::string::npos);
        CHECK((r.out + r.err).find("io.outside-root") != std::string::npos);
    }

    // diff --running, in a repository.
    const fs::path repo = tmp.path / "repo";
    copy_example(repo / "prod");
    fs::create_symlink(tmp.path / "secret.yaml", repo / "running.yaml");
    REQUIRE(sh(repo, "git init -q && git add -A && git commit -qm base").exit == 0);
    auto d = sh(repo, "queueforge diff --base HEAD --running running.yaml prod || echo \"exit=$?\"");
    INFO(d.out << d.err);
    CHECK(d.out.find("exit=1") != std::string::npos);
    CHECK((d.out + d.err).find(kSecret) == std::string::npos);
    CHECK(d.err.find("running.yaml resolves to") != std::string::npos);

    // A committed rendered file that links out is reported, not compared.
    const fs::path rendered = work / "rendered";
    REQUIRE(qf_test::run_cli("build " + site + " -o " + qf_test::shell_quote(rendered.string())).exit == 0);
    fs::path victim;
    for (const auto& e : fs::directory_iterator(rendered))
        if (e.path().filename().string().starts_with("05-")) victim = e.path();
    REQUIRE(!victim.empty());
    fs::remove(victim);
    fs::create_symlink(tmp.path / "secret.yaml", victim);
    auto c = qf_test::run_cli("check --rendered " + qf_test::shell_quote(rendered.string()) + " " + site);
    INFO(c.out << c.err);
    CHECK(c.exit == 1);
    CHECK((c.out + c.err).find(victim.filename().string() + " resolves to") != std::string::npos);
}
