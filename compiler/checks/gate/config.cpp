// .queueforge.yaml: rule severities, globally and per path glob.
//
//   rules:
//     xref.missing-clusterqueue: off
//     V24: warning
//   overrides:
//     - files: ["clusters/dev/**", "*.job.yaml"]
//       rules:
//         sim.never-admitted: warning
#include <queueforge/checks/gate.hpp>

#include "frontend/site/reader.hpp"

#include <queueforge/base/yaml_load.hpp>

#include <filesystem>

namespace queueforge::gate {

namespace fs = std::filesystem;

namespace {

constexpr const char* kInvalid = "config.invalid";

void read_rules(const std::string& file, const Node& n, std::map<std::string, RuleSetting>& out, Diagnostics& diags) {
    if (!n.is_map()) {
        diags.error(file, n.mark(), "rules: expected a map of rule id to off, note, warning or error", kInvalid);
        return;
    }
    for (const auto& e : n.entries()) {
        const auto level = e.value.is_scalar() ? parse_level(e.value.text()) : std::nullopt;
        if (!level) {
            diags.error(file, e.value.mark().known() ? e.value.mark() : e.key_mark(),
                        "rules." + e.key + ": expected off, note, warning or error", kInvalid);
            continue;
        }
        out[e.key] = {*level, file, e.key_mark()};
    }
}

// Absolute, normal, without a trailing separator ("/a/b/." -> "/a/b").
fs::path clean(const fs::path& p) {
    std::error_code ec;
    fs::path out = fs::absolute(p, ec).lexically_normal();
    if (!out.has_filename() && out.has_relative_path()) out = out.parent_path();
    return out;
}

}  // namespace

std::optional<Level> parse_level(std::string_view s) {
    if (s == "off" || s == "false") return Level::Off;  // YAML 1.1 readers turn `off` into false
    if (s == "note" || s == "info") return Level::Note;
    if (s == "warning" || s == "warn") return Level::Warning;
    if (s == "error") return Level::Error;
    return std::nullopt;
}

std::optional<std::string> find_config(const std::string& start, const std::string& stop_at) {
    std::error_code ec;
    fs::path dir = clean(start.empty() ? fs::path(".") : fs::path(start));
    const fs::path stop = stop_at.empty() ? fs::path() : clean(stop_at);
    // Bounded by the depth of the path.
    for (int depth = 0; depth < 4096; ++depth) {
        const fs::path candidate = dir / kConfigFileName;
        if (fs::is_regular_file(candidate, ec)) {
            // Named as the user would: relative to the working folder.
            const fs::path rel = candidate.lexically_relative(fs::current_path(ec));
            return ec || rel.empty() ? candidate.string() : rel.string();
        }
        if (fs::exists(dir / ".git", ec) || (!stop.empty() && dir == stop)) return std::nullopt;
        const fs::path parent = dir.parent_path();
        if (parent.empty() || parent == dir) return std::nullopt;
        dir = parent;
    }
    return std::nullopt;
}

std::optional<Config> load_config(const std::string& path, Diagnostics& diags, std::vector<SourceText>* sources) {
    std::string text;
    Diagnostics read;
    if (!read_file_limited(path, text, read, 1u << 20)) {
        for (auto d : read.all()) {
            d.rule = "io";
            diags.add(d);
        }
        return std::nullopt;
    }
    if (sources) sources->push_back({path, text});
    const std::size_t errors_before = diags.count(Severity::Error);
    auto docs = load_yaml(path, text, diags);
    Config c;
    c.file = path;
    std::error_code ec;
    c.base_dir = fs::absolute(path, ec).parent_path().lexically_normal().string();
    if (docs.empty()) return diags.count(Severity::Error) > errors_before ? std::nullopt : std::optional<Config>(c);
    if (docs.size() > 1) diags.error(path, docs[1].start, "a config file holds one document", kInvalid);
    const Node& root = docs[0].root;
    const site::Reader rd{path, diags, "config"};
    if (!rd.expect_map(root, "config", {"apiVersion", "kind", "rules", "overrides"})) return std::nullopt;
    if (const Node* k = root.find("kind"); k && k->text() != "Config")
        diags.error(path, k->mark(), "kind: expected Config", kInvalid);
    if (const Node* r = root.find("rules")) read_rules(path, *r, c.rules, diags);
    if (const Node* o = root.find("overrides")) {
        if (rd.expect_seq(*o, "overrides")) {
            for (const Node& item : o->items()) {
                if (!rd.expect_map(item, "overrides[]", {"files", "rules"})) continue;
                PathOverride po;
                const Node* files = item.find("files");
                if (files && files->is_scalar() && !files->is_null()) {
                    po.globs.push_back(files->text());
                } else if (files && files->is_seq()) {
                    for (const Node& g : files->items()) {
                        if (g.is_scalar() && !g.is_null()) po.globs.push_back(g.text());
                        else diags.error(path, g.mark(), "overrides[].files: expected path globs", kInvalid);
                    }
                }
                if (po.globs.empty()) diags.error(path, item.mark(), "overrides[]: `files` (a glob or a list of globs) is required", kInvalid);
                if (const Node* r = item.find("rules")) read_rules(path, *r, po.rules, diags);
                c.overrides.push_back(std::move(po));
            }
        }
    }
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    return c;
}

std::optional<Gate> load_gate(const Options& opts, Diagnostics& diags, std::vector<SourceText>* sources, bool* io_error) {
    Gate g;
    g.options = opts;
    std::optional<std::string> path;
    if (!opts.config_path.empty()) path = opts.config_path;
    else if (!opts.no_config) path = find_config(".", opts.search_root);
    if (path) {
        Diagnostics read;
        auto c = load_config(*path, read, sources);
        for (const auto& d : read.all())
            if (d.rule == "io" && io_error) *io_error = true;
        diags.append(read);
        if (!c) return std::nullopt;
        g.config = std::move(*c);
    }
    if (!g.config.rules.empty() || !g.config.overrides.empty() || !opts.disable.empty() || !opts.enable.empty()) {
        Diagnostics cat;
        g.catalogue = rules::load_catalogue(cat);
        diags.append(cat);  // a broken catalogue is a build defect: say so rather than hide it
    }
    return g;
}

std::string Gate::config_relative(const std::string& file) const {
    std::error_code ec;
    const fs::path abs = fs::absolute(file, ec).lexically_normal();
    std::string rel = config.base_dir.empty() ? std::string() : abs.lexically_relative(config.base_dir).generic_string();
    if (rel.empty() || rel.starts_with("..")) rel = fs::path(file).lexically_normal().generic_string();
    return rel;
}

std::optional<Level> Gate::configured(const std::string& rule, const std::string& file) const {
    if (rule.empty()) return std::nullopt;
    // The command line wins over the file.
    for (auto it = options.enable.rbegin(); it != options.enable.rend(); ++it)
        if (*it == rule) {
            const auto* info = catalogue ? catalogue->find(rule) : nullptr;
            const Severity s = info ? info->severity : Severity::Error;
            return s == Severity::Error ? Level::Error : s == Severity::Warning ? Level::Warning : Level::Note;
        }
    for (const auto& d : options.disable)
        if (d == rule) return Level::Off;
    std::optional<Level> level;
    if (auto it = config.rules.find(rule); it != config.rules.end()) level = it->second.level;
    if (!config.overrides.empty() && !file.empty()) {
        const std::string rel = config_relative(file);
        for (const auto& o : config.overrides) {
            auto r = o.rules.find(rule);
            if (r == o.rules.end()) continue;
            for (const auto& g : o.globs)
                if (glob_match(g, rel)) {
                    level = r->second.level;
                    break;
                }
        }
    }
    return level;
}

}  // namespace queueforge::gate
