#pragma once
// Helpers shared by the rule files: reading optional fields of a Node tree,
// spelling field errors the way apimachinery's field.Error does, and a
// Reporter that fills every Diagnostic field (file, mark, object, path, rule).
//
// Two paths per finding, on purpose: the message keeps the path Kueue (or the
// API server) prints, so it reads exactly like `kubectl apply` output, while
// Diagnostic::path and the mark point at the precise field, which can be
// deeper (e.g. Kueue reports label errors on "spec.nodeLabels" as a whole).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node_read.hpp>
#include <queueforge/base/quantity.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/base/text.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::rules::detail {

inline constexpr std::string_view kKueueGroup = "kueue.x-k8s.io";

// ---- reading --------------------------------------------------------------

// Node reading (child, present, text, is_text, items) is <queueforge/base/node_read.hpp>.
using queueforge::child;
using queueforge::is_text;
using queueforge::items;
using queueforge::present;
using queueforge::text;

std::string api_group(std::string_view api_version);    // "kueue.x-k8s.io" ("" for core "v1")
std::string_view api_group_view(std::string_view api_version);  // the same, a view into `api_version`
std::string api_version_of(std::string_view api_version);  // "v1beta2"
bool is_kueue(const Resource& r);

// The CQ's cohort and the Cohort's parent under the names of every API version.
const Node* cluster_queue_cohort(const Resource& cq);  // spec.cohortName | spec.cohort
const Node* cohort_parent(const Resource& cohort);     // spec.parentName | spec.parent
std::string cluster_queue_cohort_field(const Resource& cq);  // "cohortName" | "cohort"
std::string cohort_parent_field(const Resource& cohort);     // "parentName" | "parent"

std::map<std::string, std::string> string_map(const Node* n);  // labels, annotations, nodeLabels

// ---- spelling (apimachinery field.Error) ----------------------------------

using queueforge::go_quote;  // Go's %q (<queueforge/base/text.hpp>)
std::string index(std::string_view path, std::size_t i);     // path[i]
std::string key(std::string_view path, std::string_view k);  // path[k], field.Path.Key
using queueforge::join;

// "<path>: Invalid value: <value>: <detail>"; `value` is already spelled
// (go_quote for strings, plain digits for ints, JSON for objects).
std::string invalid(std::string_view path, std::string_view value, std::string_view detail);
std::string duplicate(std::string_view path, std::string_view value, std::string_view detail = {});
std::string unsupported(std::string_view path, std::string_view value, std::vector<std::string> supported);
std::string required(std::string_view path, std::string_view detail);
std::string forbidden(std::string_view path, std::string_view detail);
std::string not_found(std::string_view path, std::string_view value);
// A CEL rule's failure: "<path>: Invalid value: \"object\": <message>" (the
// schema type of the node the rule sits on, "<nil>" path at the root).
std::string cel(std::string_view path, std::string_view type, std::string_view message);

// apimachinery's IsNegativeErrorMsg.
inline constexpr std::string_view kNegative = "must be greater than or equal to 0";

// ---- reporting ------------------------------------------------------------

struct Reporter {
    const Resource& r;
    Diagnostics& diags;

    void add(Severity s, std::string rule, const Node* at, std::string path, std::string message) const;
    void error(std::string rule, const Node* at, std::string path, std::string message) const {
        add(Severity::Error, std::move(rule), at, std::move(path), std::move(message));
    }
    void warning(std::string rule, const Node* at, std::string path, std::string message) const {
        add(Severity::Warning, std::move(rule), at, std::move(path), std::move(message));
    }
    void note(std::string rule, const Node* at, std::string path, std::string message) const {
        add(Severity::Note, std::move(rule), at, std::move(path), std::move(message));
    }
    // Same, at a map key's position (a label key rather than its value).
    void error_at(std::string rule, Mark m, std::string path, std::string message) const;
};

// Parses a quantity field; an unparsable one is reported as V4 (the request
// would not even decode) and yields nullopt. Absent / null / non-scalar
// nodes yield nullopt silently: the schema layer reports those.
std::optional<Quantity> quantity(const Reporter& rep, const Node* n, const std::string& path);
// The same with the path spelt only when there is something to report (the
// rules run on every object a site compiles to: spelling each field's path
// up front was most of their cost).
void report_bad_quantity(const Reporter& rep, const Node* n, const std::string& path, const std::string& why);
template <class PathFn>
std::optional<Quantity> quantity_at(const Reporter& rep, const Node* n, PathFn&& path) {
    if (!is_text(n)) return std::nullopt;
    std::string why;
    auto q = Quantity::parse(n->text(), &why);
    if (!q) report_bad_quantity(rep, n, path(), why);
    return q;
}

// Quiet variant for cross-object sums: nullopt when absent or unparsable.
std::optional<Quantity> quantity_quiet(const Node* n);

// Kueue's integer view of a quantity (kueue-semantics.md 3.3): milli-units
// for cpu, ceil units otherwise, clamped to int64.
std::int64_t resource_value(std::string_view resource, const Quantity& q);

}  // namespace queueforge::rules::detail
