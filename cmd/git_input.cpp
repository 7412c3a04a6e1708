#include "git_input.hpp"

#include <queueforge/frontend/discover.hpp>
#include <queueforge/frontend/site_inputs.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <filesystem>
#include <set>

namespace queueforge::cli {

namespace fs = std::filesystem;

std::unique_ptr<git::Repository> open_repository(std::string& error) { return git::Repository::open(".", error); }

std::optional<std::vector<std::string>> repository_paths(const git::Repository& repo, const std::vector<std::string>& paths,
                                                         std::string& error) {
    std::vector<std::string> out;
    for (const auto& p : paths.empty() ? std::vector<std::string>{"."} : paths) {
        auto rel = git::repository_path(repo, p);
        if (!rel) {
            error = p + " is outside the repository";
            return std::nullopt;
        }
        out.push_back(*rel);
    }
    return out;
}

namespace {

// The files the sites under `prefixes` read that the prefixes do not cover
// (site_inputs.hpp; e.g. the job manifests beside a site file named on its
// own, as the pre-commit hooks name them), written out too, so a site reads
// the same from a revision or the index as from the work tree.
bool add_site_inputs(const git::Repository::Snapshot& snap, const std::string& root,
                     const std::vector<std::string>& prefixes, std::string& error) {
    std::vector<std::string> under;
    for (const auto& p : prefixes) under.push_back((fs::path(root) / p).string());
    if (under.empty()) return true;
    Diagnostics quiet;  // the commands report the sites' problems themselves
    std::vector<std::string> more;
    for (const auto& c : discover::find_clusters(under, {}, quiet)) {
        if (c.site_file.empty()) continue;
        for (const auto& input : site_inputs(c.site_file)) {
            const std::string rel = fs::path(input).lexically_relative(root).lexically_normal().generic_string();
            std::error_code ec;
            if (rel.empty() || rel.starts_with("..") || fs::exists(fs::symlink_status(fs::path(root) / rel, ec))) continue;
            bool truncated = false;
            if (!snap.list(rel, 1, truncated).empty()) more.push_back(rel);
        }
    }
    return more.empty() || git::materialise(snap, more, root, error);
}

bool covered(const std::set<std::string>& done, const std::string& path) {
    for (const auto& d : done)
        if (d.empty() || d == "." || path == d || path.starts_with(d + "/")) return true;
    return false;
}

// The repository paths the spec.extends of the YAML files under `rel` (in
// the written-out revision at `root`) name: the bases their sites are built
// on (site_parse.hpp). A base outside the repository is left to the site's
// loader, which reports it.
std::vector<std::string> named_bases(const std::string& root, const std::string& rel) {
    std::vector<std::string> out;
    auto consider = [&](const fs::path& file) {
        if (file.extension() != ".yaml" && file.extension() != ".yml") return;
        std::string text;
        Diagnostics ignored;
        if (!read_file_limited(file.string(), text, ignored) || text.find("extends") == std::string::npos) return;
        for (const auto& d : load_yaml(file.string(), text, ignored)) {
            const Node* spec = d.root.is_map() ? d.root.find("spec") : nullptr;
            const Node* ext = spec && spec->is_map() ? spec->find("extends") : nullptr;
            if (!ext) continue;
            std::vector<const Node*> refs;
            if (ext->is_string()) refs.push_back(ext);
            else if (ext->is_seq())
                for (const auto& r : ext->items()) refs.push_back(&r);
            const fs::path dir = fs::path(file).lexically_relative(root).parent_path();
            for (const Node* r : refs) {
                if (!r->is_string() || fs::path(r->text()).is_absolute()) continue;
                fs::path base = (dir / r->text().view()).lexically_normal();
                if (base.empty() || *base.begin() == "..") continue;
                // A base file's folder: the job files its workloads name are beside it.
                if (base.extension() == ".yaml" || base.extension() == ".yml") base = base.parent_path();
                out.push_back(base.generic_string());
            }
        }
    };
    std::error_code ec;
    const fs::path top = fs::path(root) / rel;
    if (fs::is_regular_file(top, ec)) consider(top);
    for (fs::recursive_directory_iterator it(top, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) consider(it->path());
    return out;
}

// Writes out the bases the sites under `paths` extend, and theirs, so that
// a revision's site is read with its bases as in the work tree.
void materialise_bases(const git::Repository::Snapshot& snap, const std::vector<std::string>& paths,
                       const std::string& root) {
    std::set<std::string> done(paths.begin(), paths.end());
    std::vector<std::string> todo = paths;
    for (int round = 0; round < 16 && !todo.empty(); ++round) {
        std::vector<std::string> next;
        for (const auto& rel : todo)
            for (auto& base : named_bases(root, rel)) {
                if (covered(done, base)) continue;
                done.insert(base);
                std::string ignored;  // a missing base is the site loader's finding
                if (git::materialise(snap, {base}, root, ignored)) next.push_back(base);
            }
        todo = std::move(next);
    }
}

}  // namespace

std::optional<GitInput> read_input(git::Repository& repo, Source source, const std::string& rev,
                                   const std::vector<std::string>& repo_paths, std::string& error, bool allow_missing) {
    GitInput in;
    if (source == Source::WorkTree) {
        if (repo.bare()) {
            error = "the repository is bare: name the revision to compare with --head REF";
            return std::nullopt;
        }
        in.root = repo.workdir();
        in.name = "the work tree";
        return in;
    }
    std::unique_ptr<git::Repository::Snapshot> snap =
        source == Source::Staged ? repo.staged(error) : repo.revision(rev, error);
    if (!snap) return std::nullopt;
    in.scratch = git::ScratchDir::create(error);
    if (!in.scratch) return std::nullopt;
    std::vector<std::string> present;
    for (const auto& p : repo_paths) {
        bool truncated = false;
        if (!allow_missing || !snap->list(p, 1, truncated).empty()) present.push_back(p);
    }
    if (!git::materialise(*snap, present, in.scratch->path(), error)) return std::nullopt;
    // Bases first: the sites' other inputs are found by loading the sites.
    materialise_bases(*snap, present, in.scratch->path());
    if (!add_site_inputs(*snap, in.scratch->path(), present, error)) return std::nullopt;
    in.root = in.scratch->path();
    in.name = snap->name();
    in.label = source == Source::Staged ? "index:" : rev + ":";
    return in;
}

void relabel(const GitInput& input, Diagnostics& diags, std::vector<SourceText>& sources) {
    std::string prefix = (fs::path(input.root) / "").string();
    auto fix = [&](auto& file) {  // a finding's file or a source's path
        const std::string_view f = file;
        if (f.starts_with(prefix)) file = input.label + std::string(f.substr(prefix.size()));
    };
    // Messages that name the written-out copy (the confinement rule's
    // "resolves to ..., outside the source root ...") name the revision.
    const std::string root = fs::path(input.root).lexically_normal().string();
    const std::string root_name = input.label.empty() ? root : input.label.substr(0, input.label.size() - 1);
    auto fix_text = [&](std::string& text) {
        for (const auto& [from, to] : {std::pair{prefix, input.label}, std::pair{root, root_name}})
            for (std::size_t at = 0; !from.empty() && (at = text.find(from, at)) != std::string::npos; at += to.size())
                text.replace(at, from.size(), to);
    };
    Diagnostics out;
    for (auto d : diags.all()) {
        fix(d.file);
        if (!input.label.empty()) {
            std::string message = d.message;
            fix_text(message);
            d.message = message;
        }
        out.add(std::move(d));
    }
    diags = std::move(out);
    for (auto& s : sources) fix(s.path);
}

}  // namespace queueforge::cli
