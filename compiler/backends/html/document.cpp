// The report document: head with the inline stylesheet, a header with the
// site's headline figures, then the sections.
#include <queueforge/backends/html_report.hpp>

#include "engines/capacity/arith.hpp"
#include "backends/html/markup.hpp"
#include "backends/html/sections.hpp"

#include <map>

namespace queueforge::html_report {

namespace {

using html::esc;

// One stylesheet, inline: the file must render the same with no network.
constexpr const char* kStyle = R"css(
:root{--fg:#1d2329;--muted:#66707b;--line:#d9dee4;--warn:#c0392b;--ok:#1e8449}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:#f3f5f7}
main{max-width:1240px;margin:0 auto;padding:18px 22px 36px}
h1{font-size:22px;margin:0 0 2px}
h2{font-size:17px;margin:0 0 6px}
h3{font-size:15px;margin:16px 0 6px}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:14px 0}
nav a{color:#2c5d8f;margin-right:14px;text-decoration:none}
.note{color:var(--muted);margin:0 0 8px}
.muted{color:var(--muted)}
.warn{color:var(--warn)}
.kpis{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0 4px;padding:0;list-style:none}
.kpis li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:6px 14px;font-size:12px;color:var(--muted)}
.kpis b{display:block;font-size:18px;color:var(--fg)}
.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:8px 20px}
figure{margin:0;min-width:0}
figcaption{font-size:13px;margin:6px 0 2px}
svg{display:block;max-width:100%;height:auto}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:var(--fg)}
svg .axis{fill:var(--muted);font-size:10px}
svg .track{fill:#eef1f4}
svg .marker{stroke:#111;stroke-width:2}
svg .value.warn{fill:var(--warn);font-weight:600}
svg .gridline{stroke:#e7eaee}
svg .reference{stroke:#222;stroke-dasharray:4 3}
svg .frame{fill:none;stroke:var(--line)}
.legend{list-style:none;padding:0;margin:2px 0 8px;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:12px}
.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px;border:1px solid transparent}
.swatch.outline{border-style:dashed}
table{border-collapse:collapse;font-size:12.5px;width:100%;margin-top:6px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8f9;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.reason{font-size:12px;color:#3a424a;max-width:520px}
.status{display:inline-block;padding:0 8px;border-radius:9px;font-size:12px;font-weight:600}
.status.ok{background:#e3f4e8;color:var(--ok)}
.status.bad{background:#fbe5e3;color:var(--warn)}
.tas{border-collapse:collapse;margin:6px 0 14px}.tas th{text-align:left;font-weight:500;padding:1px 8px 1px 0;font-size:12px}
.tas td.node{width:14px;height:14px;border:1px solid #fff;background:#e8eaed;padding:0}.tas td.node.used{background:hsl(var(--h),55%,55%)}
.tree,.tree ul{list-style:none;margin:0;padding-left:18px}
.tree{padding-left:2px}
.tree li{position:relative;padding:3px 0 3px 14px}
.tree li::before{content:"";position:absolute;left:0;top:0;bottom:0;border-left:1px solid #b9c1ca}
.tree li::after{content:"";position:absolute;left:0;top:13px;width:10px;border-top:1px solid #b9c1ca}
.tree li:last-child::before{bottom:auto;height:13px}
.cohort{font-weight:600}
.chip{display:inline-block;background:#eef1f4;border-radius:10px;padding:0 8px;font-size:12px;margin-left:6px}
details{margin-top:8px}
summary{cursor:pointer;color:var(--muted)}
)css";

std::string kpi(const std::string& value, const std::string& label) {
    return "<li><b>" + esc(value) + "</b>" + esc(label) + "</li>";
}

std::string header(const Input& in) {
    const auto& c = in.capacity;
    std::string s = "<header><h1>queueforge report: " + esc(c.site) + "</h1>";
    s += "<div class=\"muted\">target " + esc(c.target) + "</div>";
    std::int64_t nodes = 0;
    // Accelerators (and any other extended resource) summed over the pools,
    // by resource name.
    std::map<std::string, capacity::Amount> extended;
    for (const auto& p : c.pools) {
        if (p.nodes && *p.nodes > 0 && nodes < (std::int64_t{1} << 52)) nodes += *p.nodes;
        for (const auto& r : p.resources)
            if (r.capacity && html::primary_resource(p) == r.resource && r.resource != "cpu")
                extended[r.resource] = capacity::plus(extended[r.resource], *r.capacity);
    }
    s += "<ul class=\"kpis\">";
    s += kpi(std::to_string(c.pools.size()), c.pools.size() == 1 ? "pool" : "pools");
    s += kpi(std::to_string(nodes), nodes == 1 ? "node" : "nodes");
    for (const auto& [res, amount] : extended) s += kpi(amount.str(), res);
    s += kpi(std::to_string(c.teams.size()), c.teams.size() == 1 ? "team" : "teams");
    s += kpi(std::to_string(c.cohorts.size()), c.cohorts.size() == 1 ? "cohort" : "cohorts");
    if (in.simulation) {
        std::size_t admitted = 0;
        for (const auto& w : in.simulation->workloads) admitted += w.together.admitted;
        s += kpi(std::to_string(admitted) + " / " + std::to_string(in.simulation->workloads.size()),
                 "sample workloads admitted");
    }
    s += "</ul><nav><a href=\"#pools\">Pools</a><a href=\"#teams\">Teams</a><a href=\"#cohorts\">Cohorts</a>";
    if (in.simulation) s += "<a href=\"#simulation\">Simulation</a>";
    if (in.timeline) s += "<a href=\"#timeline\">Timeline</a>";
    for (const auto& x : in.extra_sections) s += "<a href=\"#" + esc(x.id) + "\">" + esc(x.title) + "</a>";
    return s + "</nav></header>";
}

}  // namespace

std::string render(const Input& in) {
    html::Palette colors;
    for (const auto& t : in.capacity.teams) colors.add(t.cluster_queue);
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>queueforge report: " + esc(in.capacity.site) + "</title><style>" + kStyle + "</style></head>\n<body><main>";
    s += header(in) + "\n";
    s += html::pools_section(in.capacity, colors) + "\n";
    s += html::teams_section(in.capacity, colors) + "\n";
    s += html::cohorts_section(in.capacity, colors) + "\n";
    if (in.simulation) s += html::simulation_section(*in.simulation) + "\n";
    if (in.timeline) s += html::timeline_section(*in.timeline, in.scenario_name) + "\n";
    for (const auto& x : in.extra_sections) s += x.html + "\n";
    s += "<p class=\"muted\">Generated by queueforge from the site description; the simulation decides as Kueue's "
         "scheduler does, offline.</p></main></body></html>\n";
    return s;
}

}  // namespace queueforge::html_report
