#pragma once
// Reads YAML (and therefore JSON) streams into Node trees with positions.
// Unlike a plain yaml-cpp load it refuses what Kubernetes tooling would
// silently mangle: duplicate keys (kubectl keeps the last, yaml-cpp the first),
// tabs used as indentation, anchors/aliases that expand past a budget, nesting
// deeper than a limit, and inputs larger than a limit. Problems become
// positioned diagnostics, never exceptions.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace queueforge {

struct LoadOptions {
    std::size_t max_bytes = 32u * 1024u * 1024u;
    int max_depth = 200;
    // Total nodes a stream may expand to once aliases are resolved.
    std::size_t max_nodes = 4u * 1024u * 1024u;
    // Read plain manifests with the fast reader (compiler/base/yaml/fast_parse.hpp),
    // falling back to yaml-cpp; off only to compare the two.
    bool fast_path = true;
    // A stream of at least parallel_min_bytes is read by up to `threads`
    // threads (0: the machine's cores, at most 4), in parts cut where a
    // document starts; the documents, marks and findings are the same as
    // one thread's.
    unsigned threads = 0;
    std::size_t parallel_min_bytes = 4u * 1024u * 1024u;
};

struct Document {
    Node root;
    Mark start;      // where the document begins
    int index = 0;   // 0-based position in the stream
};

// Parses `text` (the content of `path`, used only for diagnostics). Returns the
// documents read; on any error an empty vector and at least one error in
// `diags`. Empty documents (a lone `---`) are dropped.
std::vector<Document> load_yaml(const std::string& path, const std::string& text, Diagnostics& diags,
                                const LoadOptions& opts = {});

// Reads a file with the size limit applied before reading it whole.
// Returns false (and an error in diags) when it cannot be read.
bool read_file_limited(const std::string& path, std::string& out, Diagnostics& diags,
                       std::size_t max_bytes = LoadOptions{}.max_bytes);

}  // namespace queueforge
