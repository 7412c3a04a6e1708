// `build -o DIR` is all or nothing: DIR is at every moment wholly the old
// or wholly the new output (kill -9, Ctrl-C, a folder in the way), foreign
// files survive, and the staging folders of killed runs are removed by the
// next run and never read by validate.
#include "../../bench/site_generator.hpp"
#include "spawn_cli.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <map>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace queueforge;
namespace fs = std::filesystem;

namespace {

// Every file under `dir` (relative name -> bytes; symlinks as "-> target").
std::map<std::string, std::string> tree(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        const std::string rel = it->path().lexically_relative(dir).generic_string();
        if (it->is_symlink()) out[rel] = "-> " + fs::read_symlink(it->path()).string();
        else if (it->is_regular_file()) out[rel] = qf_test::read_text(it->path());
        else if (it->is_directory()) out[rel + "/"] = "";
    }
    return out;
}

std::vector<std::string> staging_leftovers(const fs::path& out) {
    std::vector<std::string> found;
    for (const fs::path& dir : {out.parent_path(), out})
        if (fs::is_directory(dir))
            for (const auto& e : fs::directory_iterator(dir))
                if (e.path().filename().string().find(".queueforge-tmp-") != std::string::npos)
                    found.push_back(e.path().string());
    return found;
}


int wait_status(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Two complete renders of one large site (A with the header, B without:
// every generated file differs) and an output folder that holds A plus
// files queueforge did not write.
struct Fixture {
    qf_test::TempDir tmp;
    fs::path site = tmp.path / "site.yaml";
    fs::path out = tmp.path / "rendered";
    std::map<std::string, std::string> old_tree, new_tree;
    std::chrono::duration<double> new_run{};

    explicit Fixture(int teams) {
        qf_test::write_text(site, qf_bench::generate_site(teams, 4));
        REQUIRE(qf_test::run_cli("build " + qf_test::shell_quote(site.string()) + " -o " + qf_test::shell_quote(out.string())).exit == 0);
        qf_test::write_text(out / "kustomization.yaml", "resources: []\n");
        qf_test::write_text(out / "overlays" / "patch.yaml", "kind: Foreign\n");
        fs::create_symlink("kustomization.yaml", out / "link.yaml");
        old_tree = tree(out);
        const fs::path probe = tmp.path / "probe";
        fs::copy(out, probe, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
        const auto t0 = std::chrono::steady_clock::now();
        REQUIRE(qf_test::run_cli(build_args_text(probe)).exit == 0);
        new_run = std::chrono::steady_clock::now() - t0;
        new_tree = tree(probe);
        fs::remove_all(probe);
        REQUIRE(old_tree != new_tree);
        REQUIRE(old_tree.count("overlays/patch.yaml"));
        REQUIRE(new_tree.count("overlays/patch.yaml"));
        INFO("old has link: " << old_tree.count("link.yaml") << ", new entries: " << new_tree.size() << ", old: " << old_tree.size());
        REQUIRE(new_tree.count("link.yaml"));
    }
    std::vector<std::string> build_args() const { return {"build", site.string(), "-o", out.string(), "--no-header"}; }
    // The new render into `dir` (the old one with `old_render`).
    std::string build_args_text(const fs::path& dir, bool old_render = false) const {
        return "build " + qf_test::shell_quote(site.string()) + " -o " + qf_test::shell_quote(dir.string()) +
               (old_render ? "" : " --no-header");
    }
    // "old", "new", or a description of the mixture.
    std::string state() const {
        auto now = tree(out);
        if (now == old_tree) return "old";
        if (now == new_tree) return "new";
        std::size_t from_old = 0, from_new = 0;
        for (const auto& [k, v] : now) {
            auto o = old_tree.find(k);
            auto n = new_tree.find(k);
            from_old += o != old_tree.end() && o->second == v;
            from_new += n != new_tree.end() && n->second == v;
        }
        return "mixed: " + std::to_string(now.size()) + " files, " + std::to_string(from_old) + " as before, " +
               std::to_string(from_new) + " as after";
    }
};

Object object(const std::string& kind, const std::string& name) {
    Object o;
    o.kind = kind;
    o.name = name;
    o.doc = Node::mapping();
    o.doc.set("apiVersion", Node::string("kueue.x-k8s.io/v1beta2"));
    o.doc.set("kind", Node::string(kind));
    Node meta = Node::mapping();
    meta.set("name", Node::string(name));
    o.doc.set("metadata", std::move(meta));
    return o;
}

}  // namespace

TEST_CASE("emit: a folder in the way of an output file leaves the output folder wholly old", "[emit]") {
    qf_test::TempDir tmp;
    const fs::path out = tmp.path / "out";
    Diagnostics d;
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a"), object("ClusterQueue", "b")}, "site.yaml", d));
    // A folder where the rebuild writes its second file (the earlier
    // one-by-one rename had replaced the first file before failing here).
    fs::remove(out / "05-clusterqueue-b.yaml");
    qf_test::write_text(out / "05-clusterqueue-c.yaml" / "keep.txt", "mine\n");
    const auto before = tree(out);
    Diagnostics again;
    CHECK_FALSE(write_objects(out.string(), {object("ResourceFlavor", "a"), object("ClusterQueue", "c")}, "", again));
    CHECK(qf_test::has_rule(again, "io"));
    CHECK(qf_test::messages(again).find("05-clusterqueue-c.yaml is a folder") != std::string::npos);
    CHECK(tree(out) == before);
    CHECK(staging_leftovers(out).empty());

    // The same through the command line: exit 1, nothing changed.
    const fs::path site = tmp.path / "site";
    REQUIRE(qf_test::run_cli("init " + qf_test::shell_quote(site.string())).exit == 0);
    const fs::path rendered = tmp.path / "rendered";
    REQUIRE(qf_test::run_cli("build " + qf_test::shell_quote(site.string()) + " -o " + qf_test::shell_quote(rendered.string())).exit == 0);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(rendered))
        if (e.path().filename().string()[0] != '.') files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 3);
    // Drop the second file and put a folder in its place.
    fs::remove(files[1]);
    qf_test::write_text(files[1] / "keep.txt", "mine\n");
    const auto was = tree(rendered);
    auto r = qf_test::run_cli("build " + qf_test::shell_quote(site.string()) + " -o " + qf_test::shell_quote(rendered.string()) + " --no-header");
    CHECK(r.exit == 1);
    CHECK(r.err.find("is a folder where queueforge writes a file") != std::string::npos);
    CHECK(tree(rendered) == was);
    CHECK(staging_leftovers(rendered).empty());
}

