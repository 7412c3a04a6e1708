#pragma once
// Reading a git repository without touching its work tree or index: any
// revision's tree, or the staged content (the index), through libgit2.
//
// libgit2 is loaded when a git-aware command first needs it (dlopen), so the
// commands every Argo CD refresh and hook run start without its seventeen
// shared libraries. Everything here reports problems as values: a repository
// that cannot be opened, an unknown revision, a shallow history that ends
// before the revision, a file too large.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::git {

// One file of a snapshot.
struct Entry {
    std::string path;   // repository-relative, '/'-separated
    bool symlink = false;
    bool submodule = false;
};

class Repository {
public:
    // Opens the repository containing `path` (searching upwards, as git does).
    // On failure returns nullptr and sets `error`.
    static std::unique_ptr<Repository> open(const std::string& path, std::string& error);
    ~Repository();
    Repository(const Repository&) = delete;
    Repository& operator=(const Repository&) = delete;

    bool bare() const;
    bool shallow() const;
    std::string workdir() const;  // with a trailing '/', "" when bare

    // A snapshot: the tree of a revision (anything `git rev-parse` takes:
    // HEAD~3, a branch, a tag, a commit id) or the index ("" + staged).
    class Snapshot;
    std::unique_ptr<Snapshot> revision(const std::string& rev, std::string& error);
    std::unique_ptr<Snapshot> staged(std::string& error);

    struct Impl;

private:
    explicit Repository(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

class Repository::Snapshot {
public:
    virtual ~Snapshot() = default;
    virtual std::string name() const = 0;  // "HEAD~3 (1a2b3c4)", "the index"
    // Files under `prefix` ("" = everything; a file path names that file),
    // sorted by path. At most `limit` entries; `truncated` says more exist.
    virtual std::vector<Entry> list(const std::string& prefix, std::size_t limit, bool& truncated) const = 0;
    // A file's content; nullopt and `error` when absent, not a file, or
    // larger than `max_bytes`.
    virtual std::optional<std::string> read(const std::string& path, std::size_t max_bytes, std::string& error) const = 0;
    // A symlink's target as stored (not resolved); nullopt and `error` when
    // the entry is absent or not a symlink.
    virtual std::optional<std::string> read_link(const std::string& path, std::string& error) const = 0;
};

// Writes the files under each of `prefixes` of `snap` into `dir` (which must
// exist and be empty), keeping their repository-relative paths, and marks
// `dir` as the snapshot's source root (kSnapshotMarker, source_root.hpp).
// Symlinks are written as symlinks with their stored target, so the readers'
// one confinement rule decides about them exactly as in a work tree (a link
// out of the snapshot is refused, never followed); submodules are skipped;
// binary files are written as they are (the readers refuse them with a
// position). Caps: 20,000 files, 64 MiB in total. Returns false and sets
// `error` when a cap is hit or a prefix is missing from the snapshot.
bool materialise(const Repository::Snapshot& snap, const std::vector<std::string>& prefixes, const std::string& dir,
                 std::string& error);

// A private temporary folder (mode 0700), removed with everything in it when
// the object goes.
class ScratchDir {
public:
    static std::unique_ptr<ScratchDir> create(std::string& error);
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::string& path() const { return path_; }

private:
    explicit ScratchDir(std::string p) : path_(std::move(p)) {}
    std::string path_;
};

// `path` (relative to the current directory, or absolute) as a path inside
// the work tree of `repo` ("" for its top); nullopt when it lies outside.
std::optional<std::string> repository_path(const Repository& repo, const std::string& path);

}  // namespace queueforge::git
