#pragma once
// Chart primitives of the HTML report as inline SVG strings: horizontal
// stacked bars with a marker line, and line/area charts over time. Callers
// pass plain text; everything is escaped here. Coordinates are written with
// fixed decimals, so the same data gives the same bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::html {

struct Segment {
    double value = 0;
    std::string color;
    double opacity = 1;
    bool outline = false;  // drawn as a dashed outline (e.g. what may be borrowed)
    std::string title;     // tooltip
};

struct Bar {
    std::string label;                // left of the bar (shortened to fit)
    std::vector<Segment> segments;    // stacked from zero
    double scale = 0;                 // the value at full width
    std::optional<double> marker;     // a vertical line (capacity)
    std::string marker_title;
    std::string value_text;           // right of the bar
    bool warn = false;                // value text in the warning colour
};

struct BarChartOptions {
    int width = 560;
    int label_width = 120;
    int value_width = 170;
    int row_height = 22;
    std::string css_class;  // on the <svg>
    std::string title;      // accessible name
};

std::string bar_chart(const std::vector<Bar>& bars, const BarChartOptions& o);

struct Line {
    std::string name;
    std::string color;
    std::vector<double> values;
    bool area = false;  // filled down to zero
};

struct LineChartOptions {
    int width = 560;
    int height = 170;
    std::int64_t step_ms = 0;           // time covered by one value
    std::optional<double> reference;    // a dashed horizontal line (100% = nominal)
    std::string reference_label;
    std::string y_suffix = "%";
    std::string css_class;
    std::string title;
    // Vertical ticks at these times (ms), each with its tooltip: the
    // timeline's preemptions.
    std::vector<std::pair<std::int64_t, std::string>> markers;
};

std::string line_chart(const std::vector<Line>& lines, const LineChartOptions& o);

// A legend as HTML: colour swatches with names.
struct LegendItem {
    std::string name;
    std::string color;
    double opacity = 1;
    bool outline = false;
};
std::string legend(const std::vector<LegendItem>& items);

}  // namespace queueforge::html
