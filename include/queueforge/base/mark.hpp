#pragma once
// A position in a source file. Lines and columns are 1-based; 0 means "unknown".
#include <memory>
#include <string>
#include <utility>

namespace queueforge {

// The path of the file a position is in, as one pointer (8 bytes; a
// std::shared_ptr is 16). Every Node of a parsed tree holds a Mark (a map
// entry's key only its line and column: its file is its value's), so its
// size is a fixed cost per node of every tree, while a path is
// set only on the nodes a site takes from the bases it extends (a few hundred
// at most): a copy copies the path.
class FileRef {
public:
    FileRef() = default;
    explicit FileRef(std::string path) : path_(std::make_unique<const std::string>(std::move(path))) {}
    FileRef(const FileRef& o) : path_(o.path_ ? std::make_unique<const std::string>(*o.path_) : nullptr) {}
    FileRef(FileRef&&) noexcept = default;
    FileRef& operator=(const FileRef& o) {
        if (this != &o) path_ = o.path_ ? std::make_unique<const std::string>(*o.path_) : nullptr;
        return *this;
    }
    FileRef& operator=(FileRef&&) noexcept = default;
    ~FileRef() = default;

    explicit operator bool() const { return path_ != nullptr; }
    const std::string& operator*() const { return *path_; }
    const std::string* operator->() const { return path_.get(); }
    void reset() { path_.reset(); }
    friend bool operator==(const FileRef& a, const FileRef& b) {
        if (!a.path_ || !b.path_) return !a.path_ && !b.path_;
        return *a.path_ == *b.path_;
    }

private:
    std::unique_ptr<const std::string> path_;
};

struct Mark {
    int line = 0;
    int col = 0;
    // The file this position is in when it is not the file of the document
    // being read: a site's merged tree (site_parse.hpp, spec.extends) holds
    // nodes set by the bases it extends, and each of those keeps its base's
    // path here. Null for a position in the document's own file. A finding
    // made at such a mark names this file (Diagnostics::add).
    FileRef file;

    bool known() const { return line > 0; }
    friend bool operator==(const Mark& a, const Mark& b) {
        return a.line == b.line && a.col == b.col && a.file == b.file;
    }
};

}  // namespace queueforge
