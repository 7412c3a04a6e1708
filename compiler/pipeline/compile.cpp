// The compile step: one driver function, each stage a free function of its
// own folder (docs/architecture.md).
#include <queueforge/compile.hpp>

#include <queueforge/base/node_read.hpp>
#include <queueforge/base/provenance.hpp>
#include <queueforge/base/yaml_load.hpp>
#include <queueforge/checks/rules.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace queueforge {

void SourceSet::add(std::string path, std::string text) {
    auto [it, inserted] = index_.try_emplace(path, texts_.size());
    if (inserted) texts_.push_back({std::move(path), std::move(text)});
}

void SourceSet::add(const std::vector<SourceText>& texts) {
    for (const auto& t : texts) add(t.path, t.text);
}

void SourceSet::add(SourceText text) {
    auto [it, inserted] = index_.try_emplace(text.path, texts_.size());
    if (inserted) texts_.push_back(std::move(text));
}

std::vector<SourceText> SourceSet::release() {
    index_.clear();
    return std::move(texts_);
}

const SourceText* SourceSet::find(const std::string& path) const {
    auto it = index_.find(path);
    return it == index_.end() ? nullptr : &texts_[it->second];
}

const std::vector<Object>& Compilation::objects() const {
    static const std::vector<Object> none;
    return lowered ? lowered->objects : none;
}

namespace {

std::optional<site::Site> read_site(const CompileInputs& in, Compilation& c) {
    std::vector<SourceText> bases;
    std::optional<site::Site> s;
    if (in.document) {
        s = load_site_document(*in.document, in.path, c.diagnostics, &bases);
    } else if (in.text) {
        c.sources.add(in.path, *in.text);
        s = load_site_text(in.path, *in.text, c.diagnostics, &bases);
    } else {
        SourceText src{.path = in.path, .from_file = true};
        // keep_site: the text is set aside as soon as it is a tree, so that
        // it is not held beside the tree and the site model read from it.
        std::function<void(std::string&)> parsed;
        if (!in.keep_site) parsed = [&src](std::string&) { set_source_aside(src); };
        s = load_site_file(in.path, c.diagnostics, &src.text, &bases, parsed);
        c.sources.add(std::move(src));
    }
    c.sources.add(bases);
    return s;
}

// Where a finding on a lowered object belongs in the site: the provenance of
// the field it names (explain's answer), else of the nearest field above it
// that the object has, else the site element the object was lowered from.
Mark site_position(const Object& o, const std::string& path) {
    const provenance::Resolver r(o);
    auto steps = provenance::parse_path(path);
    if (!steps) return o.origin;
    while (!steps->empty()) {
        std::string at;
        for (const auto& s : *steps) at = s.is_index ? provenance::append_index(at, s.index) : provenance::append_key(at, s.key);
        if (auto f = r.field(at); f && f->mark.known()) return f->mark;
        steps->pop_back();
    }
    const auto whole = r.whole();
    return whole.mark.known() ? whole.mark : o.origin;
}

// Manifests under spec.passthrough are the user's, emitted as written and
// never lowered: like any manifest, validate checks them, not the compile step.
std::set<std::tuple<std::string, std::string, std::string>> passed_through(const site::Site& s) {
    std::set<std::tuple<std::string, std::string, std::string>> out;
    for (const auto& m : s.passthrough)
        out.emplace(text_at(m, {"kind"}), text_at(m, {"metadata", "namespace"}), text_at(m, {"metadata", "name"}));
    return out;
}

// Kueue's webhook and CEL rules (checks/rules, the one implementation that
// validate runs too) over the lowered objects, and the one cross-object rule
// an object set fails by itself (a cohort cycle, V45): what the API server
// would refuse, or Kueue could never admit through, is refused here, at the
// site position each value came from. Only errors: advice on objects (V2) is
// validate's, at the objects.
void check_lowered(const site::Site& s, std::vector<Object>& objects, Diagnostics& diags) {
    const auto verbatim = passed_through(s);
    std::vector<Resource> checked;  // the objects' trees, borrowed and returned below
    std::vector<std::size_t> origin;
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> by_ref;
    checked.reserve(objects.size());
    for (std::size_t i = 0; i < objects.size(); ++i) {
        Object& o = objects[i];
        if (!verbatim.empty() && verbatim.count({o.kind, o.namespace_, o.name})) continue;
        Resource r;
        r.file = s.file;
        r.ref = {o.api_version, o.kind, o.namespace_, o.name};
        r.doc = std::move(o.doc);
        by_ref.try_emplace({o.kind, o.namespace_, o.name}, i);
        checked.push_back(std::move(r));
        origin.push_back(i);
    }
    Diagnostics found;
    for (const auto& r : checked) rules::check_object(r, found);
    rules::check_cohort_hierarchy(checked, found);
    for (std::size_t k = 0; k < checked.size(); ++k) objects[origin[k]].doc = std::move(checked[k].doc);
    for (auto d : found.all()) {
        if (d.severity != Severity::Error) continue;
        auto at = by_ref.find({d.object.kind, d.object.namespace_, d.object.name});
        if (at == by_ref.end()) continue;  // every finding names one of the objects checked
        d.file = s.file;
        d.mark = site_position(objects[at->second], d.path);
        // validate's wording, with the object it is about: the path is the
        // emitted object's, the position the site's.
        d.message = d.object.display() + ": " + d.message;
        diags.add(std::move(d));
    }
}

}  // namespace

