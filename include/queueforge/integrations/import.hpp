#pragma once
// queueforge import: existing Kueue and DataScienceCluster manifests (a repo
// folder, files, a `kubectl get -A -o yaml` dump) → a site description that
// builds the same objects again. Whatever the site format cannot express is
// kept (spec.patches for fields, spec.passthrough for whole manifests) and
// reported as a warning at the input's file:line:col, never dropped.
//
// The importer checks its own result: it builds the site it inferred and
// compares every object with its input, modulo CRD defaults and queueforge's
// own labels and annotations. An object the site cannot reproduce falls back
// to passthrough, so building the imported site always gives the input back.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace queueforge {

struct ImportOptions {
    std::string target;     // build for this target instead of inferring one ("rhoai-2.16", "kueue-0.13", ...)
    std::string site_name;  // metadata.name of the site; default: the part-of label of queueforge's objects, else "imported"
    // Called as the import moves on ("inferring the site from 10000 objects",
    // "self-check round 2: ..."); the CLI shows it on a terminal.
    std::function<void(const std::string&)> progress;
};

struct ImportStats {
    std::size_t objects = 0;      // distinct input objects after hygiene and de-duplication
    std::size_t modelled = 0;     // objects the site's pools, cohorts, priority classes, teams, ... produce
    std::size_t patched = 0;      // of those, objects that need a spec.patches entry
    std::size_t passthrough = 0;  // objects kept whole in spec.passthrough
    std::size_t rounds = 0;       // build-and-compare rounds until the site reproduced its input
};

struct ImportResult {
    Node site;           // the Site document
    std::string target;  // the target it builds for, e.g. "rhoai-2.25"
    ImportStats stats;
};

// Errors (conflicting duplicates, an unknown --target, nothing to import)
// give nullopt. `resources` is consumed: its documents are moved, not copied,
// so that large dumps are held once.
std::optional<ImportResult> import_site(std::vector<Resource> resources, Diagnostics& diags,
                                        const ImportOptions& opts = {});

// The site file's text: a comment line, then the document.
std::string render_imported_site(const ImportResult& r);

// import --into: the site file for an imported cluster named `name` in the
// repository folder `into`: <into>/<name>/queueforge-site.yaml. nullopt with
// an error (import.name-taken) when a site beneath `into` already has that
// metadata.name, or the folder exists.
std::optional<std::string> import_destination(const std::string& into, const std::string& name, Diagnostics& diags);

// import --into --extends BASE: `site` (an imported Site document) as an
// overlay of the base file or folder `base` (spec.extends, written relative
// to `site_file`'s folder) that keeps only what differs from the base. The
// overlay is kept only when it builds exactly the objects the whole site
// builds; otherwise nullopt with the warning import.overlay (the caller then
// writes the whole site), or with an error when the base cannot be read.
std::optional<Node> overlay_on_base(const Node& site, const std::string& base, const std::string& site_file,
                                    Diagnostics& diags);

// Writes `text` to `path` through a temporary file in the same folder and a
// rename, so the file is either complete or untouched.
bool write_file_atomically(const std::string& path, const std::string& text, Diagnostics& diags);

}  // namespace queueforge
