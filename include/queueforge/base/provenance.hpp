#pragma once
// Recording the provenance of emitted values (Object::provenance): which
// site position a field of a lowered object came from and the rule that
// derived it. Lowering and the emitters record; backends/explain resolves
// and renders. Fields are named by paths spelt as diagnostics spell them.
#include <queueforge/base/mark.hpp>
#include <queueforge/base/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
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

}  // namespace queueforge::provenance
