#pragma once
// Small pieces every part of the HTML report uses: escaping, fixed number
// formatting (the same bytes on every run), durations, the team palette.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace queueforge::html {

// For element content and double-quoted attribute values alike.
std::string esc(std::string_view s);

// `v` with exactly `decimals` decimals ("12.5", "3"); non-finite values are 0
// and "-0" is written "0", so charts never carry NaN or a signed zero.
std::string fixed(double v, int decimals);

// At most `max` code points, the rest replaced by an ellipsis (SVG text does
// not wrap or clip by itself). Returns unescaped text.
std::string shorten(std::string_view s, std::size_t max);

// 850ms, 12.3s, 4m05s, 2h03m (the timeline text report's spelling).
std::string duration(std::int64_t ms);

// Colours for teams, assigned in the capacity report's team order so one team
// has one colour in every chart.
class Palette {
public:
    void add(const std::string& queue);
    const char* color(const std::string& queue) const;  // grey for unknown queues and cohorts
    static const char* cohort_color();

private:
    std::map<std::string, std::size_t> index_;
};

}  // namespace queueforge::html
