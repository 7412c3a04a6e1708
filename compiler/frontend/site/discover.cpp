// Site discovery: the clusters a command line is about (discover.hpp).
//
// .gitignore support is a subset, enough for the folders repositories ignore
// in practice (build/, rendered/, *.tmp, /out): blank lines and `#` comments,
// `!` negation (the last matching pattern wins), a trailing `/` (folders
// only), a leading or inner `/` (anchored at the .gitignore's folder, else the
// pattern matches a name at any depth), `*`, `?`, `[...]` and `**` through
// fnmatch(3). Not read: .git/info/exclude and core.excludesFile, and a
// negation cannot re-include a path inside an ignored folder (git cannot
// either). queueforge never reads git's index for this, so an ignored file
// that is tracked anyway is still skipped.
#include <queueforge/frontend/discover.hpp>
#include <queueforge/base/output_folder.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

namespace queueforge::discover {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSiteFileName = "queueforge-site.yaml";
constexpr std::size_t kSniffBytes = 64 * 1024;

struct IgnoreRule {
    std::string base;     // folder of the .gitignore, '/'-terminated generic path ("" = none)
    std::string pattern;  // without !, leading and trailing '/'
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;
};

std::vector<IgnoreRule> read_gitignore(const fs::path& dir) {
    std::vector<IgnoreRule> rules;
    std::ifstream in(dir / ".gitignore");
    if (!in) return rules;
    std::string base = dir.generic_string();
    if (!base.empty() && base.back() != '/') base += '/';
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        while (!line.empty() && line.back() == ' ') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        IgnoreRule r;
        r.base = base;
        if (line[0] == '!') {
            r.negate = true;
            line.erase(0, 1);
        } else if (line[0] == '\\') {
            line.erase(0, 1);
        }
        if (!line.empty() && line.back() == '/') {
            r.dir_only = true;
            line.pop_back();
        }
        if (line.find('/') != std::string::npos) r.anchored = true;
        if (!line.empty() && line[0] == '/') line.erase(0, 1);
        if (line.empty()) continue;
        r.pattern = line;
        rules.push_back(std::move(r));
    }
    return rules;
}

bool ignored(const std::vector<IgnoreRule>& rules, const fs::path& p, bool is_dir) {
    const std::string full = p.generic_string();
    const std::string name = p.filename().string();
    bool result = false;
    for (const auto& r : rules) {
        if (r.dir_only && !is_dir) continue;
        if (full.compare(0, r.base.size(), r.base) != 0) continue;
        bool match = false;
        if (r.anchored) {
            const std::string rel = full.substr(r.base.size());
            match = fnmatch(r.pattern.c_str(), rel.c_str(), FNM_PATHNAME) == 0 ||
                    // "**" crosses folders: fnmatch without FNM_PATHNAME lets '*' do so.
                    (r.pattern.find("**") != std::string::npos && fnmatch(r.pattern.c_str(), rel.c_str(), 0) == 0);
        } else {
            match = fnmatch(r.pattern.c_str(), name.c_str(), 0) == 0;
        }
        if (match) result = !r.negate;
    }
    return result;
}

// The .gitignore rules of `dir`'s parents up to the repository root (the
// nearest folder holding .git), outermost first; none outside a repository.
std::vector<IgnoreRule> parent_rules(const fs::path& dir) {
    std::error_code ec;
    fs::path abs = fs::absolute(dir, ec).lexically_normal();
    if (ec) return {};
    std::vector<fs::path> chain;
    bool in_repo = false;
    for (fs::path p = abs.parent_path();; p = p.parent_path()) {
        chain.push_back(p);
        if (fs::exists(p / ".git", ec)) {
            in_repo = true;
            break;
        }
        if (p == p.root_path() || p.empty()) break;
    }
    if (!in_repo && !fs::exists(abs / ".git", ec)) return {};
    if (!in_repo) chain.clear();
    std::vector<IgnoreRule> rules;
    // Rules of a parent are matched against `dir`-relative paths below: rebase
    // them onto the path as the walk spells it.
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        for (auto r : read_gitignore(*it)) {
            std::string abs_base = r.base;
            std::string here = abs.generic_string() + "/";
            if (here.compare(0, abs_base.size(), abs_base) != 0) continue;
            std::string below = here.substr(abs_base.size());  // "clusters/prod/"
            std::string spelled = dir.generic_string();
            if (!spelled.empty() && spelled.back() != '/') spelled += '/';
            if (r.anchored) {
                // An anchored pattern must first match the part above `dir`;
                // keep it only when it can still apply below.
                if (r.pattern.compare(0, below.size(), below) != 0) continue;
                r.pattern.erase(0, below.size());
                if (r.pattern.empty()) continue;
            }
            r.base = spelled;
            rules.push_back(std::move(r));
        }
    }
    return rules;
}

