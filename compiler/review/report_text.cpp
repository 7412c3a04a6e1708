// `diff -o text`: changes first, then quotas, admissions and blocked deletions.
#include <queueforge/review.hpp>

namespace queueforge::review {

namespace {

std::string shown(const std::string& v) { return v.empty() ? "(unset)" : v; }

std::string object_name(const ObjectChange& c) {
    return c.kind + "/" + (c.namespace_.empty() ? "" : c.namespace_ + "/") + c.name;
}

}  // namespace

std::string render_text(const Review& r) {
    std::string out = "Changes from " + r.base + " to " + r.head + "\n";
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
                   (a.impact.empty() ? "" : "  [" + a.impact + "]") + "\n";
    }
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + u;
        out += "\nBLOCKED: " + b.kind + " " + b.name + " is removed but still used by " + who + "\n";
    }
    return out;
}

}  // namespace queueforge::review
