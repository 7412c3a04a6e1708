// Kueue's rangespec.yaml (test/performance/scheduler/checker): read strictly
// and checked against a timeline report the way Kueue's checker does.
#include <queueforge/engines/timeline.hpp>
#include <queueforge/base/yaml_load.hpp>

#include "frontend/site/reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

namespace queueforge::timeline {

namespace {

using site::Reader;

// The value of a YAML float scalar (go-yaml's spellings: a sign, `_`
// separators), or nothing when it is not finite (.inf, .nan) or unreadable.
std::optional<double> finite_number(std::string text) {
    std::erase(text, '_');
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    double value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || end != digits.data() + digits.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

template <typename T>
void read_class_map(const Reader& r, const Node* n, const std::string& what, const std::string& tag,
                    std::vector<std::pair<std::string, T>>& out, Thresholds& t) {
    if (!n) return;
    if (!n->is_map()) {
        r.error(n->mark(), what + ": expected a map of class name to limit", r.rule("type"));
        return;
    }
    for (const auto& e : n->entries()) {
        const Node& v = e.value;
        bool number = v.kind() == Node::Kind::Int || v.kind() == Node::Kind::Float;
        if (!number || (std::is_integral_v<T> && v.kind() != Node::Kind::Int)) {
            r.error(v.mark(), what + "." + e.key + ": expected " + (std::is_integral_v<T> ? "an integer" : "a number"),
                    r.rule("type"));
            continue;
        }
        if constexpr (std::is_integral_v<T>) {
            out.emplace_back(e.key, v.as_int().value_or(0));
        } else {
            // A YAML float may be .inf or .nan, which no limit can be.
            auto number_value = finite_number(v.text());
            if (!number_value) {
                r.error(v.mark(), what + "." + e.key + ": expected a finite number", r.rule("type"));
                continue;
            }
            out.emplace_back(e.key, *number_value);
        }
        t.class_marks.emplace_back(tag + e.key, e.key_mark());
    }
}

std::optional<std::int64_t> read_limit(const Reader& r, const Node* n, const std::string& what) {
    std::optional<site::Located<std::int64_t>> v;
    r.read_int(n, what, v, 0, INT64_MAX);
    if (!v || v->value == 0) return std::nullopt;  // Kueue: an unset limit is 0
    return v->value;
}

// Up to two decimals, trailing zeros dropped.
std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
}

Mark mark_for(const Thresholds& t, const std::string& key) {
    for (const auto& [k, m] : t.class_marks)
        if (k == key) return m;
    return {};
}

}  // namespace

std::optional<Thresholds> parse_thresholds(const std::string& file, const std::string& text, Diagnostics& diags) {
    const std::size_t before = diags.count(Severity::Error);
    auto docs = load_yaml(file, text, diags);
    if (diags.count(Severity::Error) > before) return std::nullopt;
    Reader r{file, diags, "timeline"};
    Thresholds t;
    t.file = file;
    if (docs.empty()) return t;
    const Node& root = docs[0].root;
    if (!r.expect_map(root, "thresholds", {"cmd", "clusterQueueClassesMinUsage", "wlClassesMaxAvgTimeToAdmissionMs",
                                           "wlClassesMaxP95TimeToAdmissionMs"}))
        return std::nullopt;
    if (const Node* cmd = root.find("cmd"); cmd && r.expect_map(*cmd, "cmd", {"maxWallMs", "mCPU", "maxrss"})) {
        t.max_wall_ms = read_limit(r, cmd->find("maxWallMs"), "cmd.maxWallMs");
        t.max_mcpu = read_limit(r, cmd->find("mCPU"), "cmd.mCPU");
        t.max_rss_kib = read_limit(r, cmd->find("maxrss"), "cmd.maxrss");
    }
    read_class_map(r, root.find("clusterQueueClassesMinUsage"), "clusterQueueClassesMinUsage", "cq:", t.cq_min_usage, t);
    read_class_map(r, root.find("wlClassesMaxAvgTimeToAdmissionMs"), "wlClassesMaxAvgTimeToAdmissionMs", "wl:",
                   t.wl_max_avg_ms, t);
    read_class_map(r, root.find("wlClassesMaxP95TimeToAdmissionMs"), "wlClassesMaxP95TimeToAdmissionMs", "wl:",
                   t.wl_max_p95_ms, t);
    if (diags.count(Severity::Error) > before) return std::nullopt;
    return t;
}

void check_thresholds(const Thresholds& t, Report& report, std::int64_t wall_ms, std::int64_t rss_kib,
                      std::int64_t mcpu, Diagnostics& diags) {
    auto add = [&](std::string name, std::string subject, double limit, double actual, bool met, std::string unit) {
        ThresholdCheck c{std::move(name), std::move(subject), limit, actual, met, {}};
        c.message = c.name + ": " + num(actual) + unit + (met ? " within the maximum " : " exceeds the maximum ") + num(limit) + unit;
        report.checks.push_back(std::move(c));
    };
    if (t.max_wall_ms) add("cmd.maxWallMs", "cmd", *t.max_wall_ms, wall_ms, wall_ms <= *t.max_wall_ms, " ms");
    if (t.max_rss_kib) add("cmd.maxrss", "cmd", *t.max_rss_kib, rss_kib, rss_kib <= *t.max_rss_kib, " KiB");
    if (t.max_mcpu) add("cmd.mCPU", "cmd", *t.max_mcpu, mcpu, mcpu <= *t.max_mcpu, " mCPU");

    std::vector<std::string> cq_names, wl_names;
    for (const auto& c : report.queue_classes) cq_names.push_back(c.name);
    for (const auto& c : report.workload_classes) wl_names.push_back(c.name);
    auto unknown = [&](const std::string& what, const std::string& cls, const std::vector<std::string>& names,
                       const std::string& tag) {
        std::string msg = what + ": the run has no class \"" + cls + "\"";
        std::string hint = site::did_you_mean(cls, names);
        if (!hint.empty()) msg += "; did you mean \"" + hint + "\"?";
        diags.error(t.file, mark_for(t, tag + cls), msg, "timeline.unknown-class");
    };
    // Named members rather than structured bindings: clang before 16 cannot
    // capture a binding in a lambda (the fuzz build uses clang 14).
    for (const auto& entry : t.cq_min_usage) {
        const std::string& cls = entry.first;
        const double limit = entry.second;
        auto it = std::find_if(report.queue_classes.begin(), report.queue_classes.end(), [&](const auto& c) { return c.name == cls; });
        if (it == report.queue_classes.end()) {
            unknown("clusterQueueClassesMinUsage", cls, cq_names, "cq:");
            continue;
        }
        double actual = it->average_usage_percent;
        // A minimum: the check fails when usage falls below it.
        ThresholdCheck c{"clusterQueueClassesMinUsage." + cls, cls, limit, actual, actual >= limit, {}};
        c.message = c.name + ": average usage " + num(actual) + "% " + (c.met ? "meets" : "is below") + " the minimum " +
                    num(limit) + "%";
        report.checks.push_back(std::move(c));
    }
    auto wl_check = [&](const std::string& key, const std::vector<std::pair<std::string, std::int64_t>>& limits, bool p95) {
        for (const auto& entry : limits) {
            const std::string& cls = entry.first;
            const std::int64_t limit = entry.second;
            auto it = std::find_if(report.workload_classes.begin(), report.workload_classes.end(),
                                   [&](const auto& c) { return c.name == cls; });
            if (it == report.workload_classes.end()) {
                unknown(key, cls, wl_names, "wl:");
                continue;
            }
            std::int64_t actual = p95 ? it->time_to_admission.p95 : it->time_to_admission.mean;
            add(key + "." + cls, cls, static_cast<double>(limit), static_cast<double>(actual), actual <= limit, " ms");
        }
    };
    wl_check("wlClassesMaxAvgTimeToAdmissionMs", t.wl_max_avg_ms, false);
    wl_check("wlClassesMaxP95TimeToAdmissionMs", t.wl_max_p95_ms, true);
    for (const auto& c : report.checks) {
        if (c.met) continue;
        Diagnostic d;
        d.severity = Severity::Error;
        d.file = t.file;
        if (c.subject != "cmd") d.mark = mark_for(t, (c.name.rfind("cluster", 0) == 0 ? "cq:" : "wl:") + c.subject);
        d.message = "threshold not met: " + c.message;
        d.rule = "timeline.threshold";
        d.object = {"queueforge.io/v1alpha1", "Threshold", "", c.name};
        diags.add(std::move(d));
    }
}

}  // namespace queueforge::timeline
