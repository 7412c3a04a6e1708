#pragma once
// Where a git-aware command reads a site from: the work tree, a revision
// (written out to a private temporary folder) or the index (--staged).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/integrations/git.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::cli {

struct GitInput {
    std::unique_ptr<git::ScratchDir> scratch;  // a revision's or the index's files
    std::string root;   // the folder repository paths are relative to
    std::string label;  // prefix of file names in findings: "HEAD~1:", "index:", ""
    std::string name;   // "HEAD~1 (1a2b3c4)", "the index (staged changes)", "the work tree"
};

enum class Source { WorkTree, Staged, Revision };

// The repository around the current directory, and `paths` as repository
// paths (default: the current directory). nullopt and `error` otherwise.
std::unique_ptr<git::Repository> open_repository(std::string& error);
std::optional<std::vector<std::string>> repository_paths(const git::Repository& repo, const std::vector<std::string>& paths,
                                                         std::string& error);

// With `allow_missing`, paths the revision or index does not have are left
// out rather than an error (diff: a site added or removed).
std::optional<GitInput> read_input(git::Repository& repo, Source source, const std::string& rev,
                                   const std::vector<std::string>& repo_paths, std::string& error,
                                   bool allow_missing = false);

// Findings and sources that name files under input.root, renamed to
// "<label><repository path>".
void relabel(const GitInput& input, Diagnostics& diags, std::vector<SourceText>& sources);

}  // namespace queueforge::cli
