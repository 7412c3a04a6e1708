// A review over a repository: the sites beneath the paths discovered on both
// sides, paired by path (or, for a site that moved, by metadata.name), each
// pair built and compared on its own (review.hpp compare_sites).
#include "integrations/diff/compare.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace queueforge::diff {

namespace fs = std::filesystem;

namespace {

struct FoundSite {
    std::string label;  // repository path of the site ("clusters/prod", "." at the top)
    std::string file;   // repository path of its site file
    std::string name;   // metadata.name, "" when unreadable
};

std::string root_prefix(const Tree& t) {
    std::string p = fs::path(t.root).lexically_normal().generic_string();
    if (p.empty() || p.back() != '/') p += '/';
    return p;
}

// `path` (as discovery spelled it under the tree's root) as a repository path.
std::string repo_relative(const Tree& t, const std::string& path) {
    const std::string prefix = root_prefix(t);
    const std::string p = fs::path(path).lexically_normal().generic_string();
    if (p + "/" == prefix) return ".";
    return p.compare(0, prefix.size(), prefix) == 0 ? p.substr(prefix.size()) : p;
}

// Findings that name a side's files (or its root) name "<label><repository
// path>" (or the revision), never the temporary folder it was written to.
void relabel_into(const Tree& base, const Tree& head, Diagnostics& from, Diagnostics& into, const std::string& site) {
    auto replace_all = [](std::string& text, const std::string& what, const std::string& with) {
        for (std::size_t at = 0; !what.empty() && (at = text.find(what, at)) != std::string::npos; at += with.size())
            text.replace(at, what.size(), with);
    };
    for (auto d : from.all()) {
        for (const Tree* t : {&base, &head}) {
            const std::string prefix = root_prefix(*t);
            if (d.file.view().starts_with(prefix)) d.file = t->label + std::string(d.file.view().substr(prefix.size()));
            if (t->label.empty()) continue;  // the work tree: its paths are the user's own
            std::string message = d.message;
            replace_all(message, prefix, t->label);
            replace_all(message, prefix.substr(0, prefix.size() - 1), t->label.substr(0, t->label.size() - 1));
            d.message = message;
        }
        if (d.site.empty()) d.site = site;
        into.add(std::move(d));
    }
}

std::string site_name(const std::string& file) {
    Diagnostics quiet;  // the site's build reports what is wrong with it
    std::string text;
    if (!read_file_limited(file, text, quiet)) return "";
    for (const auto& d : load_yaml(file, text, quiet)) {
        const Node* meta = d.root.is_map() ? d.root.find("metadata") : nullptr;
        const Node* name = meta && meta->is_map() ? meta->find("name") : nullptr;
        if (name && name->is_scalar()) return name->text();
    }
    return "";
}

std::map<std::string, FoundSite> discover_sites(const Tree& t, const std::vector<std::string>& repo_paths,
                                                Diagnostics& diags) {
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& p : repo_paths)
        if (fs::path full = fs::path(t.root) / p; fs::exists(full, ec)) paths.push_back(full.string());
    std::map<std::string, FoundSite> out;
    if (paths.empty()) return out;  // nothing there on this side: every site is added or removed
    Diagnostics local;
    for (const auto& c : discover::find_clusters(paths, {}, local)) {
        if (c.site_file.empty()) continue;  // plain manifests: not a site to compare
        FoundSite s{repo_relative(t, c.label), repo_relative(t, c.site_file), site_name(c.site_file)};
        out.emplace(s.label, std::move(s));
    }
    relabel_into(t, t, local, diags, "");
    return out;
}

struct Pair {
    const FoundSite* base = nullptr;
    const FoundSite* head = nullptr;
};

std::vector<Pair> pair_sites(const std::map<std::string, FoundSite>& a, const std::map<std::string, FoundSite>& b) {
    std::vector<Pair> pairs;
    std::vector<const FoundSite*> removed, added;
    for (const auto& [label, s] : a) {
        auto it = b.find(label);
        if (it != b.end()) pairs.push_back({&s, &it->second});
        else removed.push_back(&s);
    }
    for (const auto& [label, s] : b)
        if (!a.count(label)) added.push_back(&s);
    // A folder that moved: the same metadata.name on both sides, once.
    std::set<const FoundSite*> used;
    for (const auto* r : removed) {
        const FoundSite* match = nullptr;
        for (const auto* n : added)
            if (!r->name.empty() && n->name == r->name && !used.count(n)) {
                match = n;
                break;
            }
        if (match) used.insert(match);
        pairs.push_back({r, match});
    }
    for (const auto* n : added)
        if (!used.count(n)) pairs.push_back({nullptr, n});
    auto path_of = [](const Pair& p) { return p.head ? p.head->label : p.base->label; };
    std::sort(pairs.begin(), pairs.end(), [&](const Pair& x, const Pair& y) { return path_of(x) < path_of(y); });
    return pairs;
}

