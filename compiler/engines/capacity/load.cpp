#include <queueforge/engines/capacity.hpp>

#include <queueforge/compile.hpp>

#include <filesystem>

namespace queueforge::capacity {

std::optional<Report> load(const std::string& path, const LoadOptions& opts, Diagnostics& diags,
                           std::vector<SourceText>& sources) {
    // A folder means the site file inside it, as for every other command.
    std::string file = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) file = (std::filesystem::path(path) / "queueforge-site.yaml").string();
    Compilation c = compile({.path = file, .target = opts.target, .build_model = true});
    diags.append(c.diagnostics);
    sources.insert(sources.end(), c.sources.texts().begin(), c.sources.texts().end());
    if (!c.ok()) return std::nullopt;
    return compute(*c.site, *c.lowered, std::move(c.model));
}

}  // namespace queueforge::capacity
