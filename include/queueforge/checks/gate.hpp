#pragma once
// The gate: what turns findings into a verdict. Every command passes its
// findings through one `apply` before printing them and choosing its exit
// code, so rule configuration means the same everywhere:
//
//   * `.queueforge.yaml` (found from the working folder upward, up to the
//     repository root) or `--config FILE`: a severity per rule id
//     (off | note | warning | error), globally and per path glob;
//   * `--disable ID` / `--enable ID` on the command line, for any rule id;
//   * the object annotation `queueforge.io/ignore: "rule-a,rule-b"`, and the
//     same list as `ignore:` on a site's team or pool: the findings about
//     that object (or inside that part of the site) are dropped, with one
//     note saying what was suppressed.
//
// Exit codes (every command): 0 when no finding reaches the fail level, 1
// when one does (invalid input included), 2 for usage errors and command-line
// paths that cannot be read, 70 for an internal error.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/rule_ids.hpp>
#include <queueforge/checks/rule_catalogue.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge::gate {

enum class Level { Off, Note, Warning, Error };

std::optional<Level> parse_level(std::string_view s);  // "off", "note", "warning", "error"

inline constexpr const char* kConfigFileName = ".queueforge.yaml";
inline constexpr const char* kIgnoreAnnotation = "queueforge.io/ignore";

struct RuleSetting {
    Level level = Level::Error;
    std::string file;  // where it was set, for messages
    Mark mark;
};

struct PathOverride {
    std::vector<std::string> globs;  // relative to the config's folder
    std::map<std::string, RuleSetting> rules;
};

struct Config {
    std::string file;      // the config file read ("" when none)
    std::string base_dir;  // the folder globs are relative to
    std::map<std::string, RuleSetting> rules;
    std::vector<PathOverride> overrides;  // later entries win
};

// The nearest .queueforge.yaml from `start` upward; the search stops at the
// first folder holding `.git` (the repository root), at `stop_at` when given
// (a confinement root: nothing above it is read) or at the filesystem root.
std::optional<std::string> find_config(const std::string& start, const std::string& stop_at = {});

// Reads a config file. Problems are positioned errors (rule "config.invalid");
// an unreadable file is an error with rule "io". The text is appended to
// `sources` for carets.
std::optional<Config> load_config(const std::string& path, Diagnostics& diags, std::vector<SourceText>* sources);

// What a command line adds on top of the file.
struct Options {
    std::string config_path;           // --config ("" = search from the working folder)
    bool no_config = false;            // --no-config
    std::string search_root;           // never look for .queueforge.yaml above this folder ("" = no limit)
    std::vector<std::string> disable;  // --disable ID
    std::vector<std::string> enable;   // --enable ID
};

// Everything the gate needs, loaded once per run.
struct Gate {
    // Loaded only when something names rule ids (a config with rules, --disable,
    // --enable, a suppression): most runs never need it.
    std::optional<rules::Catalogue> catalogue;
    Config config;
    Options options;
    std::vector<std::string> extra_ids;  // ids known beyond the catalogue (policies loaded from --policy)

    // The level of `rule` for a finding in `file`; nullopt when nothing
    // configures it (the finding keeps its own severity).
    std::optional<Level> configured(const std::string& rule, const std::string& file) const;
    // `file` relative to the config's folder, as globs see it.
    std::string config_relative(const std::string& file) const;
};

// Loads the catalogue and the config (--config, or the nearest
// .queueforge.yaml). Returns nullopt after reporting into `diags` when the
// config is broken; `io_error` is set when the config path cannot be read.
std::optional<Gate> load_gate(const Options& opts, Diagnostics& diags, std::vector<SourceText>* sources,
                              bool* io_error = nullptr);

// Applies config levels, --disable/--enable and suppression annotations to
// `diags` (in place). `sources` are the texts the findings point into: their
// annotations and site `ignore:` lists are read from them. Unknown rule ids
// in the config, on the command line or in annotations are warnings with a
// suggestion (rule "config.unknown-rule").
void apply(const Gate& gate, const std::vector<SourceText>& sources, Diagnostics& diags);
// Whether `text` may hold an annotation or a site `ignore:` list that apply()
// reads: the only texts it parses again.
bool may_hold_suppressions(std::string_view text);

// `pattern` against a slash-separated relative path: `*` and `?` within one
// segment, `**` across segments; a pattern without `/` matches the last
// segment at any depth (as .gitignore does).
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace queueforge::gate
