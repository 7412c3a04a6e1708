#pragma once
// Provenance of emitted values: for any field of a lowered object, the site
// position it was derived from and the rule that derived it. Lowering
// records it (Object::provenance); this resolves the fields without a record
// of their own, renders it for `queueforge explain` (text, JSON) and as the
// comment blocks of `build --annotate`.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/object.hpp>
#include <queueforge/base/provenance.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace queueforge::explain {

// Field paths (provenance.hpp) are spelt the same here.
using provenance::append_index;
using provenance::append_key;
using provenance::parse_path;
using provenance::PathStep;

// ---- Resolution ------------------------------------------------------------

// The answer for one field (or the object itself, path "").
struct FieldOrigin {
    std::string path;             // canonical spelling
    const Node* value = nullptr;  // the field's value in the manifest
    Mark mark;
    Derivation how = Derivation::Written;
    std::string rule;             // never empty: Written without a rule reads "written in the site"
    std::string from;             // path of the record that answered ("" = the object's)
    bool own = false;             // answered by a record of this path or by the node's own mark
};

// An index over one object's records. The object must outlive it.
class Resolver {
public:
    explicit Resolver(const Object& o);

    const Object& object() const { return *obj_; }
    FieldOrigin whole() const;  // the object itself
    // nullopt when the path is malformed or names no field of the manifest.
    std::optional<FieldOrigin> field(std::string_view path) const;
    // Every leaf (scalar, or empty map or list) in document order.
    std::vector<FieldOrigin> leaves() const;
    // Every field with a record of its own (the records that survive, one
    // per path), in document order; the object's own record excluded.
    std::vector<FieldOrigin> recorded() const;
    // Every field path of the manifest (maps and lists too), for suggestions.
    std::vector<std::string> paths() const;

private:
    const Object* obj_;
    std::unordered_map<std::string_view, const Provenance*> by_node_;  // by address; the last record wins

    FieldOrigin answer(const std::string& path, const std::string& address, const Node* n,
                       const FieldOrigin& parent) const;
    FieldOrigin from_record(const std::string& path, const Node* n, const Provenance& p) const;
    template <class Visit>
    void walk(const Node& n, std::string& path, std::string& address, Visit& visit) const;
};

// ---- Objects ---------------------------------------------------------------

// "ClusterQueue/llm", "LocalQueue/llm-train/team-queue".
std::string object_ref(const Object& o);

// Finds "KIND/NAME" or "KIND/NAMESPACE/NAME" (kind case-insensitive, also
// its plural: "clusterqueues/llm"). On failure returns nullptr and sets
// `error` with did-you-mean suggestions.
const Object* find_object(const std::vector<Object>& objects, std::string_view ref, std::string& error);

// "spec.foo: no such field in ClusterQueue/llm; did you mean ...?" with the
// closest paths, or a malformed-path message.
std::string unknown_field_message(const Resolver& r, std::string_view path);

// ---- Rendering -------------------------------------------------------------

struct RenderOptions {
    std::string display_file;  // how the site file is named in the output
    // The texts of the site (named display_file) and of the bases it extends
    // (spec.extends: a value a base set is shown at the base's file,
    // Mark::file, and line), for the source line and caret; none = no excerpt.
    const std::vector<SourceText>* sources = nullptr;
};

// The object header, then each field: value, file:line:col, rule, and the
// site line with a caret under the column.
std::string render_text(const Resolver& r, const std::vector<FieldOrigin>& fields, const RenderOptions& opts);
// {"object": {...}, "fields": [{"path","value","file","line","column","derivation","rule","from","own","source"}]}
std::string render_json(const Resolver& r, const std::vector<FieldOrigin>& fields, const RenderOptions& opts);

// ---- The explain command ---------------------------------------------------

struct Query {
    std::string object;  // KIND/NAME or KIND/NAMESPACE/NAME
    std::string path;    // empty: every leaf of the object
    bool json = false;
};

struct Answer {
    bool found = false;
    std::string output;  // when found
    std::string error;   // when not: what was not found, with suggestions
};

// A path to a leaf answers for that leaf; a path to a map or list answers
// for it and for every leaf under it.
Answer answer(const std::vector<Object>& objects, const Query& q, const RenderOptions& opts);

// The `# ...` comment block `build --annotate` writes after an object's
// `---`: the object's origin, then one line per recorded field.
std::string annotation(const Object& o, const std::string& display_file);

}  // namespace queueforge::explain
