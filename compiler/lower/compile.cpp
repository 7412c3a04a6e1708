#include <queueforge/compile.hpp>
#include <queueforge/frontend/site_parse.hpp>

namespace queueforge {

std::optional<Lowered> compile_site(const std::string& path, const std::string& text, Diagnostics& diags,
                                    const LowerOptions& opts) {
    auto site = parse_site_text(path, text, diags);
    if (!site) return std::nullopt;
    return lower_site(*site, diags, opts);
}

}  // namespace queueforge
