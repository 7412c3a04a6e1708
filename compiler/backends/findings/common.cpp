#include "backends/findings/common.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_set>

namespace queueforge::findings {

std::vector<std::string> report_files(const Diagnostics& diags, const ReportContext& ctx) {
    std::vector<std::string> files;
    // A set beside the list: a linear search per object and finding was
    // quadratic in the number of files.
    std::unordered_set<std::string> seen;  // not views: a finding's file is a CompactString, passed here as a copy
    auto add = [&](std::string_view f) {
        if (!f.empty() && seen.emplace(f).second) files.emplace_back(f);
    };
    for (const auto& f : ctx.inputs) add(f);
    for (const auto& f : ctx.object_files) add(f);
    for (const auto& o : ctx.objects) add(o.file);
    for (const auto& d : diags.all()) add(d.file);
    return files;
}

std::vector<std::pair<std::string, std::size_t>> sorted_kinds(const ReportContext& ctx) {
    auto kinds = ctx.per_kind;
    std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return kinds;
}

std::string plural(std::size_t n, std::string_view word) {
    std::string s = std::to_string(n) + " " + std::string(word);
    if (n != 1) s += 's';
    return s;
}

std::string summary_line(const Diagnostics& diags, const ReportContext& ctx) {
    return plural(report_files(diags, ctx).size(), "file") + ", " + plural(ctx.objects_checked, "object") + ": " +
           plural(diags.count(Severity::Error), "error") + ", " + plural(diags.count(Severity::Warning), "warning") +
           ", " + plural(diags.count(Severity::Note), "note");
}

std::string finding_context(const Diagnostic& d) {
    std::string s;
    if (!d.object.empty()) s = "in " + d.object.display();
    if (!d.path.empty()) s += (s.empty() ? "at " : " at ") + d.path;
    // Object names and paths are input: shown escaped, as messages are.
    return escape_controls(s);
}

std::string headline(const Diagnostic& d) {
    // render_text owns the wording; without sources it prints just this line.
    const std::vector<SourceText> none;
    SourceIndex index(none);
    std::string line = render_text(d, index);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    return line;
}

std::string valid_utf8(std::string_view s) {
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        char32_t cp = 0;
        if (b0 < 0x80) {
            out += s[i++];
            continue;
        }
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            len = 2;
            cp = b0 & 0x1Fu;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            len = 3;
            cp = b0 & 0x0Fu;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            len = 4;
            cp = b0 & 0x07u;
        }
        bool ok = len != 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            ok = (b & 0xC0u) == 0x80u;
            cp = (cp << 6) | (b & 0x3Fu);
        }
        // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are
        // as invalid as a stray continuation byte.
        static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
        if (ok) ok = cp >= kMin[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        if (ok) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += kReplacement;
            ++i;
        }
    }
    return out;
}

}  // namespace queueforge::findings
