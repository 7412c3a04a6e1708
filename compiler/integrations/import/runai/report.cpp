// The migration report: the fidelity of each Run:ai setting, then the
// before/after tables, as text, JSON and Markdown.
#include <queueforge/integrations/runai.hpp>

#include <queueforge/backends/html_report.hpp>

#include <cmath>
#include <cstdio>
#include <map>

namespace queueforge::importer::runai {

namespace {

std::string report_num(double v) {
    char buf[64];
    if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string pad(std::string s, std::size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
}

std::string rpad(const std::string& s, std::size_t w) { return s.size() < w ? std::string(w - s.size(), ' ') + s : s; }

std::string diff_text(const ComparisonRow& r) {
    const double d = r.kueue - r.runai;
    if (std::fabs(d) < 1e-9) return "";
    return (d > 0 ? "+" : "") + report_num(d);
}

}  // namespace

std::string render_comparison_markdown(const Comparison& c) {
    std::string out = "| Node pool | Department | Project | Asks | Deserved | Run:ai (KAI fair share) | Kueue (simulated) | Difference |\n"
                      "|---|---|---|---:|---:|---:|---:|---:|\n";
    for (const auto& r : c.rows) {
        const std::string d = diff_text(r);
        out += "| " + r.pool + " | " + (r.department.empty() ? "-" : r.department) + " | " + r.project + " | " +
               report_num(r.demand) + " | " + report_num(r.deserved) + " | " + report_num(r.runai) + " | " + report_num(r.kueue) + " | " +
               (d.empty() ? "=" : "**" + d + "**") + " |\n";
    }
    return out;
}

std::string render_report_markdown(const Migration& m, const std::vector<Comparison>& comparisons) {
    std::string out = "| Status | Run:ai object | Setting | Run:ai | Kueue | Note |\n|---|---|---|---|---|---|\n";
    for (const auto& f : m.fidelity)
        out += "| " + f.status + " | " + f.object + " | " + f.setting + " | " + f.runai + " | " +
               (f.kueue.empty() ? "-" : f.kueue) + " | " + f.note + " |\n";
    for (const auto& c : comparisons) out += "\nGPUs per project and node pool: " + c.scenario + "\n\n" + render_comparison_markdown(c);
    return out;
}

std::string render_report_section(const Migration& m, const std::vector<Comparison>& comparisons) {
    using html_report::escape;
    const std::string cell = "border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top";
    const std::string num_cell = "border:1px solid #ccc;padding:4px 8px;text-align:right";
    const std::string table = "<table style=\"border-collapse:collapse;margin:1em 0\">";
    auto th = [&](const char* t) { return "<th style=\"" + cell + "\">" + std::string(t) + "</th>"; };
    auto td = [&](const std::string& t) { return "<td style=\"" + cell + "\">" + escape(t) + "</td>"; };
    auto tdn = [&](const std::string& t, const std::string& extra = {}) {
        return "<td style=\"" + num_cell + extra + "\">" + t + "</td>";
    };
    std::string out = "<section id=\"runai-migration\"><h2>Run:ai to Kueue migration</h2>\n<h3>Fidelity</h3>\n" + table +
                      "<tr>" + th("Status") + th("Run:ai object") + th("Setting") + th("Run:ai") + th("Kueue") +
                      th("Note") + "</tr>\n";
    for (const auto& f : m.fidelity) {
        const char* color = f.status == "exact" ? "#2a7a2a" : f.status == "approximated" ? "#a66a00" : "#b22222";
        out += "<tr><td style=\"" + cell + ";color:" + color + "\">" + escape(f.status) + "</td>" + td(f.object) +
               td(f.setting) + td(f.runai) + td(f.kueue) + td(f.note) + "</tr>\n";
    }
    out += "</table>\n";
    for (const auto& c : comparisons) {
        out += "<h3>GPUs per project and node pool: " + escape(c.scenario) + "</h3>\n" + table + "<tr>" +
               th("Node pool") + th("Department") + th("Project") + th("Asks") + th("Deserved") +
               th("Run:ai (KAI fair share)") + th("Kueue (simulated)") + th("Difference") + "</tr>\n";
        for (const auto& r : c.rows) {
            const std::string d = diff_text(r);
            const std::string mark = d.empty() ? ""
                                     : r.kueue > r.runai ? ";background:#e3f4e3;font-weight:bold"
                                                         : ";background:#fbe3e3;font-weight:bold";
            out += "<tr>" + td(r.pool) + td(r.department.empty() ? "-" : r.department) + td(r.project) +
                   tdn(report_num(r.demand)) + tdn(report_num(r.deserved)) + tdn(report_num(r.runai)) + tdn(report_num(r.kueue)) +
                   tdn(d.empty() ? "=" : d, mark) + "</tr>\n";
        }
        out += "</table>\n";
    }
    return out + "</section>";
}

std::string render_report_html(const Migration& m, const std::vector<Comparison>& comparisons) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Run:ai to Kueue migration</title>"
           "</head>\n<body style=\"font-family:sans-serif;margin:2em;color:#222\">\n" +
           render_report_section(m, comparisons) + "\n</body></html>\n";
}

std::string render_report_text(const Migration& m, const std::vector<Comparison>& comparisons) {
    std::string out = "Run:ai → Kueue fidelity\n";
    std::map<std::string, int> counts;
    std::size_t wo = 0, ws = 0;
    for (const auto& f : m.fidelity) {
        ++counts[f.status];
        wo = std::max(wo, f.object.size());
        ws = std::max(ws, f.setting.size());
    }
    for (const auto& f : m.fidelity) {
        out += "  " + pad(f.status, 15) + " " + pad(f.object, wo) + "  " + pad(f.setting, ws) + "  " + f.runai;
        if (!f.kueue.empty()) out += " → " + f.kueue;
        out += "\n";
        if (!f.note.empty()) out += "  " + std::string(15 + 1 + wo + 2, ' ') + f.note + "\n";
    }
    out += "  " + std::to_string(counts["exact"]) + " exact, " + std::to_string(counts["approximated"]) +
           " approximated, " + std::to_string(counts["not expressible"]) + " not expressible\n";
    for (const auto& c : comparisons) {
        out += "\nGPUs per project and node pool: " + c.scenario + "\n";
        out += "  " + pad("pool", 10) + pad("department", 14) + pad("project", 16) + rpad("asks", 6) +
               rpad("deserved", 10) + rpad("Run:ai", 8) + rpad("Kueue", 7) + "  difference\n";
        for (const auto& r : c.rows) {
            const std::string d = diff_text(r);
            out += "  " + pad(r.pool, 10) + pad(r.department.empty() ? "-" : r.department, 14) + pad(r.project, 16) +
                   rpad(report_num(r.demand), 6) + rpad(report_num(r.deserved), 10) + rpad(report_num(r.runai), 8) +
                   rpad(report_num(r.kueue), 7) + "  " + (d.empty() ? "=" : d + "  <<") + "\n";
        }
    }
    return out;
}

nlohmann::ordered_json render_report_json(const Migration& m, const std::vector<Comparison>& comparisons) {
    nlohmann::ordered_json j;
    j["fidelity"] = nlohmann::ordered_json::array();
    for (const auto& f : m.fidelity)
        j["fidelity"].push_back({{"object", f.object},
                                 {"setting", f.setting},
                                 {"runai", f.runai},
                                 {"kueue", f.kueue},
                                 {"status", f.status},
                                 {"note", f.note}});
    j["comparisons"] = nlohmann::ordered_json::array();
    for (const auto& c : comparisons) {
        nlohmann::ordered_json cj;
        cj["scenario"] = c.scenario;
        cj["rows"] = nlohmann::ordered_json::array();
        for (const auto& r : c.rows)
            cj["rows"].push_back({{"pool", r.pool},
                                  {"department", r.department},
                                  {"project", r.project},
                                  {"demand", r.demand},
                                  {"deserved", r.deserved},
                                  {"runai", r.runai},
                                  {"kueue", r.kueue},
                                  {"difference", r.kueue - r.runai}});
        j["comparisons"].push_back(std::move(cj));
    }
    return j;
}

}  // namespace queueforge::importer::runai
