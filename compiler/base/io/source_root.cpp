#include <queueforge/base/source_root.hpp>

#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

namespace {

// True when `inner` is `outer` or below it (both canonical).
bool within(const fs::path& outer, const fs::path& inner) {
    auto o = outer.begin(), i = inner.begin();
    for (; o != outer.end(); ++o, ++i)
        if (i == inner.end() || *i != *o) return false;
    return true;
}

bool is_stream(const fs::path& abs) {
    const std::string s = abs.string();
    return s == "/dev/stdin" || s.starts_with("/dev/fd/") || s.starts_with("/proc/self/fd/");
}

}  // namespace

std::string source_root_of(const std::string& path) {
    std::error_code ec;
    const fs::path abs = fs::absolute(fs::path(path), ec).lexically_normal();
    fs::path p = abs;
    if (!p.has_filename()) p = p.parent_path();  // "dir/" is dir
    // The folder a reference is relative to: a real folder itself (not a
    // symlink, whose target is what is being checked), else its parent.
    const fs::file_status st = fs::symlink_status(p, ec);
    fs::path start = fs::is_directory(st) ? p : p.parent_path();
    for (fs::path dir = start;; dir = dir.parent_path()) {
        if (fs::exists(fs::symlink_status(dir / ".git", ec)) || fs::exists(fs::symlink_status(dir / kSnapshotMarker, ec)))
            return dir.string();
        if (dir == dir.root_path() || !dir.has_relative_path()) break;
    }
    return start.string();
}

std::optional<std::string> confine(const std::string& root, const std::string& path, std::string* why) {
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(fs::absolute(root, ec), ec);
    // weakly_canonical resolves every symlink that exists on the way, the
    // last component included; what does not exist stays as written (and
    // is then reported by the reader as missing).
    const fs::path real = fs::weakly_canonical(fs::absolute(path, ec), ec);
    // A path that cannot be resolved (a symlink loop, no permission) cannot
    // be opened either: the reader reports it as unreadable.
    if (ec) return path;
    if (!within(base, real)) {
        if (why)
            *why = path + " resolves to " + real.string() + ", outside the source root " + base.string() +
                   " (a symlink?); not read";
        return std::nullopt;
    }
    return real.string();
}

std::optional<std::string> confine_input(const std::string& path, std::string* why) {
    std::error_code ec;
    if (path == "-" || is_stream(fs::absolute(fs::path(path), ec).lexically_normal())) return path;
    return confine(source_root_of(path), path, why);
}

std::optional<std::string> resolve_inside(const std::string& root, const std::string& relative, std::string* why) {
    auto fail = [&](std::string w) -> std::optional<std::string> {
        if (why) *why = std::move(w);
        return std::nullopt;
    };
    if (relative.empty()) return fail("empty path");
    fs::path rel(relative);
    if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
        return fail("\"" + relative + "\" is absolute; give a path relative to its folder");
    for (const auto& part : rel)
        if (part == "..") return fail("\"" + relative + "\" climbs out with \"..\"");
    std::error_code ec;
    fs::path base = fs::canonical(root.empty() ? fs::path(".") : fs::path(root), ec);
    if (ec) return fail("cannot resolve the folder \"" + root + "\": " + ec.message());
    // canonical() follows every symlink on the way, so a link that points
    // outside the root shows up as a path that no longer starts with it.
    fs::path full = fs::weakly_canonical(base / rel, ec);
    // Unresolvable (a symlink loop): not readable either; the reader says so.
    if (ec) return (base / rel).string();
    if (!within(base, full)) return fail("\"" + relative + "\" resolves to " + full.string() + ", outside its folder (a symlink?)");
    return full.string();
}

}  // namespace queueforge
