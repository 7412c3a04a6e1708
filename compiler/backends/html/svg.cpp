#include "backends/html/svg.hpp"

#include "backends/html/markup.hpp"

#include <algorithm>
#include <cmath>

namespace queueforge::html {

namespace {

std::string px(double v) { return fixed(v, 1); }

std::string svg_open(int w, int h, const std::string& css_class, const std::string& title) {
    // Inline SVG in HTML needs no xmlns; leaving it out keeps the document
    // free of any URL at all.
    std::string s = "<svg width=\"" + std::to_string(w) + "\" height=\"" +
                    std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) +
                    "\" role=\"img\"";
    if (!css_class.empty()) s += " class=\"" + esc(css_class) + "\"";
    s += " aria-label=\"" + esc(title) + "\">";
    if (!title.empty()) s += "<title>" + esc(title) + "</title>";
    return s;
}

// A "nice" axis step (1, 2, 2.5 or 5 x 10^n) giving about four intervals.
double nice_step(double max) {
    if (!(max > 0) || !std::isfinite(max)) return 25;
    double raw = max / 4;
    double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

// Time ticks: the smallest round step giving at most seven labels.
std::int64_t time_step(std::int64_t total_ms) {
    static constexpr std::int64_t kSteps[] = {1000, 5000, 10000, 30000, 60000, 300000, 600000, 900000, 1800000,
                                             3600000, 7200000, 10800000, 21600000, 43200000, 86400000, 604800000};
    for (std::int64_t s : kSteps)
        if (total_ms / s <= 7) return s;
    std::int64_t s = 604800000;
    while (total_ms / s > 7 && s < (std::int64_t{1} << 60)) s *= 2;
    return s;
}

}  // namespace

std::string bar_chart(const std::vector<Bar>& bars, const BarChartOptions& o) {
    const int top = 4;
    const int h = top * 2 + static_cast<int>(bars.size()) * o.row_height;
    const double x0 = o.label_width;
    const double bw = std::max(40, o.width - o.label_width - o.value_width - 8);
    const double bh = o.row_height - 8;
    std::string s = svg_open(o.width, h, o.css_class, o.title);
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        const double y = top + static_cast<double>(i) * o.row_height + 4;
        const double scale = b.scale > 0 && std::isfinite(b.scale) ? b.scale : 0;
        auto xs = [&](double v) { return scale > 0 ? std::clamp(v / scale, 0.0, 1.0) * bw : 0.0; };
        s += "<g class=\"bar\">";
        s += "<text class=\"label\" x=\"" + px(x0 - 6) + "\" y=\"" + px(y + bh - 3) + "\" text-anchor=\"end\">" +
             esc(shorten(b.label, static_cast<std::size_t>(o.label_width / 7))) + "<title>" + esc(b.label) + "</title></text>";
        s += "<rect class=\"track\" x=\"" + px(x0) + "\" y=\"" + px(y) + "\" width=\"" + px(bw) + "\" height=\"" + px(bh) + "\"/>";
        double at = 0;
        for (const Segment& seg : b.segments) {
            if (!(seg.value > 0) || !std::isfinite(seg.value)) continue;
            double x = xs(at), w = xs(at + seg.value) - x;
            at += seg.value;
            if (w <= 0) continue;
            s += "<rect x=\"" + px(x0 + x) + "\" y=\"" + px(y) + "\" width=\"" + px(w) + "\" height=\"" + px(bh) + "\" fill=\"" +
                 esc(seg.color) + "\"";
            if (seg.opacity < 1) s += " fill-opacity=\"" + fixed(seg.opacity, 2) + "\"";
            if (seg.outline) s += " stroke=\"" + esc(seg.color) + "\" stroke-dasharray=\"3 2\"";
            s += "><title>" + esc(seg.title) + "</title></rect>";
        }
        if (b.marker && scale > 0) {
            double x = x0 + xs(*b.marker);
            s += "<line class=\"marker\" x1=\"" + px(x) + "\" x2=\"" + px(x) + "\" y1=\"" + px(y - 3) + "\" y2=\"" +
                 px(y + bh + 3) + "\"><title>" + esc(b.marker_title) + "</title></line>";
        }
        s += "<text class=\"value" + std::string(b.warn ? " warn" : "") + "\" x=\"" + px(x0 + bw + 8) + "\" y=\"" +
             px(y + bh - 3) + "\">" + esc(b.value_text) + "</text>";
        s += "</g>";
    }
    return s + "</svg>";
}

