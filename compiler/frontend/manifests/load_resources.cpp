#include <queueforge/base/output_folder.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>

namespace queueforge {

namespace fs = std::filesystem;

namespace {

// Takes the document: a top-level object is moved into its Resource, the
// items of a List are copied out of it. The file's objects share the text of
// its path (a CompactString copy), as each shares its apiVersion's with its tree.
void add_object(const CompactString& file, int index, Node&& doc, LoadedResources& out, Diagnostics& diags) {
    if (!doc.is_map()) {
        diags.error(file, doc.mark(), std::string("document is a ") + Node::kind_name(doc.kind()) + ", not a Kubernetes object",
                    "resource.invalid");
        return;
    }
    const Node* api = doc.find("apiVersion");
    const Node* kind = doc.find("kind");
    if (!api || !api->is_string() || api->text().empty() || !kind || !kind->is_string() || kind->text().empty()) {
        diags.error(file, doc.mark(), std::string("object has no ") + (!api || text(api).empty() ? "apiVersion" : "kind"),
                    "resource.invalid");
        return;
    }
    // `kind: List` (and kubectl's `...List` dumps) carry their objects in items.
    if (kind->text() == "List" || (kind->text().ends_with("List") && doc.find("items"))) {
        const Node* items = doc.find("items");
        if (!items || !items->is_seq()) {
            diags.error(file, doc.mark(), kind->text() + " has no items list", "resource.invalid");
            return;
        }
        for (const auto& item : items->items()) add_object(file, index, Node(item), out, diags);
        return;
    }
    Resource r;
    r.file = file;
    r.doc_index = index;
    r.ref.api_version = api->text();
    r.ref.kind = kind->text();
    if (const Node* meta = doc.find("metadata"); meta && meta->is_map()) {
        r.ref.name = text(meta->find("name"));
        r.ref.namespace_ = text(meta->find("namespace"));
    }
    r.doc = std::move(doc);
    out.resources.push_back(std::move(r));
}

bool wanted(const fs::path& p) {
    auto ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

void load_resources_from_text(const std::string& file, std::string text, LoadedResources& out, Diagnostics& diags) {
    auto docs = load_yaml(file, text, diags);
    out.sources.push_back({file, std::move(text)});
    // Room for this file's objects at once (Lists aside): growing one by one
    // holds the old and the new array of a large input at the same time.
    if (const std::size_t want = out.resources.size() + docs.size(); want > out.resources.capacity())
        out.resources.reserve(std::max(want, 2 * out.resources.capacity()));
    const CompactString path(file);
    for (auto& d : docs) add_object(path, d.index, std::move(d.root), out, diags);
}

LoadedResources load_resources(const std::vector<std::string>& paths, Diagnostics& diags) {
    LoadedResources out;
    for (const auto& p : paths) {
        if (p == "-") {
            std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
            load_resources_from_text("<stdin>", std::move(text), out, diags);
            continue;
        }
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> files;
            for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
                 !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
                // A killed `build -o`'s staging folder is not part of the
                // tree (output_folder.hpp): reading it would count every object twice.
                if (is_staging_folder(it->path().filename().string())) {
                    it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file(ec) && wanted(it->path())) files.push_back(it->path().string());
            }
            std::sort(files.begin(), files.end());
            for (const auto& f : files) {
                std::string text;
                if (read_file_limited(f, text, diags)) {
                    load_resources_from_text(f, std::move(text), out, diags);
                    out.sources.back().from_file = true;
                }
            }
            continue;
        }
        std::string text;
        if (read_file_limited(p, text, diags)) {
            load_resources_from_text(p, std::move(text), out, diags);
            out.sources.back().from_file = true;
        }
    }
    return out;
}

Mark mark_of(const Node* n, const Resource& r) {
    if (n && n->mark().known()) return n->mark();
    return r.doc.mark();
}

Diagnostic object_finding(const Resource& r, Severity s, const Node* at, std::string message, std::string rule,
                          std::string path) {
    Diagnostic d;
    d.severity = s;
    d.file = r.file;
    d.mark = mark_of(at, r);
    d.message = std::move(message);
    d.rule = std::move(rule);
    d.object = r.ref;
    d.path = std::move(path);
    return d;
}

}  // namespace queueforge
