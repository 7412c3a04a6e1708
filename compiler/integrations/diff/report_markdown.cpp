// `diff -o markdown`: a merge-request comment. Over several sites: one
// comment for all clusters, a summary table first, then each changed site's
// details; tables longer than kOpenRows rows are collapsed (<details>), and
// the comment stays under a size limit (GitHub's is 65,536 characters).
#include <queueforge/integrations/diff.hpp>

namespace queueforge::diff {

namespace {

constexpr std::size_t kOpenRows = 10;

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

// A titled table, collapsed when it is long.
std::string table(const std::string& title, const std::string& head, const std::vector<std::string>& rows) {
    std::string t = head;
    for (const auto& r : rows) t += r;
    if (rows.size() <= kOpenRows) return "**" + title + "**\n\n" + t + "\n";
    return "<details><summary><b>" + title + "</b> (" + std::to_string(rows.size()) + " rows)</summary>\n\n" + t +
           "\n</details>\n\n";
}

std::string body(const Review& r) {
    std::string out;
    for (const auto& b : r.blocked) {
        std::string who;
        for (const auto& u : b.used_by) who += (who.empty() ? "" : ", ") + plain(u);
        out += "> :no_entry: **" + b.kind + " `" + plain(b.name) + "` is removed but running workloads still use it** (" + who +
               "); Kueue's finalizer keeps it until they finish.\n\n";
    }
    for (const auto& u : r.below_usage) {
        std::string who;
        for (const auto& w : u.workloads) who += (who.empty() ? "" : ", ") + plain(w);
        out += "> :warning: **ClusterQueue `" + plain(u.cluster_queue) + "` " + plain(u.flavor) + "/" + plain(u.resource) +
               ": nominal quota " + plain(u.quota) + " is below what running workloads use (" + plain(u.usage) + ")** (" +
               who + ").\n\n";
    }
    std::size_t added = 0, removed = 0, changed = 0;
    for (const auto& c : r.objects) (c.change == "Added" ? added : c.change == "Removed" ? removed : changed)++;
    out += "**Objects:** " + std::to_string(added) + " added, " + std::to_string(changed) + " changed, " +
           std::to_string(removed) + " removed\n\n";
    if (!r.objects.empty()) {
        std::vector<std::string> rows;
        for (const auto& c : r.objects) {
            std::string sign = c.change == "Added" ? "➕" : c.change == "Removed" ? "➖" : "✏️";
            std::string obj = plain(c.kind + "/" + (c.namespace_.empty() ? "" : c.namespace_ + "/") + c.name);
            if (c.fields.empty()) rows.push_back("| " + sign + " | " + obj + " | | | |\n");
            for (const auto& f : c.fields)
                rows.push_back("| " + sign + " | " + obj + " | `" + plain(f.path) + "` | " + cell(f.before) + " | " +
                               cell(f.after) + " |\n");
        }
        out += table("Object changes", "| | Object | Field | Before | After |\n|---|---|---|---|---|\n", rows);
    }
    if (!r.quotas.empty()) {
        std::vector<std::string> rows;
        for (const auto& q : r.quotas)
            rows.push_back("| " + plain(q.cluster_queue) + " | " + plain(q.flavor) + " | " + plain(q.resource) + " | " + q.field +
                           " | " + cell(q.before) + " | " + cell(q.after) + " |\n");
        out += table("Quotas", "| ClusterQueue | Flavor | Resource | Field | Before | After |\n|---|---|---|---|---|---|\n", rows);
    }
    if (r.simulated) {
        if (r.admissions.empty()) out += "**Admission:** no sample or running workload changes status, flavor or borrowing.\n";
        else {
            std::vector<std::string> rows;
            for (const auto& a : r.admissions) {
                std::string impact = a.impact.empty() ? (a.regression ? "regression" : "") : a.impact;
                rows.push_back("| " + plain(a.namespace_ + "/" + a.name) + (a.running ? " (running)" : "") + " | " +
                               plain(a.before) + " | " + plain(a.after) + " | " + (impact.empty() ? "" : "**" + impact + "**") +
                               " |\n");
            }
            out += table("Admission", "| Workload | Before | After | Impact |\n|---|---|---|---|\n", rows);
        }
    }
    return out;
}

std::size_t regressions(const Review& r) {
    std::size_t n = 0;
    for (const auto& a : r.admissions) n += a.regression ? 1 : 0;
    return n;
}

std::string verdict(const SiteReview& s) {
    if (!s.review.blocked.empty()) return ":no_entry: deletion blocked";
    if (regressions(s.review)) return ":x: admission regression";
    if (!s.review.below_usage.empty()) return ":warning: quota below usage";
    if (s.change == "Unchanged") return "no changes";
    return ":white_check_mark: no regression";
}

std::string change_text(const SiteReview& s) {
    if (s.change == "Renamed") return "moved from `" + plain(s.renamed_from) + "`";
    if (s.change == "Added") return "site added";
    if (s.change == "Removed") return "site removed";
    return s.change == "Unchanged" ? "unchanged" : "changed";
}

}  // namespace

std::string render_markdown(const Review& r) {
    return "### queueforge: " + plain(r.base) + " → " + plain(r.head) + "\n\n" + body(r);
}

std::string render_markdown(const MultiReview& r, std::size_t max_chars) {
    // The marker lets a CI job find its earlier comment and update it (examples/ci/).
    const std::string title = "<!-- queueforge-diff -->\n### queueforge diff: " + plain(r.base) + " → " + plain(r.head) + "\n\n";
    std::string summary = "| Site | Change | Objects changed | Admission regressions | Verdict |\n|---|---|---|---|---|\n";
    for (const auto& s : r.sites)
        summary += "| `" + plain(s.site) + "` | " + change_text(s) + " | " + std::to_string(s.review.objects.size()) + " | " +
                   std::to_string(regressions(s.review)) + " | " + verdict(s) + " |\n";
    summary += "\n";
    std::vector<std::pair<std::string, std::string>> sections;  // site, text
    for (const auto& s : r.sites) {
        if (s.change == "Unchanged") continue;
        sections.push_back({s.site, "#### `" + plain(s.site) + "` (" + change_text(s) + ")\n\n" + body(s.review) + "\n"});
    }
    // The size limit: whole sections while they fit, then a note naming the rest.
    const std::string cut_note_head =
        "> :scissors: This comment was shortened to stay within the comment size limit; not shown: ";
    const std::string cut_note_tail = ". Run `queueforge diff` locally for the full report.\n";
    std::string out = title + summary;
    if (out.size() + cut_note_head.size() + cut_note_tail.size() > max_chars) {
        out = title + "> :scissors: Too many sites to list within the comment size limit (" + std::to_string(r.sites.size()) +
              " sites)" + cut_note_tail;
        return out.size() <= max_chars ? out : out.substr(0, max_chars);
    }
    std::string left_out;
    std::size_t reserve = cut_note_head.size() + cut_note_tail.size();
    for (const auto& [site, text] : sections) {
        if (left_out.empty() && out.size() + text.size() + reserve + site.size() + 64 <= max_chars) {
            out += text;
            continue;
        }
        const std::string name = (left_out.empty() ? "`" : ", `") + plain(site) + "`";
        if (out.size() + cut_note_head.size() + left_out.size() + name.size() + cut_note_tail.size() + 16 > max_chars) {
            left_out += ", …";
            break;
        }
        left_out += name;
    }
    if (!left_out.empty()) out += cut_note_head + left_out + cut_note_tail;
    return out;
}

}  // namespace queueforge::diff