bool changed(const Review& r) {
    return !r.objects.empty() || !r.admissions.empty() || !r.blocked.empty() || !r.below_usage.empty();
}

}  // namespace

std::optional<MultiReview> compare_sites(const Tree& base, const Tree& head, const std::vector<std::string>& repo_paths,
                                         const Options& opts, Diagnostics& diags, std::vector<SourceText>& sources) {
    const auto a = discover_sites(base, repo_paths, diags);
    const auto b = discover_sites(head, repo_paths, diags);
    std::string where;
    for (const auto& p : repo_paths) where += (where.empty() ? "" : ", ") + (p.empty() ? std::string(".") : p);
    if (a.empty() && b.empty()) {
        diags.error("", {}, "no site (queueforge-site.yaml, or a file of kind Site) beneath " + where + " in " + base.name +
                                " or " + head.name,
                    "review.missing-site");
        return std::nullopt;
    }
    const auto pairs = pair_sites(a, b);
    if (!opts.running.empty() && pairs.size() > 1) {
        std::string list;
        for (const auto& p : pairs) list += (list.empty() ? "" : ", ") + (p.head ? p.head->label : p.base->label);
        diags.error("", {}, "--running is a snapshot of one cluster, but " + where + " holds " + std::to_string(pairs.size()) +
                                " sites (" + list + "); name the site the snapshot was taken from",
                    "review.running-several-sites");
        return std::nullopt;
    }
    MultiReview out;
    out.base = base.name;
    out.head = head.name;
    bool ok = true;
    for (const auto& p : pairs) {
        const std::string site = p.head ? p.head->label : p.base->label;
        Diagnostics local;
        std::optional<Side> sa, sb;
        if (p.base) {
            sa = build_side(base.name, base.label, base.root, {p.base->file}, opts.target, local);
            if (sa) sources.insert(sources.end(), sa->sources.begin(), sa->sources.end());
        }
        if (p.head) {
            sb = build_side(head.name, head.label, head.root, {p.head->file}, opts.target, local);
            if (sb) sources.insert(sources.end(), sb->sources.begin(), sb->sources.end());
        }
        if ((p.base && !sa) || (p.head && !sb)) {
            ok = false;
            relabel_into(base, head, local, diags, site);
            continue;
        }
        Side none_base{base.name, {}, {}}, none_head{head.name, {}, {}};
        std::vector<std::string> base_paths, head_paths;
        if (p.base) base_paths.push_back((fs::path(base.root) / p.base->file).string());
        if (p.head) head_paths.push_back((fs::path(head.root) / p.head->file).string());
        Diagnostics compared;
        SiteReview s;
        s.site = site;
        s.review = compare(sa ? *sa : none_base, base_paths, sb ? *sb : none_head, head_paths, opts, compared);
        relabel_into(base, head, local, diags, site);
        relabel_into(base, head, compared, diags, site);
        if (!p.base) s.change = "Added";
        else if (!p.head) s.change = "Removed";
        else if (p.base->label != p.head->label) {
            s.change = "Renamed";
            s.renamed_from = p.base->label;
        } else s.change = changed(s.review) ? "Changed" : "Unchanged";
        out.sites.push_back(std::move(s));
    }
    if (!ok) return std::nullopt;
    return out;
}

const std::vector<std::string>& fail_on_kinds() {
    static const std::vector<std::string> kinds = {"any", "regression", "deletion-blocked", "quota-below-usage"};
    return kinds;
}

bool has(const MultiReview& r, const std::string& kind) {
    for (const auto& s : r.sites) {
        const Review& v = s.review;
        if (kind == "any" && (s.change != "Unchanged" || changed(v))) return true;
        if (kind == "regression" &&
            std::any_of(v.admissions.begin(), v.admissions.end(), [](const AdmissionChange& a) { return a.regression; }))
            return true;
        if (kind == "deletion-blocked" && !v.blocked.empty()) return true;
        if (kind == "quota-below-usage" && !v.below_usage.empty()) return true;
    }
    return false;
}

}  // namespace queueforge::diff
