// Schemas from CustomResourceDefinition manifests: every served version's
// openAPIV3Schema, keyed by "<group>/<version>" and spec.names.kind.
#include <queueforge/checks/openapi.hpp>
#include <queueforge/base/yaml_load.hpp>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace queueforge::openapi {

namespace {

const CompactString* text_at(const Node* n, std::string_view key) {
    const Node* v = n && n->is_map() ? n->find(key) : nullptr;
    return v && v->is_string() ? &v->text() : nullptr;
}

void crd_error(Diagnostics& diags, const std::string& file, Mark mark, std::string msg) {
    diags.add(Diagnostic{.severity = Severity::Error, .file = file, .mark = mark, .message = std::move(msg), .rule = "crd.invalid"});
}

// A version without a schema (possible only in v1beta1 CRDs): its objects
// are accepted as they are.
std::shared_ptr<const Schema> permissive_schema(const std::string& file, Diagnostics& diags) {
    Node n = Node::mapping();
    n.set("type", Node::string("object"));
    n.set("x-kubernetes-preserve-unknown-fields", Node::boolean(true));
    return compile(n, file, diags);
}

void add_documents(const std::vector<Document>& docs, const std::string& file, SchemaSet& out, Diagnostics& diags) {
    for (const auto& d : docs) {
        const CompactString* kind = text_at(&d.root, "kind");
        // `kubectl get crd -o yaml` wraps them in a List.
        if (kind && *kind == "List") {
            if (const Node* items = d.root.find("items"); items && items->is_seq())
                for (const auto& i : items->items()) add_crd(i, file, out, diags);
            continue;
        }
        add_crd(d.root, file, out, diags);
    }
}

void load_file(const std::string& path, SchemaSet& out, Diagnostics& diags) {
    std::string text;
    if (!read_file_limited(path, text, diags)) return;
    add_documents(load_yaml(path, text, diags), path, out, diags);
}

bool manifest_extension(const std::filesystem::path& p) {
    auto ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

void SchemaSet::add(const std::string& api_version, const std::string& kind, std::shared_ptr<const Schema> s) {
    schemas_[{api_version, kind}] = std::move(s);
}

const Schema* SchemaSet::find(const std::string& api_version, const std::string& kind) const {
    auto it = schemas_.find(std::pair<std::string_view, std::string_view>(api_version, kind));
    return it == schemas_.end() ? nullptr : it->second.get();
}

void add_crd(const Node& crd, const std::string& file, SchemaSet& out, Diagnostics& diags) {
    const CompactString* api_version = text_at(&crd, "apiVersion");
    const CompactString* kind = text_at(&crd, "kind");
    if (!api_version || !kind || *kind != "CustomResourceDefinition" ||
        !api_version->starts_with("apiextensions.k8s.io/"))
        return;
    const Node* spec = crd.find("spec");
    const CompactString* group = text_at(spec, "group");
    const CompactString* cr_kind = spec && spec->is_map() ? text_at(spec->find("names"), "kind") : nullptr;
    if (!group || !cr_kind) {
        crd_error(diags, file, crd.mark(), "CustomResourceDefinition without spec.group or spec.names.kind");
        return;
    }
    // v1beta1 allowed one schema for all versions at spec.validation.
    const Node* shared_schema = nullptr;
    if (const Node* validation = spec->find("validation"); validation && validation->is_map())
        shared_schema = validation->find("openAPIV3Schema");

    auto add_version = [&](const Node& at, const std::string& version, const Node* schema_node) {
        std::shared_ptr<const Schema> schema;
        if (schema_node) {
            schema = compile(*schema_node, file, diags);
            if (!schema) return;  // compile reported why
        } else {
            diags.add(Diagnostic{.severity = Severity::Warning,
                                 .file = file,
                                 .mark = at.mark(),
                                 .message = "CustomResourceDefinition " + *group + " version " + version +
                                            " has no openAPIV3Schema; " + *cr_kind + " objects are not checked",
                                 .rule = "crd.no-schema"});
            schema = permissive_schema(file, diags);
        }
        out.add(*group + "/" + version, *cr_kind, std::move(schema));
    };

    const Node* versions = spec->find("versions");
    if (versions && versions->is_seq()) {
        for (const auto& v : versions->items()) {
            const CompactString* name = text_at(&v, "name");
            if (!name) {
                crd_error(diags, file, v.mark(), "CustomResourceDefinition version without a name");
                continue;
            }
            // `served` is required in v1; a version that does not say is taken
            // as served rather than silently dropped.
            if (const Node* served = v.find("served"); served && served->kind() == Node::Kind::Bool && !served->as_bool())
                continue;
            const Node* schema_node = shared_schema;
            if (const Node* s = v.find("schema"); s && s->is_map())
                if (const Node* o = s->find("openAPIV3Schema")) schema_node = o;
            add_version(v, *name, schema_node);
        }
    } else if (const CompactString* version = text_at(spec, "version")) {
        add_version(*spec, *version, shared_schema);
    } else {
        crd_error(diags, file, spec->mark(), "CustomResourceDefinition without spec.versions");
    }
}

void load_crds(const std::vector<std::string>& paths, SchemaSet& out, Diagnostics& diags) {
    namespace fs = std::filesystem;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> files;
            fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
            for (; !ec && it != end; it.increment(ec))
                if (it->is_regular_file(ec) && manifest_extension(it->path())) files.push_back(it->path().string());
            if (ec) diags.error(p, {}, "cannot list " + p + ": " + ec.message(), "crd.path");
            // Sorted so that a kind defined twice resolves the same way everywhere.
            std::sort(files.begin(), files.end());
            for (const auto& f : files) load_file(f, out, diags);
        } else if (fs::exists(p, ec)) {
            load_file(p, out, diags);
        } else {
            diags.error(p, {}, "no such file or directory: " + p, "crd.path");
        }
    }
}

}  // namespace queueforge::openapi