std::string line_chart(const std::vector<Line>& lines, const LineChartOptions& o) {
    const double left = 44, right = 10, top = 8, bottom = 22;
    const double pw = std::max(40.0, o.width - left - right);
    const double ph = std::max(40.0, o.height - top - bottom);
    std::size_t n = 0;
    double ymax = o.reference.value_or(0);
    for (const Line& l : lines) {
        n = std::max(n, l.values.size());
        for (double v : l.values)
            if (std::isfinite(v)) ymax = std::max(ymax, v);
    }
    const double step = nice_step(ymax);
    ymax = std::max(step, std::ceil(ymax / step - 1e-9) * step);
    std::string s = svg_open(o.width, o.height, o.css_class, o.title);
    auto yof = [&](double v) { return top + ph - std::clamp(std::isfinite(v) ? v : 0.0, 0.0, ymax) / ymax * ph; };
    auto xof = [&](std::size_t i) { return left + (static_cast<double>(i) + 0.5) / static_cast<double>(std::max<std::size_t>(n, 1)) * pw; };
    // Grid and y labels.
    for (int k = 0; k * step <= ymax + 1e-9 && k < 50; ++k) {
        double y = yof(k * step);
        s += "<line class=\"gridline\" x1=\"" + px(left) + "\" x2=\"" + px(left + pw) + "\" y1=\"" + px(y) + "\" y2=\"" + px(y) + "\"/>";
        s += "<text class=\"axis\" x=\"" + px(left - 4) + "\" y=\"" + px(y + 3) + "\" text-anchor=\"end\">" +
             esc(fixed(k * step, step < 1 ? 1 : 0) + o.y_suffix) + "</text>";
    }
    // Time labels.
    const std::int64_t total = o.step_ms > 0 ? o.step_ms * static_cast<std::int64_t>(n) : 0;
    if (total > 0) {
        const std::int64_t ts = time_step(total);
        for (std::int64_t t = 0; t <= total && t / ts <= 64; t += ts) {
            double x = left + static_cast<double>(t) / static_cast<double>(total) * pw;
            s += "<text class=\"axis\" x=\"" + px(x) + "\" y=\"" + px(top + ph + 14) + "\" text-anchor=\"middle\">" +
                 esc(t == 0 ? std::string("0") : duration(t)) + "</text>";
        }
    }
    if (o.reference) {
        double y = yof(*o.reference);
        s += "<line class=\"reference\" x1=\"" + px(left) + "\" x2=\"" + px(left + pw) + "\" y1=\"" + px(y) + "\" y2=\"" +
             px(y) + "\"><title>" + esc(o.reference_label) + "</title></line>";
    }
    for (const Line& l : lines) {
        if (l.values.empty()) continue;
        std::string pts;
        for (std::size_t i = 0; i < l.values.size(); ++i)
            pts += (i ? " " : "") + px(xof(i)) + "," + px(yof(l.values[i]));
        if (l.area) {
            std::string poly = px(xof(0)) + "," + px(yof(0)) + " " + pts + " " + px(xof(l.values.size() - 1)) + "," + px(yof(0));
            s += "<polygon points=\"" + poly + "\" fill=\"" + esc(l.color) + "\" fill-opacity=\"0.18\" stroke=\"none\"/>";
        }
        s += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + esc(l.color) +
             "\" stroke-width=\"1.8\"><title>" + esc(l.name) + "</title></polyline>";
    }
    if (total > 0)
        for (const auto& [t, title] : o.markers) {
            double x = left + static_cast<double>(std::clamp<std::int64_t>(t, 0, total)) / static_cast<double>(total) * pw;
            s += "<line class=\"preemption\" x1=\"" + px(x) + "\" x2=\"" + px(x) + "\" y1=\"" + px(top) + "\" y2=\"" + px(top + ph) +
                 "\" stroke=\"#d62728\" stroke-width=\"1.2\" stroke-dasharray=\"3,2\"><title>" + esc(title) + "</title></line>";
        }
    s += "<rect class=\"frame\" x=\"" + px(left) + "\" y=\"" + px(top) + "\" width=\"" + px(pw) + "\" height=\"" + px(ph) + "\"/>";
    return s + "</svg>";
}

std::string legend(const std::vector<LegendItem>& items) {
    std::string s = "<ul class=\"legend\">";
    for (const auto& i : items) {
        s += "<li><span class=\"swatch" + std::string(i.outline ? " outline" : "") + "\" style=\"background:" + esc(i.color);
        if (i.opacity < 1) s += ";opacity:" + fixed(i.opacity, 2);
        if (i.outline) s += ";border-color:" + esc(i.color);
        s += "\"></span>" + esc(i.name) + "</li>";
    }
    return s + "</ul>";
}

}  // namespace queueforge::html
