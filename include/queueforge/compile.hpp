#pragma once
// The one compile step every command and the report use (docs/architecture.md):
//
//   read → parse (bases merged) → [prepare] → lower → Kueue rules → model
//
// compile() returns the result together with its findings and the texts it
// read, so a caller renders every finding with its caret without threading
// source texts through its own signatures. Callers emit the objects with
// render_stream or write_objects (emit.hpp).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/frontend/site.hpp>
#include <queueforge/lower.hpp>
#include <queueforge/model/cluster.hpp>
#include <queueforge/model/kueue_config.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace queueforge {

// The texts a compilation read, one per file (the first text given for a path
// is kept): the site file, each base it extends, each sample manifest.
class SourceSet {
public:
    void add(std::string path, std::string text);
    void add(const std::vector<SourceText>& texts);
    void add(SourceText text);
    const SourceText* find(const std::string& path) const;
    // In the order first added: what render_text and the report formats take.
    const std::vector<SourceText>& texts() const { return texts_; }
    // The texts, leaving the set empty: for a caller that is done with the
    // compilation's sources (a large site's text is not copied to report).
    std::vector<SourceText> release();
    bool empty() const { return texts_.empty(); }

private:
    std::vector<SourceText> texts_;
    std::map<std::string, std::size_t> index_;
};

struct CompileInputs {
    std::string path;                // the site file (a file, not a folder: see discover.hpp site_path)
    std::optional<std::string> text{};  // the file's text when already read (tests, benchmarks); else it is read
    const Node* document = nullptr;  // the site document already parsed from `path` (a site among manifests)
    std::string target;              // --target: replaces the site's target
    // Read the job manifests the site's workloads[].file entries name
    // (Compilation::samples); relative to the file naming each one.
    bool read_samples = false;
    // Runs between parsing and lowering when the site parsed: what the Argo CD
    // plugin changes (the team subset, the API version the cluster serves).
    // Findings it adds count like the parse's; errors stop before lowering.
    std::function<void(site::Site&, Diagnostics&)> prepare{};
    // Build Compilation::model: what the engines that read a site's cluster
    // (capacity, the report) ask for; emitting needs only the objects.
    bool build_model = false;
    // Keep each lowered field's provenance (LowerOptions::provenance). Without
    // it, findings on lowered objects are still placed where their values
    // were written: the site is lowered again, with provenance, when there
    // are any.
    bool provenance = true;
    // False for a caller that uses only the objects and the findings (build):
    // the site's quota is released as it is lowered
    // (lower_site_releasing_quota), Compilation::site is left empty, and the
    // site file's text is set aside (set_source_aside), to be read again by
    // restore_sources for the report. A large site's model, text and
    // lowered objects are then not held at once.
    bool keep_site = true;
};

struct Compilation {
    std::optional<site::Site> site;   // set when the site parsed without errors
    std::optional<Lowered> lowered;   // target and objects, in stream order; set when lowering succeeded
    model::Cluster model;             // build_model: the objects as one typed cluster (else empty)
    model::KueueConfig kueue_config;  // build_model: Kueue's configuration among the objects (else empty)
    std::vector<Resource> samples;    // read_samples: the sample manifests, in section order
    SourceSet sources;                // every text read, for carets
    Diagnostics diagnostics;          // every finding, in the order the stages made them

    // Lowered, and no finding at error severity.
    bool ok() const { return lowered.has_value() && !diagnostics.has_errors(); }
    const std::vector<Object>& objects() const;
};

Compilation compile(const CompileInputs& in);

// compile() for a site text in memory: the lowered objects, findings appended
// to `diags` (benchmarks and tests).
std::optional<Lowered> compile_site(const std::string& path, const std::string& text, Diagnostics& diags,
                                    const LowerOptions& opts = {});

}  // namespace queueforge
