#include "engines/timeline/recording.hpp"

#include <algorithm>
#include <cmath>

namespace queueforge::timeline::detail {

void UsageTrack::change(std::int64_t t, std::int64_t delta) {
    if (delta == 0) return;
    current += delta;
    peak = std::max(peak, current);
    if (!points.empty() && points.back().first == t) points.back().second = current;
    else points.emplace_back(t, current);
}

double UsageTrack::integral(std::int64_t from, std::int64_t to) const {
    if (to <= from) return 0;
    double sum = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        std::int64_t start = std::max(points[i].first, from);
        std::int64_t end = i + 1 < points.size() ? std::min(points[i + 1].first, to) : to;
        if (end > start) sum += static_cast<double>(points[i].second) * static_cast<double>(end - start);
    }
    return sum;
}

int QueueTrack::resource_index(const std::string& r) const {
    for (std::size_t i = 0; i < resources.size(); ++i)
        if (resources[i] == r) return static_cast<int>(i);
    return -1;
}

Stats stats_of(std::vector<std::int64_t> v) {
    Stats s;
    s.count = static_cast<std::int64_t>(v.size());
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    long double sum = 0;
    for (auto x : v) sum += x;
    s.mean = static_cast<std::int64_t>(std::floor(sum / v.size()));
    auto rank = [&](double p) {
        std::size_t k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
        return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
    };
    s.p50 = rank(0.50);
    s.p95 = rank(0.95);
    s.max = v.back();
    return s;
}

Series series_of(const std::vector<const UsageTrack*>& tracks, std::int64_t nominal, std::int64_t end_ms, int points) {
    Series s;
    if (end_ms <= 0 || points <= 0) return s;
    s.interval_ms = std::max<std::int64_t>(1, (end_ms + points - 1) / points);
    for (std::int64_t from = 0; from < end_ms; from += s.interval_ms) {
        std::int64_t to = std::min(end_ms, from + s.interval_ms);
        double used = 0;
        for (const auto* t : tracks) used += t->integral(from, to);
        double pct = nominal > 0 ? used * 100.0 / (static_cast<double>(nominal) * static_cast<double>(to - from)) : 0;
        s.percent.push_back(round_percent(pct));
    }
    return s;
}

double round_percent(double v) { return std::round(v * 100.0) / 100.0; }

}  // namespace queueforge::timeline::detail
