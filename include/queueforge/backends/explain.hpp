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

// Resolution lives with the records (base/provenance.hpp): the compile step
// maps findings on its objects back to the site with it too.
using provenance::FieldOrigin;
using provenance::Resolver;

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
