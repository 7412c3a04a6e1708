#pragma once
// The one confinement rule for every file queueforge reads (README, "Source
// root"). A repository handed to queueforge (a pull request in CI, any repo
// Argo CD renders) must not make it read files outside that repository:
//
//   * The source root of a path is the top of the git work tree that holds it
//     (the nearest folder above it with a `.git` entry, or with the marker a
//     git revision written out for reading carries, kSnapshotMarker); outside
//     any work tree it is the folder that holds the path (for a folder, the
//     folder itself).
//   * A file is read only when it resolves, through every symlink, to a place
//     inside its source root; otherwise it is refused with a message naming
//     the path (rule io.outside-root), and not opened.
//   * References inside a file (a job `file:`, a site given to Argo CD as a
//     parameter) are relative paths that must stay inside their base folder:
//     no absolute path, no "..", no symlink out (resolve_inside).
//
// Paths under /dev and /proc/self/fd (`-`, /dev/stdin, `<(...)`) name
// streams the user handed over, not repository content, and are exempt.
#include <optional>
#include <string>

namespace queueforge {

// Written at the top of a git revision's (or the index's) files written out
// for reading: that folder is the revision's work tree, its source root.
inline constexpr const char* kSnapshotMarker = ".queueforge-snapshot";

// The source root of `path`, absolute and free of "." and ".." (not resolved
// through symlinks).
std::string source_root_of(const std::string& path);

// `path` resolved through symlinks when it stays inside `root`, else nullopt
// with `why` set ("<path> resolves to <target>, outside the source root
// <root>; not read"). A path that cannot be resolved at all (a symlink loop)
// is returned as given: it cannot be opened, and its reader says so.
std::optional<std::string> confine(const std::string& root, const std::string& path, std::string* why);

// confine(source_root_of(path), path); streams (see above) pass unchanged.
std::optional<std::string> confine_input(const std::string& path, std::string* why);

// The canonical path of `relative` inside `root`, or nullopt with `why` set:
// refuses absolute paths, ".." and symlinks leading out of `root` (a path
// that cannot be resolved is returned unresolved, as confine does).
std::optional<std::string> resolve_inside(const std::string& root, const std::string& relative, std::string* why);

}  // namespace queueforge
