// Repositories and their snapshots (a revision's tree, the index) through
// the run-time loaded libgit2.
#include <queueforge/integrations/git.hpp>

#include "integrations/git/library.hpp"

#include <algorithm>

namespace queueforge::git {

using detail::Library;

struct Repository::Impl {
    std::shared_ptr<const Library> lib;
    git_repository* repo = nullptr;
    ~Impl() {
        if (repo) lib->api.git_repository_free(repo);
    }
    const detail::Api& api() const { return lib->api; }
};

namespace {

bool under(const std::string& path, const std::string& prefix) {
    if (prefix.empty()) return true;
    return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                              path[prefix.size()] == '/');
}

std::string normalise(std::string p) {
    while (p.size() >= 2 && p.compare(0, 2, "./") == 0) p.erase(0, 2);
    if (p == ".") p.clear();
    while (!p.empty() && p.back() == '/') p.pop_back();
    return p;
}

// Reads a blob by id with the size checked before its content is loaded.
// A symlink's blob is its target path (PATH_MAX on Linux).
constexpr std::size_t kMaxLinkBytes = 4096;

std::optional<std::string> read_blob(const Repository::Impl& r, const git_oid* id, const std::string& path,
                                     std::size_t max_bytes, std::string& error) {
    const auto& api = r.api();
    git_odb* odb = nullptr;
    if (api.git_repository_odb(&odb, r.repo) == 0) {
        std::size_t len = 0;
        git_object_t type = GIT_OBJECT_ANY;
        int rc = api.git_odb_read_header(&len, &type, odb, id);
        api.git_odb_free(odb);
        if (rc == 0 && len > max_bytes) {
            error = path + " is " + std::to_string(len) + " bytes, over the " + std::to_string(max_bytes) + "-byte limit";
            return std::nullopt;
        }
    }
    git_blob* blob = nullptr;
    if (api.git_blob_lookup(&blob, r.repo, id) != 0) {
        error = path + ": " + r.lib->last_error("cannot read the blob");
        return std::nullopt;
    }
    std::string out(static_cast<const char*>(api.git_blob_rawcontent(blob)), static_cast<std::size_t>(api.git_blob_rawsize(blob)));
    api.git_blob_free(blob);
    if (out.size() > max_bytes) {
        error = path + " is over the " + std::to_string(max_bytes) + "-byte limit";
        return std::nullopt;
    }
    return out;
}

class TreeSnapshot final : public Repository::Snapshot {
public:
    TreeSnapshot(const Repository::Impl& r, git_tree* tree, std::string name) : r_(r), tree_(tree), name_(std::move(name)) {}
    ~TreeSnapshot() override { r_.api().git_tree_free(tree_); }
    std::string name() const override { return name_; }

    std::vector<Entry> list(const std::string& raw_prefix, std::size_t limit, bool& truncated) const override {
        truncated = false;
        std::vector<Entry> out;
        std::string prefix = normalise(raw_prefix);
        if (prefix.empty()) {
            walk(tree_, "", out, limit, truncated);
            return out;
        }
        const auto& api = r_.api();
        git_tree_entry* e = nullptr;
        if (api.git_tree_entry_bypath(&e, tree_, prefix.c_str()) != 0) return out;
        add(e, prefix, out, limit, truncated);
        api.git_tree_entry_free(e);
        std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.path < b.path; });
        return out;
    }

    std::optional<std::string> read(const std::string& raw, std::size_t max_bytes, std::string& error) const override {
        return read_entry(raw, /*link=*/false, max_bytes, error);
    }

    std::optional<std::string> read_link(const std::string& raw, std::string& error) const override {
        return read_entry(raw, /*link=*/true, kMaxLinkBytes, error);
    }

private:
    // The blob at `raw`: a file's content (`link` false) or a symlink's
    // target (`link` true); anything else is an error naming the path.
    std::optional<std::string> read_entry(const std::string& raw, bool link, std::size_t max_bytes,
                                          std::string& error) const {
        std::string path = normalise(raw);
        const auto& api = r_.api();
        git_tree_entry* e = nullptr;
        if (path.empty() || api.git_tree_entry_bypath(&e, tree_, path.c_str()) != 0) {
            error = path + " does not exist in " + name_;
            return std::nullopt;
        }
        std::optional<std::string> out;
        const bool is_link = api.git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
        if (link ? !is_link : (api.git_tree_entry_type(e) != GIT_OBJECT_BLOB || is_link))
            error = path + (link ? " is not a symlink in " : " is not a file in ") + name_;
        else
            out = read_blob(r_, api.git_tree_entry_id(e), path, max_bytes, error);
        api.git_tree_entry_free(e);
        return out;
    }

    // An entry found by path (owned by the caller) or by index (owned by its tree).
    void add(const git_tree_entry* e, const std::string& path, std::vector<Entry>& out, std::size_t limit,
             bool& truncated) const {
        const auto& api = r_.api();
        git_object_t type = api.git_tree_entry_type(e);
        if (type == GIT_OBJECT_TREE) {
            git_tree* sub = nullptr;
            if (api.git_tree_lookup(&sub, r_.repo, api.git_tree_entry_id(e)) == 0) {
                walk(sub, path + "/", out, limit, truncated);
                api.git_tree_free(sub);
            }
            return;
        }
        if (out.size() >= limit) {
            truncated = true;
            return;
        }
        Entry x;
        x.path = path;
        x.symlink = api.git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
        x.submodule = type == GIT_OBJECT_COMMIT;
        out.push_back(std::move(x));
    }

    void walk(const git_tree* tree, const std::string& base, std::vector<Entry>& out, std::size_t limit, bool& truncated) const {
        const auto& api = r_.api();
        std::size_t n = api.git_tree_entrycount(tree);
        for (std::size_t i = 0; i < n && !truncated; ++i) {
            const git_tree_entry* e = api.git_tree_entry_byindex(tree, i);
            add(e, base + api.git_tree_entry_name(e), out, limit, truncated);
        }
    }

    const Repository::Impl& r_;
    git_tree* tree_;
    std::string name_;
};

