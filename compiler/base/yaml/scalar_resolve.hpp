#pragma once
// Typing of plain (unquoted, untagged) scalars, shared by the loader and the
// emitter so that what the emitter leaves unquoted is read back unchanged.
#include <queueforge/base/node.hpp>

#include <string>
#include <string_view>

namespace queueforge::yaml_detail {

struct ResolvedScalar {
    Node::Kind kind = Node::Kind::String;
    // "null", "true"/"false" and decimal integers are canonical because
    // Node::as_bool() and Node::as_int() read only those spellings; floats and
    // strings keep the source spelling.
    std::string text;
};

// Types a plain scalar the way Kubernetes does: sigs.k8s.io/yaml decodes with
// go-yaml v2 into interface{}, so YAML 1.1 booleans (y/yes/on/...) are
// booleans, 0755 and 0o755 are octal, underscores are dropped from numbers,
// and timestamps stay strings.
ResolvedScalar resolve_plain(std::string_view in);

// True when resolve_plain(in) is a string spelled as `in`, told from its
// first character and length alone: what most keys and values of a manifest
// are, with nothing to build. False says nothing (ask resolve_plain).
inline bool plainly_string(std::string_view in) {
    if (in.empty()) return false;
    const char c = in[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') return false;
    // The null and boolean words are at most 5 characters long.
    return in.size() > 5 || std::string_view("yYnNtTfFoO~").find(c) == std::string_view::npos;
}

// The string Kubernetes makes of a float map key (sigs.k8s.io/yaml:
// strconv.FormatFloat(v, 'g', -1, 32), with .inf/.nan spelled the YAML way),
// e.g. "11e3" -> "11000", "1.50" -> "1.5". `text` must resolve to a float.
std::string float_key_spelling(std::string_view text);

// True when any reader we care about -- go-yaml v2, a strict YAML 1.1 reader
// (PyYAML, older Ruby) or a YAML 1.2 core-schema reader -- could type the
// plain scalar as something other than a string. Deliberately generous:
// quoting a string that did not need it costs two characters, failing to
// quote one changes the document.
bool may_resolve_to_non_string(std::string_view s);

}  // namespace queueforge::yaml_detail
