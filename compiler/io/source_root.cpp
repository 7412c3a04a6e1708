#include <queueforge/source_root.hpp>

#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

std::optional<std::string> resolve_inside(const std::string& root, const std::string& relative, std::string* why) {
    auto fail = [&](std::string w) -> std::optional<std::string> {
        if (why) *why = std::move(w);
        return std::nullopt;
    };
    if (relative.empty()) return fail("empty path");
    fs::path rel(relative);
    if (rel.is_absolute()) return fail("\"" + relative + "\" is absolute; give a path relative to the app's source folder");
    for (const auto& part : rel)
        if (part == "..") return fail("\"" + relative + "\" climbs out with \"..\"");
    std::error_code ec;
    fs::path base = fs::canonical(root, ec);
    if (ec) return fail("cannot resolve the source folder: " + ec.message());
    // canonical() follows every symlink on the way, so a link that points
    // outside the root shows up as a path that no longer starts with it.
    fs::path full = fs::weakly_canonical(base / rel, ec);
    if (ec) return fail("cannot resolve \"" + relative + "\": " + ec.message());
    auto b = base.begin(), f = full.begin();
    for (; b != base.end(); ++b, ++f)
        if (f == full.end() || *f != *b) return fail("\"" + relative + "\" resolves outside the app's source folder (a symlink?)");
    return full.string();
}

}  // namespace queueforge
