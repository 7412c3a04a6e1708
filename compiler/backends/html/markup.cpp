#include "backends/html/markup.hpp"

#include <queueforge/backends/html_report.hpp>

#include <array>
#include <cmath>
#include <cstdio>

namespace queueforge::html {

std::string esc(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            // Control characters are not allowed in HTML text; a name or a
            // message carrying one is shown with a replacement character.
            default:
                if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += "\xEF\xBF\xBD";
                else out += c;
        }
    }
    return out;
}

std::string fixed(double v, int decimals) {
    if (!std::isfinite(v)) v = 0;
    // Clamp to what a chart can mean: beyond +-1e12 nothing is drawable anyway.
    v = std::fmax(-1e12, std::fmin(1e12, v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-') {
        bool zero = true;
        for (char c : s.substr(1)) zero = zero && (c == '0' || c == '.');
        if (zero) s.erase(0, 1);
    }
    return s;
}

std::string shorten(std::string_view s, std::size_t max) {
    std::size_t points = 0, cut = s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
        if (points == max - 1 && cut == s.size()) cut = i;
        ++points;
    }
    if (points <= max || max == 0) return std::string(s);
    return std::string(s.substr(0, cut)) + "\xE2\x80\xA6";
}

std::string duration(std::int64_t ms) {
    char buf[64];
    if (ms < 0) ms = 0;
    if (ms < 1000) std::snprintf(buf, sizeof buf, "%lldms", static_cast<long long>(ms));
    else if (ms < 60000) std::snprintf(buf, sizeof buf, "%lld.%llds", static_cast<long long>(ms / 1000), static_cast<long long>(ms / 100 % 10));
    else if (ms < 3600000) std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(ms / 60000), static_cast<long long>(ms / 1000 % 60));
    else std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(ms / 3600000), static_cast<long long>(ms / 60000 % 60));
    return buf;
}

namespace {
// Tableau 10: distinguishable, and readable on white.
constexpr std::array<const char*, 10> kColors = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                                 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
}  // namespace

void Palette::add(const std::string& queue) { index_.emplace(queue, index_.size()); }

const char* Palette::color(const std::string& queue) const {
    auto it = index_.find(queue);
    return it == index_.end() ? cohort_color() : kColors[it->second % kColors.size()];
}

const char* Palette::cohort_color() { return "#8c8c8c"; }

}  // namespace queueforge::html

namespace queueforge::html_report {

std::string escape(std::string_view text) { return html::esc(text); }

}  // namespace queueforge::html_report
