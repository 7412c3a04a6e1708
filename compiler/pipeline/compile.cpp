// The compile step: one driver function, each stage a free function of its
// own folder (docs/architecture.md).
#include <queueforge/compile.hpp>

#include <queueforge/base/yaml_load.hpp>
#include <queueforge/frontend/site_parse.hpp>

#include <filesystem>

namespace queueforge {

void SourceSet::add(std::string path, std::string text) {
    auto [it, inserted] = index_.try_emplace(path, texts_.size());
    if (inserted) texts_.push_back({std::move(path), std::move(text)});
}

void SourceSet::add(const std::vector<SourceText>& texts) {
    for (const auto& t : texts) add(t.path, t.text);
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
        std::string text;
        s = load_site_file(in.path, c.diagnostics, &text, &bases);
        c.sources.add(in.path, std::move(text));
    }
    c.sources.add(bases);
    return s;
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
    if (c.diagnostics.count(Severity::Error) > errors) return c;
    c.lowered = lower_site(*c.site, c.diagnostics, {.target_override = in.target});
    if (!c.lowered) return c;
    c.model = model::build_cluster(c.lowered->objects);
    return c;
}

std::optional<Lowered> compile_site(const std::string& path, const std::string& text, Diagnostics& diags,
                                    const LowerOptions& opts) {
    Compilation c = compile({.path = path, .text = text, .target = opts.target_override});
    diags.append(c.diagnostics);
    return std::move(c.lowered);
}

}  // namespace queueforge