class IndexSnapshot final : public Repository::Snapshot {
public:
    IndexSnapshot(const Repository::Impl& r, git_index* index) : r_(r), index_(index) {}
    ~IndexSnapshot() override { r_.api().git_index_free(index_); }
    std::string name() const override { return "the index (staged changes)"; }

    std::vector<Entry> list(const std::string& raw_prefix, std::size_t limit, bool& truncated) const override {
        truncated = false;
        std::string prefix = normalise(raw_prefix);
        const auto& api = r_.api();
        std::vector<Entry> out;
        std::size_t n = api.git_index_entrycount(index_);
        for (std::size_t i = 0; i < n; ++i) {
            const git_index_entry* e = api.git_index_get_byindex(index_, i);
            if (!e || api.git_index_entry_stage(e) != 0 || !under(e->path, prefix)) continue;
            if (out.size() >= limit) {
                truncated = true;
                break;
            }
            Entry x;
            x.path = e->path;
            x.symlink = (e->mode & 0170000) == GIT_FILEMODE_LINK;
            x.submodule = (e->mode & 0170000) == GIT_FILEMODE_COMMIT;
            out.push_back(std::move(x));
        }
        return out;
    }

    std::optional<std::string> read(const std::string& raw, std::size_t max_bytes, std::string& error) const override {
        std::string path = normalise(raw);
        const auto& api = r_.api();
        const git_index_entry* e = api.git_index_get_bypath(index_, path.c_str(), 0);
        if (!e) {
            error = path + " is not staged (not in the index)";
            return std::nullopt;
        }
        if ((e->mode & 0170000) != 0100000) {  // a regular file, executable or not
            error = path + " is not a regular file in the index";
            return std::nullopt;
        }
        return read_blob(r_, &e->id, path, max_bytes, error);
    }

    std::optional<std::string> read_link(const std::string& raw, std::string& error) const override {
        std::string path = normalise(raw);
        const auto& api = r_.api();
        const git_index_entry* e = api.git_index_get_bypath(index_, path.c_str(), 0);
        if (!e || (e->mode & 0170000) != GIT_FILEMODE_LINK) {
            error = path + " is not a staged symlink";
            return std::nullopt;
        }
        return read_blob(r_, &e->id, path, kMaxLinkBytes, error);
    }

private:
    const Repository::Impl& r_;
    git_index* index_;
};

}  // namespace

Repository::Repository(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Repository::~Repository() = default;

std::unique_ptr<Repository> Repository::open(const std::string& path, std::string& error) {
    auto lib = Library::load(error);
    if (!lib) return nullptr;
    auto impl = std::make_unique<Impl>();
    impl->lib = lib;
    if (lib->api.git_repository_open_ext(&impl->repo, path.c_str(), 0, nullptr) != 0) {
        impl->repo = nullptr;
        error = "not a git repository (or any parent up to /): " + path + " (" + lib->last_error("cannot open") + ")";
        return nullptr;
    }
    return std::unique_ptr<Repository>(new Repository(std::move(impl)));
}

bool Repository::bare() const { return impl_->api().git_repository_is_bare(impl_->repo) == 1; }
bool Repository::shallow() const { return impl_->api().git_repository_is_shallow(impl_->repo) == 1; }

std::string Repository::workdir() const {
    const char* w = impl_->api().git_repository_workdir(impl_->repo);
    return w ? w : "";
}

std::unique_ptr<Repository::Snapshot> Repository::revision(const std::string& rev, std::string& error) {
    const auto& api = impl_->api();
    git_object* obj = nullptr;
    if (rev.empty() || rev.find('\0') != std::string::npos || api.git_revparse_single(&obj, impl_->repo, rev.c_str()) != 0) {
        error = "unknown revision \"" + rev + "\": " + impl_->lib->last_error("not found");
        if (shallow()) error += " (the repository is shallow: its history may end before it; fetch more, e.g. git fetch --unshallow)";
        return nullptr;
    }
    char id[8];  // 7 hex digits, as git abbreviates
    api.git_oid_tostr(id, sizeof id, api.git_object_id(obj));
    git_object* tree = nullptr;
    int rc = api.git_object_peel(&tree, obj, GIT_OBJECT_TREE);
    api.git_object_free(obj);
    if (rc != 0) {
        error = "revision \"" + rev + "\" does not name a commit or tree: " + impl_->lib->last_error("cannot peel");
        return nullptr;
    }
    return std::make_unique<TreeSnapshot>(*impl_, reinterpret_cast<git_tree*>(tree), rev + " (" + id + ")");
}

std::unique_ptr<Repository::Snapshot> Repository::staged(std::string& error) {
    if (bare()) {
        error = "the repository is bare: it has no index (staged changes) to read";
        return nullptr;
    }
    git_index* index = nullptr;
    if (impl_->api().git_repository_index(&index, impl_->repo) != 0) {
        error = "cannot read the index: " + impl_->lib->last_error("unknown error");
        return nullptr;
    }
    return std::make_unique<IndexSnapshot>(*impl_, index);
}

}  // namespace queueforge::git
