#include <queueforge/engines/capacity.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <filesystem>

namespace queueforge::capacity {

std::optional<Report> load(const std::string& path, const LoadOptions& opts, Diagnostics& diags,
                           std::vector<SourceText>& sources) {
    // A folder means the site file inside it, as for every other command.
    std::string file = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) file = (std::filesystem::path(path) / "queueforge-site.yaml").string();
    std::string text;
    std::vector<SourceText> bases;
    auto site = load_site_file(file, diags, &text, &bases);
    sources.push_back({file, text});
    sources.insert(sources.end(), bases.begin(), bases.end());
    if (!site) return std::nullopt;
    auto lowered = lower_site(*site, diags, {.target_override = opts.target});
    if (!lowered || diags.has_errors()) return std::nullopt;
    return compute(*site, *lowered);
}

}  // namespace queueforge::capacity
