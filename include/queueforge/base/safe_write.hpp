#pragma once
// Writing files without following symlinks: every file queueforge writes is
// created fresh (O_CREAT|O_EXCL|O_NOFOLLOW), so a symlink planted where a
// temporary or output file goes is never written through; whole-file
// replacement goes through such a fresh file and a rename, which replaces a
// symlink at the target itself, never the file it points to.
#include <string>
#include <string_view>

namespace queueforge {

// Creates `path`, which must not exist (not even as a dangling symlink), and
// writes `bytes` to it; with `sync`, flushed to disk before returning.
// false and `error` (naming the path) otherwise; a partial file is removed.
bool create_file(const std::string& path, std::string_view bytes, std::string& error, bool sync = false);

// Replaces `path` with `bytes` through a fresh hidden file beside it and one
// rename, so the file is either the old one or wholly the new one.
bool replace_file_atomically(const std::string& path, std::string_view bytes, std::string& error);

}  // namespace queueforge
