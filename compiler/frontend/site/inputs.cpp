// site_inputs: the files a site's build reads (site_inputs.hpp).
#include <queueforge/frontend/site_inputs.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <algorithm>
#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

std::vector<std::string> site_inputs(const std::string& site_file) {
    std::vector<std::string> out{fs::path(site_file).lexically_normal().generic_string()};
    Diagnostics quiet;  // the site's own check reports these
    std::vector<SourceText> bases;
    auto site = load_site_file(site_file, quiet, nullptr, &bases);
    // The site file, every base of its extends chain and every job file:
    // what load_site_file read (Site::inputs). A site with errors still
    // reaches its bases (they are read before the merged site is parsed), so
    // a staged base change checks the broken site too.
    if (site)
        for (const auto& input : site->inputs) out.push_back(fs::path(input).lexically_normal().generic_string());
    for (const auto& b : bases) out.push_back(fs::path(b.path).lexically_normal().generic_string());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace queueforge