std::optional<std::string> sniff(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text(kSniffBytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

bool yaml_name(const fs::path& p) {
    const auto ext = p.extension();
    return ext == ".yaml" || ext == ".yml";
}

// "./clusters/prod" -> "clusters/prod"; "." stays.
std::string tidy(const fs::path& p) {
    std::string s = p.lexically_normal().generic_string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s.empty() ? "." : s;
}

struct Found {
    std::string file;
    std::size_t arg = 0;  // index of the command-line path it was found under
};

struct Walker {
    const Options& opts;
    Diagnostics& diags;
    std::size_t entries = 0;
    bool over_limit = false;
    std::vector<Found> sites;

    void limit(const fs::path& where, const std::string& what) {
        if (over_limit) return;
        over_limit = true;
        diags.error(where.generic_string(), {},
                    "stopped looking for sites here: " + what +
                        "; point the command at the clusters' folders, or ignore the rest in .gitignore",
                    "discover.limit");
    }

    void walk(const fs::path& dir, int depth, std::vector<IgnoreRule> rules, std::size_t arg) {
        if (over_limit) return;
        if (depth > opts.max_depth) return limit(dir, "folders nested deeper than " + std::to_string(opts.max_depth));
        std::error_code ec;
        if (fs::exists(dir / kOwnedIndex, ec)) {
            // A rendered output folder: queueforge's own output, never input.
            std::error_code e2;
            if (fs::exists(dir / kSiteFileName, e2))
                diags.warning(tidy(dir / kSiteFileName), {},
                              "a site file inside a rendered output folder (it holds " + std::string(kOwnedIndex) +
                                  ") is not checked: move it out of the folder queueforge writes",
                              "discover.site-in-rendered-folder");
            return;
        }
        auto more = read_gitignore(dir);
        rules.insert(rules.end(), more.begin(), more.end());
        std::vector<fs::directory_entry> items;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            if (++entries > opts.max_entries)
                return limit(dir, "more than " + std::to_string(opts.max_entries) + " files and folders");
            items.push_back(*it);
        }
        std::sort(items.begin(), items.end(),
                  [](const auto& a, const auto& b) { return a.path().filename() < b.path().filename(); });
        for (const auto& e : items) {
            const fs::path& p = e.path();
            std::error_code e2;
            if (e.is_symlink(e2)) {
                if (!e.is_directory(e2) && !ignored(rules, p, false)) consider_file(p, arg);
                continue;  // symlinked folders are not followed
            }
            if (e.is_directory(e2)) {
                if (p.filename() == ".git" || ignored(rules, p, true)) continue;
                walk(p, depth + 1, rules, arg);
                if (over_limit) return;
            } else if (e.is_regular_file(e2)) {
                if (!ignored(rules, p, false)) consider_file(p, arg);
            }
        }
    }

    void consider_file(const fs::path& p, std::size_t arg) {
        if (!yaml_name(p)) return;
        if (p.filename() == kSiteFileName) {
            // A base sites extend is not a cluster (spec.extends).
            if (auto text = sniff(p); text && is_site_base_text(*text)) return;
            sites.push_back({tidy(p), arg});
            return;
        }
        auto text = sniff(p);
        if (text && is_site_text(*text)) sites.push_back({tidy(p), arg});
    }
};

// A queueforge-site.yaml is named by its folder, another site file by itself
// (two of those can share a folder).
std::string site_label(const std::string& site_file) {
    const fs::path p(site_file);
    return p.filename() == kSiteFileName ? tidy(p.parent_path()) : tidy(p);
}

// metadata.name of a site file and where it is written.
std::optional<std::pair<std::string, Mark>> site_name(const std::string& file) {
    Diagnostics ignored_diags;  // the site's own check reports what is wrong with it
    std::string text;
    if (!read_file_limited(file, text, ignored_diags)) return std::nullopt;
    auto docs = load_yaml(file, text, ignored_diags);
    for (const auto& d : docs) {
        const Node* meta = d.root.is_map() ? d.root.find("metadata") : nullptr;
        const Node* name = meta && meta->is_map() ? meta->find("name") : nullptr;
        if (name && name->is_scalar() && !name->text().empty()) return std::make_pair(name->text(), name->mark());
    }
    return std::nullopt;
}

void check_names(const std::vector<Cluster>& clusters, Diagnostics& diags) {
    std::map<std::string, std::vector<std::pair<std::string, Mark>>> by_name;
    for (const auto& c : clusters) {
        if (c.site_file.empty()) continue;
        if (auto n = site_name(c.site_file)) by_name[n->first].push_back({c.site_file, n->second});
    }
    for (const auto& [name, files] : by_name) {
        if (files.size() < 2) continue;
        const auto& [first_file, first_mark] = files.front();
        for (std::size_t i = 1; i < files.size(); ++i) {
            const auto& [file, mark] = files[i];
            std::string first_at = first_file;
            if (first_mark.known())
                first_at += ":" + std::to_string(first_mark.line) + ":" + std::to_string(first_mark.col);
            diags.error(file, mark,
                        "two sites are named \"" + name + "\": " + first_at + " and " + file +
                            "; every cluster in a repository needs its own metadata.name",
                        "discover.duplicate-site-name");
        }
    }
}

}  // namespace

