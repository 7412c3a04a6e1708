// `diff -o text`: changes first, then quotas, admissions and blocked deletions;
// over several sites, one section per site and a summary line per site.
#include <queueforge/integrations/diff.hpp>

namespace queueforge::diff {

namespace {

std::string shown(const std::string& v) { return v.empty() ? "(unset)" : v; }

std::string object_name(const ObjectChange& c) {
    return c.kind + "/" + (c.namespace_.empty() ? "" : c.namespace_ + "/") + c.name;
}

std::string text_body(const Review& r) {
    std::string out;
    if (r.objects.empty()) out += "  no object changes\n";
    for (const auto& c : r.objects) {
        char mark = c.change == "Added" ? '+' : c.change == "Removed" ? '-' : '~';
        out += std::string("  ") + mark + " " + object_name(c) + "\n";
        for (const auto& f : c.fields)
            out += "      " + f.path + ": " + shown(f.before) + " -> " + shown(f.after) + "\n";
    }
    if (!r.quotas.empty()) {
        out += "\nQuotas\n";
        for (const auto& q : r.quotas)
            out += "  " + q.cluster_queue + " " + q.flavor + "/" + q.resource + " " + q.field + ": " + shown(q.before) +
                   " -> " + shown(q.after) + "\n";
    }
    if (r.simulated) {
        out += "\nAdmission\n";
        if (r.admissions.empty()) out += "  no sample or running workload changes status, flavor or borrowing\n";
        for (const auto& a : r.admissions)
            out += "  " + a.namespace_ + "/" + a.name + (a.running ? " (running)" : "") + ": " + a.before + " -> " + a.after +
                   (a.impact.empty() ? "" : "  [" + a.impact + "]") + (a.regression ? "  [regression]" : "") + "\n";
    }
    for (const auto& u : r.below_usage) {
        std::string who;
        for (const auto& w : u.workloads) who += (who.empty() ? "" : ", ") + w;
        out += "\nQUOTA BELOW USAGE: " + u.cluster_queue + " " + u.flavor + "/" + u.resource + " nominalQuota " + u.quota +
               " < " + u.usage + " in use by " + who + "\n";
    }
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + u;
        out += "\nBLOCKED: " + b.kind + " " + b.name + " is removed but still used by " + who + "\n";
    }
    return out;
}

std::string site_heading(const SiteReview& s) {
    if (s.change == "Added") return s.site + " (site added)";
    if (s.change == "Removed") return s.site + " (site removed)";
    if (s.change == "Renamed") return s.site + " (site moved from " + s.renamed_from + ")";
    return s.site;
}

}  // namespace

std::string render_text(const Review& r) { return "Changes from " + r.base + " to " + r.head + "\n" + text_body(r); }

std::string render_text(const MultiReview& r) {
    std::string out = "Changes from " + r.base + " to " + r.head + "\n";
    std::string summary;
    for (const auto& s : r.sites) {
        std::size_t regressions = 0;
        for (const auto& a : s.review.admissions) regressions += a.regression ? 1 : 0;
        summary += "  " + s.site + ": " +
                   (s.change == "Unchanged" ? std::string("no changes")
                                            : std::to_string(s.review.objects.size()) + " objects changed, " +
                                                  std::to_string(regressions) + " admission regressions") +
                   "\n";
        if (s.change == "Unchanged" && r.sites.size() > 1) continue;  // listed in the summary only
        out += "\n== " + site_heading(s) + "\n" + text_body(s.review);
    }
    if (r.sites.size() > 1) out += "\nSites\n" + summary;
    return out;
}

}  // namespace queueforge::diff
