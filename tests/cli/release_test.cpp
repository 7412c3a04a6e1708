// The portable release artifacts (scripts/release.sh, cmake/release.cmake,
// scripts/build-image.sh): the static binary runs version, generate and the
// git-aware diff with nothing of the system; the Debian package installs it;
// the OCI image, unpacked, runs it from its own root filesystem as uid 999.
// They need the release binary (build-release/queueforge, or
// $QF_RELEASE_BINARY); without it they are skipped with a message. CI's
// release stage builds it and runs "[release]".
#include "test_util.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using qf_test::shell_quote;

std::optional<fs::path> release_binary() {
    fs::path p = qf_test::source_dir() / "build-release/queueforge";
    if (const char* env = std::getenv("QF_RELEASE_BINARY"); env && *env) p = env;
    if (!fs::exists(p)) {
        WARN("skipped: no release binary at " << p.string() << " (run scripts/release.sh)");
        return std::nullopt;
    }
    return p;
}

qf_test::RunResult sh(const std::string& cmd) {
    qf_test::TempDir tmp;
    auto out = tmp.path / "out", err = tmp.path / "err";
    const int status = std::system(("( " + cmd + " ) >" + shell_quote(out.string()) + " 2>" +
                                    shell_quote(err.string()) + " </dev/null").c_str());
    qf_test::RunResult r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = qf_test::read_text(out);
    r.err = qf_test::read_text(err);
    return r;
}

bool have(const std::string& tool) { return sh("command -v " + tool).exit == 0; }

std::string version_of(const fs::path& bin) {
    auto r = sh(shell_quote(bin.string()) + " version");
    return r.out.substr(0, r.out.find('\n'));
}

// Argo CD's environment for an Application rendered with a parameter.
const std::string kPluginEnv =
    "ARGOCD_APP_NAME=gpu-queues ARGOCD_APP_NAMESPACE=openshift-gitops ARGOCD_APP_SOURCE_PATH=clusters/prod "
    "'ARGOCD_APP_PARAMETERS=[{\"name\":\"target\",\"string\":\"rhoai-3.5\"}]'";

}  // namespace

TEST_CASE("release: the binary is static and stripped, and runs version, generate and diff --base alone",
          "[release][slow]") {
    auto bin = release_binary();
    if (!bin) return;
    const std::string q = shell_quote(bin->string());
    auto check = sh("bash " + shell_quote((qf_test::source_dir() / "scripts/check-release.sh").string()) + " " + q);
    INFO(check.out << check.err);
    REQUIRE(check.exit == 0);
    CHECK(check.out.find("is static") != std::string::npos);
    CHECK(sh("readelf -d " + q + " | grep -q NEEDED").exit != 0);

    // No environment at all: no HOME (libgit2 then asks getpwuid_r), no PATH.
    auto v = sh("env -i " + q + " version");
    CHECK(v.exit == 0);
    CHECK(v.out.starts_with("queueforge "));

    qf_test::TempDir t;
    const fs::path app = t.path / "repo/clusters/prod";
    fs::create_directories(app);
    fs::copy(qf_test::source_dir() / "examples/multi-team", app, fs::copy_options::recursive);
    auto gen = sh("cd " + shell_quote(app.string()) + " && env -i " + kPluginEnv + " " + q + " generate");
    INFO(gen.err);
    REQUIRE(gen.exit == 0);
    CHECK(gen.out.find("datasciencecluster.opendatahub.io/v2") != std::string::npos);
    CHECK(gen.out.find("kind: ClusterQueue") != std::string::npos);

    // diff --base reads the base revision through the linked-in libgit2
    // (a static binary cannot dlopen it).
    const std::string repo = shell_quote((t.path / "repo").string());
    const std::string git = "git -c user.email=t@t -c user.name=t ";
    REQUIRE(sh("cd " + repo + " && git init -q -b main . && " + git + "add -A && " + git + "commit -qm base").exit == 0);
    auto site = qf_test::read_text(app / "queueforge-site.yaml");
    const std::string before = "nominal: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}";
    auto pos = site.find(before);
    REQUIRE(pos != std::string::npos);
    site.replace(pos, before.size(), "nominal: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 16}");
    qf_test::write_text(app / "queueforge-site.yaml", site);
    auto diff = sh("cd " + repo + " && env -i " + q + " diff --base main clusters/prod");
    INFO(diff.err);
    CHECK(diff.exit == 0);
    CHECK(diff.out.find("Changes from main") != std::string::npos);
    CHECK(diff.out.find("nvidia.com/gpu") != std::string::npos);
    auto bad = sh("cd " + repo + " && env -i " + q + " diff --base no-such-branch clusters/prod");
    CHECK(bad.exit == 1);
    CHECK(bad.err.find("no-such-branch") != std::string::npos);
}

