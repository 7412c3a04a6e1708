#pragma once
// Recording the provenance of emitted values (Object::provenance): which
// site position a field of a lowered object came from and the rule that
// derived it. Lowering and the emitters record; backends/explain resolves
// and renders. Fields are named by paths spelt as diagnostics spell them.
#include <queueforge/base/mark.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/base/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>
#include <string_view>

namespace queueforge::provenance {

// A sibling position Provenance::Address cannot hold: one byte per level,
// so positions from this one on are never recorded (and never match).
inline constexpr std::size_t kUnaddressable = 255;

// ---- Field paths -----------------------------------------------------------
// Spelt like diagnostics spell them: ".key" for keys made of letters, digits,
// '-' and '_', "[key]" for any other key (label keys:
// "metadata.labels[queueforge.io/team]"), "['key']" for a key holding ']',
// "[3]" for sequence items. The root has no leading dot.
std::string append_key(std::string_view path, std::string_view key);
std::string append_index(std::string_view path, std::size_t i);

struct PathStep {
    std::string key;  // map key (when !is_index)
    bool is_index = false;
    std::size_t index = 0;
};
// Also accepts "['k']", "[\"k\"]" and a leading "." or "object."; nullopt
// when malformed (unclosed bracket, empty key).
std::optional<std::vector<PathStep>> parse_path(std::string_view path);

// ---- Records ---------------------------------------------------------------

// Records where the value at `path` of o.doc came from; false (nothing
// recorded) when the path names no node, or one Provenance cannot address.
// An empty rule reads "written in the site" for Written. For code that
// changes an object after lowering (lowering itself uses lower/provenance.hpp).
bool record(Object& o, std::string_view path, Mark mark, Derivation how, std::string_view rule = {});

// Appends a record whose node is already addressed; keeps each rule text once.
void record_at(Object& o, const Provenance::Address& node, std::size_t depth, Mark mark, Derivation how,
               std::string_view rule);

// ---- Resolution (explain, the compile step) ------------------------------

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

}  // namespace queueforge::provenance
