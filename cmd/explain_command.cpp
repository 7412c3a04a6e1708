#include "cli.hpp"

#include <queueforge/backends/explain.hpp>
#include <queueforge/compile.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace queueforge::cli {

namespace {

struct ExplainFlags {
    std::vector<std::string> args;  // KIND/NAME [FIELD-PATH] [SITE]
    std::string output = "text";
    std::string target;
};

int run_explain(const ExplainFlags& f) {
    if (f.output != "text" && f.output != "json") {
        std::cerr << "queueforge explain: unknown output format \"" << f.output << "\" (text, json)\n";
        return kUsage;
    }
    if (f.args.empty() || f.args.size() > 3) {
        std::cerr << "queueforge explain: expected KIND/NAME [FIELD-PATH] [SITE]\n";
        return kUsage;
    }
    // A malformed KIND/NAME is a usage error, found before the site is read.
    const std::string& ref = f.args[0];
    const auto slashes = std::count(ref.begin(), ref.end(), '/');
    if (slashes < 1 || slashes > 2 || ref.front() == '/' || ref.back() == '/' || ref.find("//") != std::string::npos) {
        std::cerr << "queueforge explain: \"" << ref << "\" is not KIND/NAME or KIND/NAMESPACE/NAME (e.g. ClusterQueue/llm)\n";
        return kUsage;
    }
    explain::Query q{ref, {}, f.output == "json"};
    std::string site = ".";
    if (f.args.size() == 3) {
        q.path = f.args[1];
        site = f.args[2];
    } else if (f.args.size() == 2) {
        // One more argument: the site when it names a file or folder,
        // otherwise a field path.
        std::error_code ec;
        if (std::filesystem::exists(f.args[1], ec)) site = f.args[1];
        else q.path = f.args[1];
    }

    const std::string path = site_path(site);
    Compilation c = compile({.path = path, .target = f.target});
    // The site's warnings and notes belong to build and check; explain only
    // says why it cannot answer.
    if (c.diagnostics.has_errors() || !c.lowered) {
        Diagnostics errors;
        for (const auto& d : c.diagnostics.all())
            if (d.severity == Severity::Error) errors.add(d);
        const int rc = report(errors, c.sources.texts());
        return rc == kUsage ? rc : kInvalid;
    }

    auto a = explain::answer(c.lowered->objects, q, {.display_file = path, .sources = &c.sources.texts()});
    if (!a.found) {
        std::cerr << "queueforge explain: " << a.error << "\n";
        return kInvalid;
    }
    std::cout << a.output;
    std::cout.flush();
    return std::cout.good() ? kOk : kInvalid;
}

}  // namespace

Command add_explain(CLI::App& app) {
    auto flags = std::make_shared<ExplainFlags>();
    CLI::App* sub = app.add_subcommand("explain", "Show where an emitted object or value came from in the site, and why");
    sub->add_option("args", flags->args,
                    "KIND/NAME or KIND/NAMESPACE/NAME, then optionally a FIELD-PATH, then optionally the SITE "
                    "(file or folder; default: .)")
        ->expected(1, 3);
    sub->add_option("-o,--output", flags->output, "text (with the site line and a caret) or json");
    sub->add_option("--target", flags->target, "Override the site's target (e.g. rhoai-3.5, kueue-0.13)");
    sub->footer(R"(Every value queueforge writes has an answer: the site element it was derived from
(file:line:col) and the rule that derived it, e.g. a share of a pool's capacity, a
teamDefaults setting, a CRD default written explicitly, a target's rule, quota 0
zero-filled into a resource group. Fields without a record of their own answer with
their nearest recorded parent. Without FIELD-PATH every leaf field is shown; a path to
a map or list shows it and every leaf under it. Kinds may be written as kubectl does
(clusterqueue, clusterqueues, cq, lq, rf, wpc, ns, dsc).

Examples:
  queueforge explain ClusterQueue/llm examples/multi-team
  queueforge explain ClusterQueue/llm 'spec.resourceGroups[0].flavors[0].resources[0].nominalQuota' examples/multi-team
  queueforge explain cq/llm spec.preemption
  queueforge explain LocalQueue/llm-train/team-queue 'metadata.annotations[kueue.x-k8s.io/default-queue]'
  queueforge explain ResourceFlavor/h100 -o json | jq '.fields[] | {path, rule}'

Exit codes: 0 explained, 1 invalid site or unknown object or field (with suggestions),
2 usage error.)");
    return {sub, [flags] { return run_explain(*flags); }};
}

}  // namespace queueforge::cli
