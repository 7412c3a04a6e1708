#include <queueforge/lower.hpp>
#include <queueforge/checks/openapi.hpp>
#include <queueforge/checks/rules.hpp>
#include <queueforge/frontend/site_parse.hpp>
#include <queueforge/checks/validate.hpp>

#include <queueforge/engines/workloads.hpp>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>

namespace queueforge {

namespace {

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

// Compiles a site found among the inputs; its objects join the checks with
// their origin in the site file as position.
void compile_site_resource(const Resource& r, const ValidationOptions& opts, std::vector<Resource>& generated,
                           std::vector<Resource>& pool_nodes, std::vector<Resource>& samples,
                           std::vector<SourceText>& sources, Diagnostics& diags) {
    auto s = load_site_document(r.doc, r.file, diags, &sources);
    if (!s) return;
    if (r.file != "-" && r.file != "<stdin>") {
        auto files = workloads::read_sample_files(*s, std::filesystem::path(r.file).parent_path().string(), diags);
        samples.insert(samples.end(), std::make_move_iterator(files.resources.begin()),
                       std::make_move_iterator(files.resources.end()));
        sources.insert(sources.end(), files.sources.begin(), files.sources.end());
    }
    LowerOptions lo;
    if (opts.target) lo.target_override = opts.target->name;
    auto lowered = lower_site(*s, diags, lo);
    add_pool_nodes(*s, r.file, pool_nodes);
    if (!lowered) return;
    for (auto& o : lowered->objects) generated.push_back(resource_of(std::move(o), r.file));
}

std::string canonical(const std::string& file) {
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(file, ec);
    return ec ? file : p.string();
}

}  // namespace

ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, Diagnostics& diags) {
    ObjectValidator validator(opts.crd_paths, diags);
    return validate_all(input, opts, validator, diags);
}

ValidationSummary validate_all(LoadedResources& input, const ValidationOptions& opts, ObjectValidator& validator,
                               Diagnostics& diags) {

    // The inputs are checked where they are (no copy): 100k objects are
    // hundreds of MiB as trees.
    std::vector<const Resource*> checked;
    std::vector<Resource> generated, pool_nodes, samples;
    std::vector<SourceText> sample_sources;
    checked.reserve(input.resources.size());
    for (auto& r : input.resources) {
        if (is_site(r)) compile_site_resource(r, opts, generated, pool_nodes, samples, sample_sources, diags);
        else checked.push_back(&r);
    }
    // A site's sample manifests are usually inputs too (the site's folder
    // was given): each file is checked once.
    std::set<std::string> given;
    for (const auto& src : input.sources) given.insert(canonical(src.path));
    std::set<std::string> added;
    for (auto& src : sample_sources)
        if (!given.count(canonical(src.path)) && added.insert(canonical(src.path)).second) input.sources.push_back(src);

    ValidationSummary summary;
    std::map<std::string, std::size_t> per_kind;
    const auto missing = opts.ignore_missing_schemas ? ObjectValidator::Missing::Skip : ObjectValidator::Missing::Error;
    auto check_one = [&](const Resource& r) {
        ++summary.objects;
        ++per_kind[r.ref.kind];
        summary.checked.push_back({r.file, r.ref});
        validator.check(r, diags, missing);
    };
    summary.checked.reserve(checked.size() + generated.size() + samples.size());
    for (const Resource* r : checked) check_one(*r);
    for (const auto& r : generated) check_one(r);
    for (const auto& r : samples)
        if (!given.count(canonical(r.file))) check_one(r);

    rules::CrossOptions xo;
    xo.target = opts.target;
    xo.samples = &samples;
    if (checked.size() == input.resources.size()) {
        // No site among the inputs: the cross-object checks see the inputs
        // themselves.
        rules::check_cross_objects(input.resources, xo, diags);
    } else {
        // The site's objects replace the site document; the generated
        // objects are not needed after this, so they are moved.
        std::vector<Resource> all;
        all.reserve(checked.size() + generated.size() + pool_nodes.size());
        for (const Resource* r : checked) all.push_back(*r);
        std::move(generated.begin(), generated.end(), std::back_inserter(all));
        std::move(pool_nodes.begin(), pool_nodes.end(), std::back_inserter(all));
        rules::check_cross_objects(all, xo, diags);
    }

    summary.per_kind.assign(per_kind.begin(), per_kind.end());
    return summary;
}

}  // namespace queueforge
