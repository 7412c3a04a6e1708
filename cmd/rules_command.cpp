// `queueforge rules [ID]`: the catalogue of rule ids, with their default
// severity, origin, explanation and examples; `--markdown` writes docs/rules.md.
#include "cli.hpp"

#include <queueforge/checks/rule_catalogue.hpp>

#include <iostream>

namespace queueforge::cli {

namespace {

struct RulesFlags {
    std::string id;
    bool markdown = false;
};

int run_rules(const RulesFlags& f) {
    Diagnostics diags;
    const rules::Catalogue catalogue = rules::load_catalogue(diags);
    if (diags.has_errors()) {
        std::cerr << render_text(diags, {});
        return kInternal;  // the embedded catalogue is part of the binary
    }
    if (f.markdown) {
        std::cout << rules::render_rules_markdown(catalogue);
    } else if (f.id.empty()) {
        std::cout << rules::render_rule_list(catalogue);
    } else if (const auto* r = catalogue.find(f.id)) {
        std::cout << rules::render_rule(*r);
    } else {
        std::cerr << "queueforge rules: no rule has the id \"" << f.id << "\"";
        const std::string hint = catalogue.suggest(f.id);
        if (!hint.empty()) std::cerr << "; did you mean \"" << hint << "\"?";
        std::cerr << " (`queueforge rules` lists them)\n";
        return kInvalid;
    }
    std::cout.flush();
    return std::cout.good() ? kOk : kInvalid;
}

}  // namespace

Command add_rules(CLI::App& app) {
    auto flags = std::make_shared<RulesFlags>();
    CLI::App* sub = app.add_subcommand("rules", "List the rules findings can name, or explain one");
    sub->add_option("id", flags->id, "A rule id (e.g. V24, xref.missing-flavor, default-local-queue)");
    sub->add_flag("--markdown", flags->markdown, "Print the whole catalogue as Markdown (docs/rules.md)");
    sub->footer(R"(Every rule's severity can be changed in .queueforge.yaml, with --disable/--enable, or per object
with the annotation queueforge.io/ignore (see the README, "Configuring the gate").

Examples:
  queueforge rules                      # one line per rule: id, default severity, origin, summary
  queueforge rules xref.missing-flavor  # explanation with a bad and a good example
  queueforge rules --markdown > docs/rules.md

Exit codes: 0 ok, 1 unknown rule id (with a suggestion), 2 usage error.)");
    return {sub, [flags] { return run_rules(*flags); }};
}

}  // namespace queueforge::cli
