#include "cli.hpp"

#include <filesystem>
#include <iostream>

namespace queueforge::cli {

std::string site_path(const std::string& arg) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) return (std::filesystem::path(arg) / kSiteFileName).string();
    return arg;
}

int report(Diagnostics& diags, const std::vector<SourceText>& sources, bool strict) {
    if (strict) diags.promote_warnings();
    diags.sort();
    std::cerr << render_text(diags, sources);
    return diags.has_errors() ? kInvalid : kOk;
}

}  // namespace queueforge::cli
