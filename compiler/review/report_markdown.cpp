// `diff -o markdown`: a merge-request comment.
#include <queueforge/review.hpp>

namespace queueforge::review {

namespace {

// Table cells: pipes and newlines would break the row.
std::string cell(const std::string& v) {
    if (v.empty()) return "*(unset)*";
    std::string out;
    for (char c : v) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return "`" + out + "`";
}

std::string plain(const std::string& v) {
    std::string out;
    for (char c : v) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return out;
}

}  // namespace

std::string render_markdown(const Review& r) {
    std::string out = "### queueforge: " + plain(r.base) + " → " + plain(r.head) + "\n\n";
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + plain(u);
        out += "> :no_entry: **" + b.kind + " `" + plain(b.name) + "` is removed but running workloads still use it** (" + who +
               "); Kueue's finalizer keeps it until they finish.\n\n";
    }
    std::size_t added = 0, removed = 0, changed = 0;
    for (const auto& c : r.objects) (c.change == "Added" ? added : c.change == "Removed" ? removed : changed)++;
    out += "**Objects:** " + std::to_string(added) + " added, " + std::to_string(changed) + " changed, " +
           std::to_string(removed) + " removed\n\n";
    if (!r.objects.empty()) {
        out += "| | Object | Field | Before | After |\n|---|---|---|---|---|\n";
        for (const auto& c : r.objects) {
            std::string sign = c.change == "Added" ? "➕" : c.change == "Removed" ? "➖" : "✏️";
            std::string obj = plain(c.kind + "/" + (c.namespace_.empty() ? "" : c.namespace_ + "/") + c.name);
            if (c.fields.empty()) out += "| " + sign + " | " + obj + " | | | |\n";
            for (const auto& f : c.fields)
                out += "| " + sign + " | " + obj + " | `" + plain(f.path) + "` | " + cell(f.before) + " | " + cell(f.after) + " |\n";
        }
        out += "\n";
    }
    if (!r.quotas.empty()) {
        out += "**Quotas**\n\n| ClusterQueue | Flavor | Resource | Field | Before | After |\n|---|---|---|---|---|---|\n";
        for (const auto& q : r.quotas)
            out += "| " + plain(q.cluster_queue) + " | " + plain(q.flavor) + " | " + plain(q.resource) + " | " + q.field + " | " +
                   cell(q.before) + " | " + cell(q.after) + " |\n";
        out += "\n";
    }
    if (r.simulated) {
        if (r.admissions.empty()) out += "**Admission:** no sample or running workload changes status, flavor or borrowing.\n";
        else {
            out += "**Admission**\n\n| Workload | Before | After | Impact |\n|---|---|---|---|\n";
            for (const auto& a : r.admissions)
                out += "| " + plain(a.namespace_ + "/" + a.name) + (a.running ? " (running)" : "") + " | " + plain(a.before) +
                       " | " + plain(a.after) + " | " + (a.impact.empty() ? "" : "**" + a.impact + "**") + " |\n";
        }
    }
    return out;
}

}  // namespace queueforge::review
