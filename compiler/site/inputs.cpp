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
    if (site) {
        const fs::path dir = fs::path(site_file).parent_path();
        for (const auto& w : site->workloads)
            if (!w.file.value.empty() && !fs::path(w.file.value).is_absolute())
                out.push_back((dir / w.file.value).lexically_normal().generic_string());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace queueforge
