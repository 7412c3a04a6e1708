#include <queueforge/checks/openapi.hpp>
#include <queueforge/checks/rules.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/compile.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include "base/threads/side_by_side.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <thread>

namespace queueforge {

namespace {

// Below this many objects a second thread costs more than it saves.
constexpr std::size_t kChecksSideBySideFrom = 2000;

bool is_site(const Resource& r) { return r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/"); }

// Compiles a site found among the inputs; its objects join the checks with
// their origin in the site file as position.
void compile_site_resource(const Resource& r, const ValidationOptions& opts, std::vector<Resource>& generated,
                           std::vector<Resource>& pool_nodes, std::vector<Resource>& samples,
                           std::vector<SourceText>& sources, Diagnostics& diags) {
    Compilation c = compile({.path = r.file,
                             .document = &r.doc,
                             .target = opts.target ? opts.target->name : std::string(),
                             .read_samples = r.file != "-" && r.file != "<stdin>"});
    diags.append(c.diagnostics);
    sources.insert(sources.end(), c.sources.texts().begin(), c.sources.texts().end());
    if (!c.site) return;
    samples.insert(samples.end(), std::make_move_iterator(c.samples.begin()), std::make_move_iterator(c.samples.end()));
    add_pool_nodes(*c.site, r.file, pool_nodes);
    if (!c.lowered) return;
    for (auto& o : c.lowered->objects) generated.push_back(resource_of(std::move(o), r.file));
}

// The objects cut into runs of a fixed size, each run's findings kept apart
// until they are joined in the runs' order, whichever thread checked them.
struct ObjectChunks {
    static constexpr std::size_t kSize = 512;
    explicit ObjectChunks(std::size_t objects) : n(objects), found((objects + kSize - 1) / kSize) {}
    std::size_t count() const { return found.size(); }
    std::size_t begin(std::size_t c) const { return c * kSize; }
    std::size_t end(std::size_t c) const { return std::min(n, (c + 1) * kSize); }
    void append_to(Diagnostics& diags) {
        std::size_t total = diags.all().size();
        for (const auto& f : found) total += f.all().size();
        diags.reserve(total);
        for (auto& f : found) diags.append(std::move(f));
    }
    std::size_t n;
    std::vector<Diagnostics> found;
};

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
    // Kueue's Configuration inside a kueue-manager-config ConfigMap is
    // checked as the object it is (schema and kueue-config.* rules), at
    // positions inside the ConfigMap's string; the ConfigMap around it has no
    // schema of its own unless --crd gives one.
    std::vector<Resource> embedded;
    std::map<std::string, const std::string*> text_of;
    auto embedded_config = [&](const Resource& r, Diagnostics& diags) {
        if (!platform::is_kueue_manager_config_map(r)) return false;
        const Node* data = r.doc.is_map() ? r.doc.find("data") : nullptr;
        if (!data || !data->is_map() || !data->find(platform::kKueueManagerConfigKey)) return false;
        if (text_of.empty())
            for (const auto& src : input.sources) text_of.emplace(src.path, &src.text);
        auto it = text_of.find(r.file);
        if (auto cfg = platform::embedded_kueue_configuration(r, it == text_of.end() ? nullptr : it->second, diags)) {
            validator.check(*cfg, diags, missing);
            embedded.push_back(std::move(*cfg));
        }
        return true;
    };
    std::set<std::string_view> files_seen;
    auto count_checked = [&](const Resource& r) {
        ++summary.objects;
        ++per_kind[r.ref.kind];
        if (files_seen.insert(r.file).second) summary.files.push_back(r.file);
        if (opts.list_objects) summary.checked.push_back({r.file, r.ref});
    };
    auto check_one = [&](const Resource& r, Diagnostics& out) {
        count_checked(r);
        if (embedded_config(r, out) && !validator.has_schema(r.ref.api_version, r.ref.kind)) return;
        validator.check(r, out, missing);
    };
    auto check_each = [&](Diagnostics& out) {
        for (const Resource* r : checked) check_one(*r, out);
        for (const auto& r : generated) check_one(r, out);
        for (const auto& r : samples)
            if (!given.count(canonical(r.file))) check_one(r, out);
    };
    if (opts.list_objects) summary.checked.reserve(checked.size() + generated.size() + samples.size());

    rules::CrossOptions xo;
    xo.target = opts.target;
    xo.samples = &samples;
    const bool plain = checked.size() == input.resources.size() &&
                       std::none_of(input.resources.begin(), input.resources.end(),
                                    [](const Resource& r) { return platform::is_kueue_manager_config_map(r); });
    const bool two = opts.threads == 0
                         ? input.resources.size() >= kChecksSideBySideFrom && std::thread::hardware_concurrency() >= 2
                         : opts.threads >= 2;
    if (plain && two) {
        // Many plain objects: the cross-object checks run on a second thread
        // beside each object's checks, and that thread then takes its share
        // of the objects (with a validator of its own: a validator compiles
        // schemas as it meets kinds) until none is left. Neither thread writes
        // what the other reads (the trees are only read), and the findings
        // are joined in the order one thread gives: each object's, in the
        // objects' order, then the cross-object ones.
        for (const Resource* r : checked) count_checked(*r);
        Diagnostics cross;
        ObjectChunks chunks(checked.size());
        std::atomic<std::size_t> next{0};
        auto take_chunks = [&](ObjectValidator& v) {
            for (std::size_t c = next++; c < chunks.count(); c = next++)
                for (std::size_t i = chunks.begin(c); i < chunks.end(c); ++i) v.check(*checked[i], chunks.found[c], missing);
        };
        side_by_side(
            [&] {
                rules::check_cross_objects(input.resources, xo, cross);
                // Checks with --crd keep state (which CRD rules were noted)
                // that one validator must see whole.
                if (validator.uses_crds()) return;
                Diagnostics unused;  // a validator without --crd reports nothing when made
                ObjectValidator second({}, unused);
                take_chunks(second);
            },
            [&] { take_chunks(validator); });
        chunks.append_to(diags);
        diags.append(std::move(cross));
        summary.per_kind.assign(per_kind.begin(), per_kind.end());
        return summary;
    }
    check_each(diags);
    if (checked.size() == input.resources.size() && embedded.empty()) {
        // No site among the inputs: the cross-object checks see the inputs
        // themselves.
        rules::check_cross_objects(input.resources, xo, diags);
    } else if (checked.size() == input.resources.size()) {
        std::vector<Resource> all = input.resources;
        std::move(embedded.begin(), embedded.end(), std::back_inserter(all));
        rules::check_cross_objects(all, xo, diags);
    } else {
        // The site's objects replace the site document; the generated
        // objects are not needed after this, so they are moved.
        std::vector<Resource> all;
        all.reserve(checked.size() + generated.size() + pool_nodes.size());
        for (const Resource* r : checked) all.push_back(*r);
        std::move(generated.begin(), generated.end(), std::back_inserter(all));
        std::move(pool_nodes.begin(), pool_nodes.end(), std::back_inserter(all));
        std::move(embedded.begin(), embedded.end(), std::back_inserter(all));
        rules::check_cross_objects(all, xo, diags);
    }

    summary.per_kind.assign(per_kind.begin(), per_kind.end());
    return summary;
}

}  // namespace queueforge
