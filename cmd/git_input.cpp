#include "git_input.hpp"

#include <queueforge/discover.hpp>
#include <queueforge/site_inputs.hpp>

#include <filesystem>

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
    if (!add_site_inputs(*snap, in.scratch->path(), present, error)) return std::nullopt;
    in.root = in.scratch->path();
    in.name = snap->name();
    in.label = source == Source::Staged ? "index:" : rev + ":";
    return in;
}

void relabel(const GitInput& input, Diagnostics& diags, std::vector<SourceText>& sources) {
    std::string prefix = (fs::path(input.root) / "").string();
    auto fix = [&](std::string& file) {
        if (file.compare(0, prefix.size(), prefix) == 0) file = input.label + file.substr(prefix.size());
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
        if (!input.label.empty()) fix_text(d.message);
        out.add(std::move(d));
    }
    diags = std::move(out);
    for (auto& s : sources) fix(s.path);
}

}  // namespace queueforge::cli