TEST_CASE("release: the Debian package lists and installs a runnable queueforge", "[release][slow]") {
    auto bin = release_binary();
    if (!bin) return;
    const fs::path build = bin->parent_path();
    if (!fs::exists(build / "CPackConfig.cmake") || !have("cpack") || !have("dpkg-deb")) {
        WARN("skipped: needs cpack, dpkg-deb and " << (build / "CPackConfig.cmake").string());
        return;
    }
    qf_test::TempDir t;
    auto pack = sh("cpack -G DEB --config " + shell_quote((build / "CPackConfig.cmake").string()) + " -B " +
                   shell_quote(t.path.string()));
    INFO(pack.out << pack.err);
    REQUIRE(pack.exit == 0);
    fs::path deb;
    for (const auto& e : fs::directory_iterator(t.path))
        if (e.path().extension() == ".deb") deb = e.path();
    REQUIRE(!deb.empty());
    const std::string d = shell_quote(deb.string());
    auto list = sh("dpkg-deb -c " + d);
    CHECK(list.out.find("./usr/bin/queueforge") != std::string::npos);
    CHECK(list.out.find("./usr/share/queueforge/deploy/argocd/sidecar-patch.yaml") != std::string::npos);
    CHECK(list.out.find("./usr/share/doc/queueforge/README.md") != std::string::npos);
    CHECK(sh("dpkg-deb -f " + d + " Package").out == "queueforge\n");
    CHECK(sh("dpkg-deb -f " + d + " Maintainer").out.find('@') != std::string::npos);
    // Static: it depends on nothing installed.
    CHECK(sh("dpkg-deb -f " + d).out.find("Depends:") == std::string::npos);

    const fs::path root = t.path / "root";
    REQUIRE(sh("dpkg -x " + d + " " + shell_quote(root.string())).exit == 0);
    auto v = sh("env -i " + shell_quote((root / "usr/bin/queueforge").string()) + " version");
    CHECK(v.exit == 0);
    CHECK(v.out.substr(0, v.out.find('\n')) == version_of(*bin));
}

