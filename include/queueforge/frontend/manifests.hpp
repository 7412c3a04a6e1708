#pragma once
// Kubernetes objects read from files: what `validate` checks and what
// `simulate` runs. Multi-document streams, JSON, `kind: List` and
// `kubectl get -o yaml|json` dumps are flattened into one object each.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/object.hpp>

#include <string>
#include <vector>

namespace queueforge {

struct Resource {
    CompactString file;  // path as given (or "-" / "<stdin>")
    int doc_index = 0;  // document in the file; items of a List share their document's index
    Node doc;           // the object; field marks point into `file`
    ObjectRef ref;      // apiVersion, kind, namespace, name read from doc
};

struct LoadedResources {
    std::vector<Resource> resources;
    std::vector<SourceText> sources;  // file texts, for carets in text output
};

// Reads files, folders (recursively: *.yaml, *.yml, *.json, sorted) and "-"
// (stdin). Documents that are not objects or lack apiVersion/kind are errors
// (rule "resource.invalid"); unreadable paths are errors with rule "io".
LoadedResources load_resources(const std::vector<std::string>& paths, Diagnostics& diags);

// Same for text already in memory (tests, stdin, git blobs). The text is
// kept in out.sources: pass it with std::move when it is not needed after.
void load_resources_from_text(const std::string& file, std::string text, LoadedResources& out,
                              Diagnostics& diags);

// A compiled object as a resource of `file` (the site it was lowered from),
// its root marked at the site element it came from.
Resource resource_of(Object o, const std::string& file);

// A Node's position, or the object's when the node has none.
Mark mark_of(const Node* n, const Resource& r);

// A finding about `r` at `at` (the object's position when `at` has none),
// naming the object and the field path.
Diagnostic object_finding(const Resource& r, Severity s, const Node* at, std::string message, std::string rule,
                          std::string path = {});

}  // namespace queueforge
