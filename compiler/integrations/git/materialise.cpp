// A snapshot's files written out, so the ordinary file-based pipeline
// (site loader, file references, validation) reads a revision or the index
// exactly as it reads a work tree.
#include <queueforge/integrations/git.hpp>
#include <queueforge/base/safe_write.hpp>
#include <queueforge/base/source_root.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <stdlib.h>

namespace queueforge::git {

namespace fs = std::filesystem;

namespace {
constexpr std::size_t kMaxFiles = 20000;
constexpr std::size_t kMaxTotal = 64u * 1024u * 1024u;
}  // namespace

bool materialise(const Repository::Snapshot& snap, const std::vector<std::string>& prefixes, const std::string& dir,
                 std::string& error) {
    std::size_t files = 0, total = 0;
    // The folder is this revision's work tree: the source root of every
    // file in it (source_root.hpp), as the repository's top is for a work tree.
    const fs::path marker = fs::path(dir) / kSnapshotMarker;
    std::error_code mec;
    if (!fs::is_regular_file(fs::symlink_status(marker, mec)) && !create_file(marker.string(), "", error)) return false;
    for (const auto& prefix : prefixes) {
        bool truncated = false;
        auto entries = snap.list(prefix, kMaxFiles - files, truncated);
        if (truncated) {
            error = "more than " + std::to_string(kMaxFiles) + " files under \"" + prefix + "\" in " + snap.name();
            return false;
        }
        if (entries.empty()) {
            error = "\"" + (prefix.empty() ? std::string(".") : prefix) + "\" does not exist in " + snap.name();
            return false;
        }
        for (const auto& e : entries) {
            if (e.submodule) continue;
            // Git never stores "..", absolute or empty components; refuse them
            // anyway rather than trust the object database.
            fs::path rel(e.path);
            bool safe = !rel.is_absolute();
            for (const auto& part : rel)
                if (part == ".." || part.empty()) safe = false;
            if (!safe) continue;
            fs::path out = fs::path(dir) / rel;
            std::error_code ec;
            if (fs::exists(fs::symlink_status(out, ec))) continue;  // overlapping prefixes
            if (e.symlink) {
                auto target = snap.read_link(e.path, error);
                if (!target) return false;
                ++files;
                fs::create_directories(out.parent_path(), ec);
                fs::create_symlink(*target, out, ec);
                if (ec) {
                    error = "cannot write " + out.string() + ": " + ec.message();
                    return false;
                }
                continue;
            }
            auto content = snap.read(e.path, kMaxTotal - total, error);
            if (!content) {
                error += " (reading " + snap.name() + ")";
                return false;
            }
            total += content->size();
            ++files;
            fs::create_directories(out.parent_path(), ec);
            if (!create_file(out.string(), *content, error)) return false;
        }
    }
    return true;
}

std::unique_ptr<ScratchDir> ScratchDir::create(std::string& error) {
    // No usable temporary folder (TMPDIR names none, or a minimal image
    // without /tmp) is an error to report, not an exception.
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    if (ec) {
        const char* env = std::getenv("TMPDIR");
        error = std::string("cannot create a temporary folder: ") + (env && *env ? env : "/tmp") + ": " +
                ec.message() + " (set TMPDIR to a writable folder)";
        return nullptr;
    }
    std::string tmpl = (base / "queueforge-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
        error = "cannot create a temporary folder under " + base.string();
        return nullptr;
    }
    return std::unique_ptr<ScratchDir>(new ScratchDir(buf.data()));
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

std::optional<std::string> repository_path(const Repository& repo, const std::string& path) {
    std::string top = repo.workdir();
    if (top.empty()) {  // bare: paths are repository paths already
        fs::path p = fs::path(path).lexically_normal();
        if (p.is_absolute() || (!p.empty() && *p.begin() == "..")) return std::nullopt;
        std::string s = p.generic_string();
        return s == "." ? "" : s;
    }
    std::error_code ec;
    fs::path abs = fs::weakly_canonical(fs::absolute(path), ec);
    fs::path root = fs::weakly_canonical(fs::path(top), ec);
    fs::path rel = abs.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..") return std::nullopt;
    std::string s = rel.generic_string();
    return s == "." ? "" : s;
}

}  // namespace queueforge::git