bool is_site_base_text(const std::string& text) {
    if (text.find("SiteBase") == std::string::npos) return false;
    Diagnostics ignored_diags;
    for (const auto& d : load_yaml("", text, ignored_diags)) {
        const Node* kind = d.root.is_map() ? d.root.find("kind") : nullptr;
        if (kind && kind->is_scalar() && kind->text() == "SiteBase") return true;
    }
    return false;
}

bool is_site_text(const std::string& text) {
    // A cheap look first: almost every YAML file in a repository is not a site.
    if (text.find("queueforge.io/") == std::string::npos || text.find("Site") == std::string::npos) return false;
    Diagnostics ignored_diags;
    for (const auto& d : load_yaml("", text, ignored_diags)) {
        if (!d.root.is_map()) continue;
        const Node* api = d.root.find("apiVersion");
        const Node* kind = d.root.find("kind");
        if (api && kind && api->is_scalar() && kind->is_scalar() && kind->text() == "Site" &&
            api->text().starts_with("queueforge.io/"))
            return true;
    }
    return false;
}

std::vector<Cluster> find_clusters(const std::vector<std::string>& given, const Options& opts, Diagnostics& diags) {
    const std::vector<std::string> paths = given.empty() ? std::vector<std::string>{"."} : given;
    std::error_code ec;
    if (opts.as_one_cluster) {
        Cluster one;
        one.paths = paths;
        for (const auto& p : paths)
            one.inputs.push_back(fs::is_directory(p, ec) ? (fs::path(p) / kSiteFileName).string() : p);
        return {one};
    }
    Walker w{opts, diags};
    std::vector<bool> plain(paths.size(), false);
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const std::string& p = paths[i];
        const std::size_t before = w.sites.size();
        if (p != "-" && fs::is_directory(p, ec)) {
            w.walk(fs::path(p), 0, parent_rules(fs::path(p)), i);
            if (w.over_limit) return {};
        } else if (p != "-" && fs::is_regular_file(p, ec)) {
            // A file named on the command line is taken as it is: no ignore rules.
            if (fs::path(p).filename() == kSiteFileName) w.sites.push_back({p, i});
            else if (auto text = sniff(p); text && is_site_text(*text)) w.sites.push_back({p, i});
        }
        plain[i] = w.sites.size() == before;  // missing paths too: the reader reports them
    }
    // The same site reached through two command-line paths is one cluster.
    std::set<std::string> seen;
    std::vector<Found> sites;
    for (const auto& s : w.sites)
        if (seen.insert(tidy(fs::weakly_canonical(s.file, ec))).second) sites.push_back(s);

    std::vector<Cluster> clusters;
    if (sites.size() <= 1) {
        Cluster one;
        one.paths = paths;
        for (std::size_t i = 0; i < paths.size(); ++i) {
            if (!sites.empty() && sites.front().arg == i) one.inputs.push_back(sites.front().file);
            else if (plain[i]) one.inputs.push_back(paths[i]);
        }
        one.label = sites.empty() ? (paths.size() == 1 ? tidy(paths.front()) : std::string()) : site_label(sites.front().file);
        if (!sites.empty()) one.site_file = sites.front().file;
        return {one};
    }
    for (const auto& s : sites) {
        Cluster c;
        c.label = site_label(s.file);
        c.site_file = s.file;
        c.inputs = {s.file};
        c.paths = {paths[s.arg]};
        clusters.push_back(std::move(c));
    }
    Cluster files;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (!plain[i]) continue;
        if (fs::is_directory(paths[i], ec)) {
            Cluster c;
            c.label = tidy(paths[i]);
            c.inputs = {paths[i]};
            c.paths = {paths[i]};
            clusters.push_back(std::move(c));
        } else {
            files.inputs.push_back(paths[i]);
            files.paths.push_back(paths[i]);
        }
    }
    if (!files.inputs.empty()) {
        files.label = files.inputs.size() == 1 ? tidy(files.inputs.front()) : "command-line files";
        clusters.push_back(std::move(files));
    }
    std::stable_sort(clusters.begin(), clusters.end(),
                     [](const Cluster& a, const Cluster& b) { return a.label < b.label; });
    check_names(clusters, diags);
    return clusters;
}

std::string rendered_folder(const std::string& site_file, const std::string& name) {
    const std::filesystem::path p(site_file);
    std::filesystem::path out = p.parent_path() / name;
    if (p.filename() != kSiteFileName) out /= p.stem();
    return out.lexically_normal().generic_string();
}

}  // namespace queueforge::discover