TEST_CASE("release: the sidecar image, unpacked, runs version and generate from its own root as uid 999",
          "[release][slow]") {
    auto bin = release_binary();
    if (!bin) return;
    for (const char* tool : {"tar", "gzip", "sha256sum"})
        if (!have(tool)) {
            WARN("skipped: " << tool << " is not installed (scripts/build-image.sh needs it)");
            return;
        }
    qf_test::TempDir t;
    const fs::path archive = t.path / "image.oci.tar";
    auto build = sh("bash " + shell_quote((qf_test::source_dir() / "scripts/build-image.sh").string()) + " --binary " +
                    shell_quote(bin->string()) + " -o " + shell_quote(archive.string()));
    INFO(build.out << build.err);
    REQUIRE(build.exit == 0);
    // Same binary, same bytes.
    const fs::path again = t.path / "again.oci.tar";
    REQUIRE(sh("bash " + shell_quote((qf_test::source_dir() / "scripts/build-image.sh").string()) + " --binary " +
               shell_quote(bin->string()) + " -o " + shell_quote(again.string()))
                .exit == 0);
    CHECK(qf_test::read_text(archive) == qf_test::read_text(again));

    // The OCI layout: index -> manifest -> config and layers, each blob named by its digest.
    const fs::path layout = t.path / "layout";
    fs::create_directories(layout);
    REQUIRE(sh("tar -xf " + shell_quote(archive.string()) + " -C " + shell_quote(layout.string())).exit == 0);
    CHECK(qf_test::read_text(layout / "oci-layout") == R"({"imageLayoutVersion":"1.0.0"})");
    auto blob = [&](const std::string& digest) {
        REQUIRE(digest.starts_with("sha256:"));
        const fs::path p = layout / "blobs/sha256" / digest.substr(7);
        REQUIRE(fs::exists(p));
        auto sum = sh("sha256sum " + shell_quote(p.string()));
        CHECK(sum.out.substr(0, 64) == digest.substr(7));
        return p;
    };
    auto index = nlohmann::json::parse(qf_test::read_text(layout / "index.json"));
    REQUIRE(index["manifests"].size() == 1);
    const std::string version = version_of(*bin).substr(std::string("queueforge ").size());
    const std::string tag = version.substr(0, version.find(' '));
    CHECK(index["manifests"][0]["annotations"]["io.containerd.image.name"] == "registry.example.com/queueforge:" + tag);
    auto manifest = nlohmann::json::parse(qf_test::read_text(blob(index["manifests"][0]["digest"])));
    CHECK(manifest["mediaType"] == "application/vnd.oci.image.manifest.v1+json");
    auto config = nlohmann::json::parse(qf_test::read_text(blob(manifest["config"]["digest"])));
    CHECK(config["config"]["User"] == "999:999");
    CHECK(config["os"] == "linux");
    REQUIRE(manifest["layers"].size() == config["rootfs"]["diff_ids"].size());

    const fs::path rootfs = t.path / "rootfs";
    fs::create_directories(rootfs);
    for (const auto& layer : manifest["layers"]) {
        const fs::path p = blob(layer["digest"]);
        CHECK(fs::file_size(p) == layer["size"].get<std::uintmax_t>());
        REQUIRE(sh("tar -xzf " + shell_quote(p.string()) + " --numeric-owner -C " + shell_quote(rootfs.string())).exit ==
                0);
    }
    // The binary and the plugin definition, nothing else; the home is the argocd user's.
    auto files = sh("cd " + shell_quote(rootfs.string()) + " && find . -type f | sort");
    CHECK(files.out == "./home/argocd/cmp-server/config/plugin.yaml\n./usr/local/bin/queueforge\n");
    CHECK(qf_test::read_text(rootfs / "home/argocd/cmp-server/config/plugin.yaml") ==
          qf_test::read_text(qf_test::source_dir() / "deploy/argocd/plugin.yaml"));
    auto owners = sh("tar -tvzf " + shell_quote(blob(manifest["layers"][0]["digest"]).string()) + " --numeric-owner");
    CHECK(owners.out.find("999/999") != std::string::npos);
    CHECK(owners.out.find("0/0") != std::string::npos);

    // An Application folder inside the image's root, then the sidecar's view:
    // root = the image, working folder = the app, uid/gid 999, Argo CD's env.
    const fs::path app = rootfs / "home/argocd/app";
    fs::create_directories(app);
    fs::copy(qf_test::source_dir() / "examples/multi-team/queueforge-site.yaml", app / "queueforge-site.yaml");
    std::string in_image;
    if (::geteuid() == 0 && have("unshare") && sh("unshare --root=/ true").exit == 0) {
        in_image = "env -i PATH=/usr/local/bin HOME=/home/argocd " + kPluginEnv + " $(command -v unshare) --root=" +
                   shell_quote(rootfs.string()) + " --wd=/home/argocd/app --setgid=999 --setuid=999 ";
        auto v = sh(in_image + "/usr/local/bin/queueforge version");
        INFO(v.err);
        CHECK(v.exit == 0);
        CHECK(v.out.starts_with("queueforge " + tag));
        // diff --base inside the image: no HOME, no /etc/passwd, libgit2
        // linked in; /tmp is the sidecar's own emptyDir (sidecar-patch.yaml).
        fs::create_directories(rootfs / "tmp");
        fs::permissions(rootfs / "tmp", fs::perms::all | fs::perms::sticky_bit);
        const fs::path repo = rootfs / "home/argocd/repo";
        fs::create_directories(repo / "site");
        fs::copy(qf_test::source_dir() / "examples/multi-team/queueforge-site.yaml", repo / "site/queueforge-site.yaml");
        const std::string git = "git -c user.email=t@t -c user.name=t ";
        REQUIRE(sh("cd " + shell_quote(repo.string()) + " && git init -q -b main . && " + git + "add -A && " + git +
                   "commit -qm base && chown -R 999:999 .")
                    .exit == 0);
        auto text = qf_test::read_text(repo / "site/queueforge-site.yaml");
        const std::string a100 = "nominal: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 8}";
        REQUIRE(text.find(a100) != std::string::npos);
        text.replace(text.find(a100), a100.size(), "nominal: {cpu: 96, memory: 1000Gi, nvidia.com/gpu: 16}");
        qf_test::write_text(repo / "site/queueforge-site.yaml", text);
        auto d = sh("env -i $(command -v unshare) --root=" + shell_quote(rootfs.string()) +
                    " --wd=/home/argocd/repo --setgid=999 --setuid=999 /usr/local/bin/queueforge diff --base main site");
        INFO(d.err);
        CHECK(d.exit == 0);
        CHECK(d.out.find("Changes from main") != std::string::npos);
        CHECK(d.out.find("nominalQuota: 8 -> 16") != std::string::npos);
    } else {
        WARN("not root or no unshare --root: running the image's binary directly, not inside its root");
        in_image = "cd " + shell_quote(app.string()) + " && env -i HOME=/home/argocd " + kPluginEnv + " " +
                   shell_quote((rootfs / "usr/local/bin").string()) + "/";
    }
    auto gen = sh(in_image + "queueforge generate");
    INFO(gen.err);
    REQUIRE(gen.exit == 0);
    CHECK(gen.out.starts_with("---\napiVersion: "));
    CHECK(gen.out.find("datasciencecluster.opendatahub.io/v2") != std::string::npos);
    auto params = sh(in_image + "queueforge cmp-parameters");
    CHECK(params.exit == 0);
    CHECK(params.out.find("\"teams\"") != std::string::npos);
}

TEST_CASE("release: check-release.sh refuses a binary that needs a glibc newer than 2.28", "[release]") {
    // The system's own ls is dynamic; on this Debian 12 it needs GLIBC_2.34.
    const std::string ls = "/bin/ls";
    if (!fs::exists(ls) || !have("objdump") || !have("readelf")) {
        WARN("skipped: needs /bin/ls, objdump and readelf");
        return;
    }
    auto newest = sh("objdump -T " + ls + " | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1");
    auto older = sh("printf '%s\\n2.28\\n' " + shell_quote(newest.out.substr(0, newest.out.find('\n'))) +
                    " | sort -V | tail -n 1");
    const bool too_new = older.out != "2.28\n";
    auto r = sh("bash " + shell_quote((qf_test::source_dir() / "scripts/check-release.sh").string()) + " " + ls);
    INFO(r.out << r.err);
    if (too_new) {
        CHECK(r.exit == 1);
        CHECK(r.err.find("newer than 2.28") != std::string::npos);
    } else {
        CHECK(r.exit == 0);
    }
}
