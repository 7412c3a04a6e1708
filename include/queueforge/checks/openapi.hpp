#pragma once
// A structural OpenAPI v3 validator: the subset of OpenAPI that Kubernetes
// CRDs use, with the API server's semantics and messages (RE2 patterns,
// x-kubernetes-* extensions, unknown fields as strict field validation
// reports them). Schemas come from queueforge's schemas/ or from CRDs.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::openapi {

class Schema;  // compiled, immutable; see compiler/checks/openapi/schema.hpp

struct ValidateOptions {
    bool reject_unknown_fields = true;  // kubectl --validate=strict
    std::size_t max_errors = 100;       // per object
    // The API server drops a null held by a non-nullable object field before
    // validating (and defaults it when the field has a default); such nulls
    // then count as absent and get a warning. false validates them as plain
    // JSON Schema does: null is not of type X.
    bool prune_nulls = true;
};

// Compiles an openAPIV3Schema node. Errors (bad patterns, wrong keyword
// types) go to diags against `file`; the result is then nullptr, as the API
// server would refuse such a CRD.
std::shared_ptr<const Schema> compile(const Node& schema, const std::string& file, Diagnostics& diags);

// Validates `doc` (a whole object) against `schema`. Each finding carries the
// value's Mark, a path like "spec.resourceGroups[0].coveredResources" and a
// rule id "schema.<keyword>" (schema.required, schema.type, schema.enum,
// schema.pattern, schema.unknown-field, ...). Messages follow the API server:
//   spec.queueingStrategy: Unsupported value: "Fifo": supported values: "StrictFIFO", "BestEffortFIFO"
// What the server does in separate passes happens in one walk: unknown fields
// as pruning finds them, kube-openapi schema checks, ObjectMeta validation of
// metadata, x-kubernetes-list-type uniqueness. Defaulting precedes validation
// there, so a required field that has a default is never reported missing.
void validate(const Schema& schema, const Node& doc, const std::string& file, const ObjectRef& ref,
              Diagnostics& diags, const ValidateOptions& opts = {});

// Validates any value against `schema` with plain OpenAPI semantics: no
// ObjectMeta, apiVersion or kind handling at the root. `path` prefixes the
// finding paths ("" at the top).
void validate_value(const Schema& schema, const Node& value, const std::string& file, const std::string& path,
                    const ObjectRef& ref, Diagnostics& diags, const ValidateOptions& opts = {});

// True when validate_value would report no error; stops at the first one.
bool conforms(const Schema& schema, const Node& value, const ValidateOptions& opts = {});

// Applies `default`s to `doc` as the API server does on create: first drops
// nulls of non-nullable fields that have no default, then fills absent (or
// null, non-nullable) fields from their defaults, top-down, so defaults
// inside defaulted objects apply too.
void apply_defaults(const Schema& schema, Node& doc);

// CEL rules (x-kubernetes-validations) the schema carries, with their paths,
// so callers can report them as "not evaluated" until a CEL engine exists.
struct CelRule {
    std::string path;  // where the rule sits, "spec.preemption"; "[*]" for list items, ".*" for map values
    std::string rule;
    std::string message;
};
std::vector<CelRule> cel_rules(const Schema& schema);

// Schemas by group/version/kind.
class SchemaSet {
public:
    void add(const std::string& api_version, const std::string& kind, std::shared_ptr<const Schema> s);
    const Schema* find(const std::string& api_version, const std::string& kind) const;
    std::size_t size() const { return schemas_.size(); }

private:
    // Looked up once per validated object: a transparent comparator so that a
    // lookup builds no key strings.
    struct Less {
        using is_transparent = void;
        template <class A, class B>
        bool operator()(const A& a, const B& b) const {
            int c = std::string_view(a.first).compare(std::string_view(b.first));
            return c != 0 ? c < 0 : std::string_view(a.second) < std::string_view(b.second);
        }
    };
    std::map<std::pair<std::string, std::string>, std::shared_ptr<const Schema>, Less> schemas_;
};

// Loads every served version's openAPIV3Schema from CRD manifests (files or
// folders, as exported from a cluster or copied from a release).
void load_crds(const std::vector<std::string>& paths, SchemaSet& out, Diagnostics& diags);
// Same for CRD documents already parsed.
void add_crd(const Node& crd, const std::string& file, SchemaSet& out, Diagnostics& diags);

}  // namespace queueforge::openapi
