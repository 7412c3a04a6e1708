#pragma once
// The catalogue of every rule queueforge can report: its stable id, default
// severity, where the rule comes from, a one-line summary, an explanation and
// a bad and a good example. One table serves the gate (which ids exist and
// what severity they default to), `queueforge rules`, docs/rules.md and the
// SARIF `rules[]` metadata.
//
// The table is data: compiler/checks/rules/catalogue/*.yaml (one file per rule
// family, format in compiler/checks/rules/catalogue/README.md) and the built-in
// policies (policies/*.yaml: id, severity, description, the file's leading
// comment as the explanation), both compiled into the binary.
#include <queueforge/base/diagnostics.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::rules {

struct RuleInfo {
    std::string id;                       // "V24", "xref.missing-flavor", "default-local-queue"
    Severity severity = Severity::Error;  // the default; the gate can re-level it
    std::string origin;                   // kueue-webhook | crd | api-server | queueforge | policy
    std::string summary;                  // one line
    std::string description;              // paragraphs
    std::string bad;                      // YAML that triggers the rule
    std::string good;                     // the same, corrected
    std::string defined_in;               // embedded file the entry comes from
};

class Catalogue {
public:
    // Entries sorted by id, each id once.
    const std::vector<RuleInfo>& all() const { return rules_; }
    const RuleInfo* find(std::string_view id) const;
    // The known id closest to `id` ("" when none is close).
    std::string suggest(std::string_view id) const;
    std::vector<std::string> ids() const;

private:
    friend Catalogue load_catalogue(Diagnostics& diags);
    std::vector<RuleInfo> rules_;
};

// Reads the embedded catalogue files and built-in policies. A malformed entry
// or a duplicated id is an error in `diags` (a build defect the tests catch).
Catalogue load_catalogue(Diagnostics& diags);

// The documentation anchor of a rule in docs/rules.md, e.g. "xref-missing-flavor".
std::string rule_anchor(std::string_view id);
// Where a rule is documented: `base` + "docs/rules.md#" + anchor.
std::string rule_help_uri(std::string_view id);

// `queueforge rules`: one line per rule (id, severity, origin, summary).
std::string render_rule_list(const Catalogue& c);
// `queueforge rules ID`: everything about one rule.
std::string render_rule(const RuleInfo& r);
// docs/rules.md.
std::string render_rules_markdown(const Catalogue& c);

}  // namespace queueforge::rules