TEST_CASE("emit: a rebuild keeps foreign files folders and symlinks and --prune still drops only its own", "[emit]") {
    qf_test::TempDir tmp;
    const fs::path out = tmp.path / "out";
    Diagnostics d;
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a"), object("ClusterQueue", "b")}, "", d));
    qf_test::write_text(out / "kustomization.yaml", "resources: []\n");
    qf_test::write_text(out / "overlays" / "prod" / "patch.yaml", "kind: Foreign\n");
    fs::create_symlink("/nonexistent/target", out / "dangling.yaml");
    const auto inode_before = fs::hard_link_count(out / "kustomization.yaml");
    fs::permissions(out, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a")}, "", d));
    // The folder that replaced it keeps its permission bits.
    CHECK((fs::status(out).permissions() & fs::perms::all) == (fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec));
    CHECK(qf_test::read_text(out / "kustomization.yaml") == "resources: []\n");
    CHECK(fs::hard_link_count(out / "kustomization.yaml") == inode_before);  // the old tree is gone
    CHECK(qf_test::read_text(out / "overlays" / "prod" / "patch.yaml") == "kind: Foreign\n");
    CHECK(fs::read_symlink(out / "dangling.yaml") == "/nonexistent/target");
    CHECK(fs::exists(out / "05-clusterqueue-b.yaml"));  // without --prune: kept, and still queueforge's
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a")}, "", d, /*prune=*/true));
    CHECK_FALSE(fs::exists(out / "05-clusterqueue-b.yaml"));
    CHECK(fs::exists(out / "kustomization.yaml"));
    CHECK(fs::exists(out / "overlays" / "prod" / "patch.yaml"));
    CHECK(staging_leftovers(out).empty());
    INFO(qf_test::messages(d));
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("emit: an output path that is a symlink is refused and the link target untouched", "[emit]") {
    qf_test::TempDir tmp;
    fs::create_directories(tmp.path / "elsewhere");
    qf_test::write_text(tmp.path / "elsewhere" / "x.txt", "x\n");
    fs::create_directory_symlink(tmp.path / "elsewhere", tmp.path / "out");
    Diagnostics d;
    CHECK_FALSE(write_objects((tmp.path / "out").string(), {object("ResourceFlavor", "a")}, "", d));
    CHECK(qf_test::messages(d).find("symlink") != std::string::npos);
    CHECK(tree(tmp.path / "elsewhere") == std::map<std::string, std::string>{{"x.txt", "x\n"}});
}

TEST_CASE("emit: staging folders of killed runs are removed by the next run and never read by validate", "[emit]") {
    qf_test::TempDir tmp;
    const fs::path out = tmp.path / "out";
    Diagnostics d;
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a")}, "", d));
    // What a killed run leaves: a full staging folder beside the output (and,
    // from the earlier layout, one inside it).
    for (const fs::path& stale : {tmp.path / ".out.queueforge-tmp-dead01", out / ".queueforge-tmp-dead02"}) {
        fs::create_directories(stale);
        fs::copy_file(out / "02-resourceflavor-a.yaml", stale / "02-resourceflavor-a.yaml");
    }
    auto v = qf_test::run_cli("validate " + qf_test::shell_quote(tmp.path.string()));
    INFO(v.err << v.out);
    CHECK(v.out.find("xref.duplicate") == std::string::npos);
    CHECK(v.err.find("queueforge-tmp") == std::string::npos);
    CHECK(v.out.find("queueforge-tmp") == std::string::npos);
    CHECK(staging_leftovers(out).size() == 2);
    REQUIRE(write_objects(out.string(), {object("ResourceFlavor", "a")}, "", d));
    CHECK(staging_leftovers(out).empty());
}

TEST_CASE("emit: Ctrl-C (SIGINT) or SIGTERM during build -o removes the staging folder and the output is old or new", "[emit][cli][slow]") {
    Fixture f(600);
    std::mt19937 rng(20261125);
    std::uniform_real_distribution<double> at(0.0, 1.2 * f.new_run.count());
    std::map<std::string, int> seen;
    for (int run = 0; run < 8; ++run) {
        const int sig = run % 2 ? SIGTERM : SIGINT;
        auto args = f.build_args();
        if (run % 4 >= 2) args.pop_back();  // with the header: back to the old render
        const pid_t pid = qf_test::spawn_cli(args);
        std::this_thread::sleep_for(std::chrono::duration<double>(at(rng)));
        ::kill(pid, sig);
        const int status = wait_status(pid);
        // Ended by the signal (or finished before it came).
        CHECK(((WIFSIGNALED(status) && WTERMSIG(status) == sig) || (WIFEXITED(status) && WEXITSTATUS(status) == 0)));
        const std::string s = f.state();
        INFO("run " << run << " signal " << sig);
        CHECK((s == "old" || s == "new"));
        ++seen[s];
        // Handled signals leave nothing behind, without waiting for a next run.
        CHECK(staging_leftovers(f.out).empty());
    }
    // Deterministically inside the write: the signal goes when the staging
    // folder has appeared.
    int aborted = 0;
    for (const int sig : {SIGINT, SIGTERM}) {
        REQUIRE(qf_test::run_cli(f.build_args_text(f.out, /*old_render=*/true)).exit == 0);
        REQUIRE(f.state() == "old");
        const pid_t pid = qf_test::spawn_cli(f.build_args());
        auto staging_seen = [&] {
            for (const auto& e : fs::directory_iterator(f.out.parent_path()))
                if (e.path().filename().string().starts_with(".rendered.queueforge-tmp-")) return true;
            return false;
        };
        while (!staging_seen() && ::waitpid(pid, nullptr, WNOHANG) == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        ::kill(pid, sig);
        const int status = wait_status(pid);
        const std::string s = f.state();
        INFO("signal " << sig << " during the write: " << s);
        CHECK((s == "old" || s == "new"));
        aborted += s == "old" && WIFSIGNALED(status) && WTERMSIG(status) == sig;
        CHECK(staging_leftovers(f.out).empty());
    }
    CHECK(aborted > 0);
    WARN("SIGINT/SIGTERM runs: " << seen["old"] << " left the old output, " << seen["new"] << " the new");
}

TEST_CASE("emit: kill -9 at random moments of build -o never leaves the output folder mixed", "[emit][cli][slow]") {
    Fixture f(1000);
    std::mt19937 rng(15);
    std::uniform_real_distribution<double> at(0.0, 1.5 * f.new_run.count());
    std::map<std::string, int> seen;
    int with_leftovers = 0;
    for (int run = 0; run < 50; ++run) {
        // Alternate the two renders, so both directions of the switch are hit.
        auto args = f.build_args();
        if (run % 2) args.pop_back();  // with the header: back to the old render
        const pid_t pid = qf_test::spawn_cli(args);
        std::this_thread::sleep_for(std::chrono::duration<double>(at(rng)));
        ::kill(pid, SIGKILL);
        wait_status(pid);
        const std::string s = f.state();
        INFO("run " << run << ": " << s);
        REQUIRE((s == "old" || s == "new"));
        ++seen[s];
        with_leftovers += !staging_leftovers(f.out).empty();
    }
    // The next complete run removes whatever the killed ones left.
    REQUIRE(qf_test::run_cli(f.build_args_text(f.out)).exit == 0);
    CHECK(f.state() == "new");
    CHECK(staging_leftovers(f.out).empty());
    WARN("kill -9 runs: " << seen["old"] << " old, " << seen["new"] << " new, " << with_leftovers
                          << " left a staging folder");
    // Where the kills landed depends on the machine's load (the delays are
    // drawn against one unloaded run); the figures above say how they fell.
    // Killing inside the write is covered deterministically by the Ctrl-C test.
}
