// The import loop: infer a site, build it, compare what it builds with the
// input, and let what it cannot reproduce fall back to patches (fields) or
// passthrough (whole objects) until the site reproduces its input.
#include <queueforge/integrations/import.hpp>

#include "integrations/import/compare.hpp"
#include "integrations/import/model.hpp"
#include "integrations/import/target_infer.hpp"
#include "integrations/import/tree.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/base/names.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <map>

namespace queueforge {

using namespace importer;

namespace {

// The site is built from a tree, not a file; this names it in the build's
// diagnostics, which the importer translates back to input positions.
constexpr const char* kSiteFile = "<imported site>";
// Each round keeps at least one more object whole or adds its patch, and a
// round costs one build; in practice two or three rounds suffice.
constexpr std::size_t kMaxRounds = 12;

std::string infer_site_name(const std::vector<Item>& items, const std::string& given) {
    if (!given.empty()) return given;
    std::map<std::string, std::size_t> votes;
    for (const auto& it : items)
        if (text_at(it.doc, {"metadata", "labels", "app.kubernetes.io/managed-by"}) == "queueforge")
            if (std::string p = text_at(it.doc, {"metadata", "labels", "app.kubernetes.io/part-of"});
                check_dns1123_label(p).empty())
                ++votes[p];
    std::string best = "imported";
    std::size_t n = 0;
    for (const auto& [name, c] : votes)
        if (c > n) best = name, n = c;
    return best;
}

// Items a failed build blames, through the marks of the site's elements.
bool blame(const Diagnostics& build, const Model& model, std::vector<std::string>& excluded) {
    bool progress = false;
    for (const auto& d : build.all()) {
        if (d.severity != Severity::Error || d.file != kSiteFile || d.mark.line <= 0) continue;
        auto id = static_cast<std::size_t>(d.mark.line);
        if (id >= model.owners.size()) continue;
        for (std::size_t i : model.owners[id]) {
            if (!excluded[i].empty() || !model.produced[i]) continue;
            excluded[i] = "the site cannot express it (" + d.message + ")";
            progress = true;
        }
    }
    return progress;
}

void merge_patch(Patch& into, Patch&& add) {
    // Additions never overlap what a patch already holds: that part is in the
    // generated object the comparison saw.
    for (const auto& e : add.merge.entries()) {
        Node* have = into.merge.find(e.key);
        if (have && have->is_map() && e.value.is_map()) {
            Patch inner{*have, {}};
            merge_patch(inner, Patch{e.value, {}});
            *have = std::move(inner.merge);
        } else {
            into.merge.set(e.key, e.value);
        }
    }
    for (auto& f : add.fields) into.fields.push_back(std::move(f));
}

}  // namespace

std::optional<ImportResult> import_site(std::vector<Resource> resources, Diagnostics& diags,
                                        const ImportOptions& opts) {
    const std::size_t errors_before = diags.count(Severity::Error);
    if (!opts.site_name.empty() && !check_dns1123_label(opts.site_name).empty()) {
        diags.error("<arguments>", {}, "--name \"" + opts.site_name + "\": " + check_dns1123_label(opts.site_name),
                    "import.name");
        return std::nullopt;
    }
    const std::size_t documents = resources.size();
    std::vector<Item> items = read_items(std::move(resources), diags);
    if (diags.count(Severity::Error) > errors_before) return std::nullopt;
    if (items.empty()) {
        diags.error("<input>", {},
                    documents ? "nothing to import: the input's " + std::to_string(documents) +
                                    (documents == 1 ? " document holds" : " documents hold") +
                                    " no object a site can declare (see the warnings)"
                              : std::string("nothing to import: the input holds no Kubernetes objects"),
                    "import.empty");
        return std::nullopt;
    }
    auto choice = choose_target(items, opts.target, diags);
    if (!choice) return std::nullopt;
    const std::string name = infer_site_name(items, opts.site_name);
    auto say = [&](const std::string& what) {
        if (opts.progress) opts.progress(what);
    };

    std::vector<std::string> excluded(items.size());
    std::map<std::size_t, Patch> patches;
    Model model;
    std::vector<Finding> findings;
    bool fallback = false;
    std::size_t round = 0;
    while (true) {
        ++round;
        say(round == 1 ? "inferring the site from " + std::to_string(items.size()) + " objects"
                       : "self-check round " + std::to_string(round) + ": rebuilding with what round " +
                             std::to_string(round - 1) + " kept as patches or passthrough");
        model = build_model({items, excluded, patches, *choice, name});
        Compilation c = compile({.path = kSiteFile, .document = &model.site});
        const Diagnostics& build = c.diagnostics;
        const std::optional<Lowered>& lowered = c.lowered;
        bool progress = false;
        if (!lowered) {
            progress = blame(build, model, excluded);
        } else {
            Comparison cmp = compare(lowered->objects, model, items);
            for (auto& [i, why] : cmp.exclude) {
                if (!excluded[i].empty()) continue;
                excluded[i] = std::move(why);
                patches.erase(i);
                progress = true;
            }
            for (auto& [i, add] : cmp.additions) {
                if (!excluded[i].empty()) continue;
                merge_patch(patches[i], std::move(add));
                progress = true;
            }
            findings = std::move(cmp.findings);
        }
        if (!progress && lowered) break;
        if (progress && round < kMaxRounds) continue;
        // The build fails in a way no input object explains, or the rounds
        // run out: every object stays whole, which always builds.
        if (fallback) {
            std::string why = build.all().empty() ? std::string("no progress") : build.all().front().message.str();
            diags.error(items.front().file, items.front().mark(), "internal: the imported site does not build: " + why,
                        "import.internal");
            return std::nullopt;
        }
        fallback = true;
        std::string why = build.all().empty() ? std::string("the comparison does not settle")
                                              : build.all().front().message.str();
        for (std::size_t i = 0; i < items.size(); ++i)
            if (excluded[i].empty() && model.produced[i]) excluded[i] = "the site could not be settled (" + why + ")";
        patches.clear();
    }

    // What was not expressed, at the input's positions.
    const Item* anchor = &items.front();
    for (const auto& it : items)
        if (it.kind == Kind::DataScienceCluster) {
            anchor = &it;
            break;
        }
    diags.note(anchor->file, anchor->mark(), choice->reason, "import.target");
    for (const auto& [i, why] : model.passthrough)
        diags.warning(items[i].file, items[i].mark(), items[i].display() + ": " + why + "; kept whole in spec.passthrough",
                      "import.passthrough");
    for (const auto& [i, p] : patches) {
        if (!model.produced[i]) continue;
        for (const auto& [path, mark] : p.fields)
            diags.warning(items[i].file, mark, items[i].display() + ": " + path + " has no site field; kept in spec.patches",
                          "import.patch");
    }
    for (const auto& f : findings) {
        Diagnostic d;
        d.severity = f.severity;
        d.file = items[f.item].file;
        d.mark = f.mark;
        d.message = f.message;
        d.rule = f.rule;
        diags.add(std::move(d));
    }

    ImportResult result;
    result.site = std::move(model.site);
    result.target = choice->target.name;
    result.stats.objects = items.size();
    result.stats.modelled = model.modelled;
    result.stats.patched = model.patched;
    result.stats.passthrough = model.passthrough.size();
    result.stats.rounds = round;
    return result;
}

}  // namespace queueforge
