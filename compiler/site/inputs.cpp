// site_inputs: the files a site's build reads (site_inputs.hpp).
#include <queueforge/site_inputs.hpp>
#include <queueforge/site_parse.hpp>

#include <algorithm>
#include <filesystem>

namespace queueforge {

namespace fs = std::filesystem;

std::vector<std::string> site_inputs(const std::string& site_file) {
    std::vector<std::string> out{fs::path(site_file).lexically_normal().generic_string()};
    Diagnostics quiet;  // the site's own check reports these
    auto site = load_site_file(site_file, quiet);
    // The site file, every base of its extends chain and every job file:
    // what load_site_file read (Site::inputs).
    if (site)
        for (const auto& input : site->inputs) out.push_back(fs::path(input).lexically_normal().generic_string());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace queueforge