Compilation compile(const CompileInputs& in) {
    Compilation c;
    auto s = read_site(in, c);
    if (!s) return c;
    if (in.read_samples) {
        auto files = read_sample_files(*s, std::filesystem::path(in.path).parent_path().string(), c.diagnostics);
        c.samples = std::move(files.resources);
        c.sources.add(files.sources);
    }
    const std::size_t errors = c.diagnostics.count(Severity::Error);
    if (in.prepare) in.prepare(*s, c.diagnostics);
    c.site = std::move(s);
    // Compilation::site as CompileInputs::keep_site asks.
    auto done = [&]() {
        if (!in.keep_site) c.site.reset();
        return std::move(c);
    };
    if (c.diagnostics.count(Severity::Error) > errors) return done();
    const LowerOptions options{.target_override = in.target, .provenance = in.provenance};
    c.lowered = in.keep_site ? lower_site(*c.site, c.diagnostics, options)
                             : lower_site_releasing_quota(*c.site, c.diagnostics, options);
    if (!c.lowered) return done();
    Diagnostics refused;
    check_lowered(*c.site, c.lowered->objects, refused);
    if (refused.has_errors() && !in.provenance && !in.keep_site) {
        // The positions need the provenance, and lowering with it the
        // amounts released: the compilation again, as a caller keeping the
        // site would have made it.
        CompileInputs again = in;
        again.keep_site = true;
        again.provenance = true;
        Compilation full = compile(again);
        full.site.reset();
        return full;
    }
    if (refused.has_errors() && !in.provenance) {
        // The positions come from the provenance the first lowering left out.
        Diagnostics again;
        if (auto with = lower_site(*c.site, again, {.target_override = in.target})) {
            refused = Diagnostics{};
            check_lowered(*c.site, with->objects, refused);
        }
    }
    const bool errors_after_lowering = refused.has_errors();
    c.diagnostics.append(std::move(refused));
    if (errors_after_lowering) {
        // Like any other error in the site: nothing is emitted.
        c.lowered.reset();
        return done();
    }
    if (in.build_model) {
        c.model = model::build_cluster(c.lowered->objects);
        c.kueue_config = model::build_kueue_config(c.lowered->objects, in.path);
    }
    return done();
}

std::optional<Lowered> compile_site(const std::string& path, const std::string& text, Diagnostics& diags,
                                    const LowerOptions& opts) {
    Compilation c = compile({.path = path, .text = text, .target = opts.target_override});
    diags.append(c.diagnostics);
    return std::move(c.lowered);
}

}  // namespace queueforge
