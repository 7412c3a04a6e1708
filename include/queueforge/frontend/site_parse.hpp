#pragma once
// Site file → site model. Checks shape and types (unknown fields with a
// "did you mean", wrong types naming the expected one, bad quantities and
// names) and reports every problem found, not only the first.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/frontend/site.hpp>
#include <queueforge/base/yaml_load.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace queueforge {

inline constexpr const char* kSiteApiVersion = "queueforge.io/v1alpha1";

bool is_site_document(const Node& root);

// Returns the model when the document has no errors (warnings allowed).
std::optional<site::Site> parse_site(const Node& root, const std::string& file, Diagnostics& diags);

// Parses the text of a site file: exactly one Site document is expected.
std::optional<site::Site> parse_site_text(const std::string& path, const std::string& text, Diagnostics& diags);

// Reads and parses a site file: exactly one Site document is expected. The
// one function every command loads a site with: the bases the site extends
// (spec.extends, README "Repositories with several clusters") are read and
// merged here, inside the site's source root only, so every caller sees the
// merged site; findings about a value a base set name the base's file and
// line. `text_out` receives the site file's text, `base_sources` each base
// read (path as findings name it, text), also when loading fails, so that a
// finding in a base renders with its line. Site::inputs lists every file
// read. A file of kind SiteBase is refused: a base is never built alone.
// `parsed`, when given, gets the text once it is parsed into a tree, before
// the site model is read from the tree (a caller that sets a large text
// aside until its report: compile.hpp, CompileInputs::keep_site).
std::optional<site::Site> load_site_file(const std::string& path, Diagnostics& diags,
                                         std::string* text_out = nullptr,
                                         std::vector<SourceText>* base_sources = nullptr,
                                         const std::function<void(std::string&)>& parsed = {});

// load_site_file for a site document already read from `path` (a site among
// the resources a command loaded): its bases merged, then parsed.
std::optional<site::Site> load_site_document(const Node& root, const std::string& path, Diagnostics& diags,
                                             std::vector<SourceText>* base_sources = nullptr);

// load_site_file for a site text already in memory (tests, benchmarks).
std::optional<site::Site> load_site_text(const std::string& path, const std::string& text, Diagnostics& diags,
                                         std::vector<SourceText>* base_sources = nullptr);

// The job manifests a site's workloads[].file entries name. Each file is
// relative to the folder of the file that names it (the site's `site_dir`,
// or a base's), must stay inside it (source_root.hpp), and is read with its
// text for carets. nullopt when the file cannot be read (an error
// at the entry's `file`); no resources when the file does not parse.
std::optional<LoadedResources> read_sample_file(const site::Site& s, const site::Workload& w,
                                                const std::string& site_dir, Diagnostics& diags);
// Every `file` entry's manifests, in section order, with their texts.
LoadedResources read_sample_files(const site::Site& s, const std::string& site_dir, Diagnostics& diags);

// The sources to render findings of a site load with: the site file and each
// base it read.
std::vector<SourceText> site_sources(const std::string& path, std::string text, std::vector<SourceText> bases);

}  // namespace queueforge
