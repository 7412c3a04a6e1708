// The inputs' texts a command may let go before checking: for good when its
// report format prints no source line, or to be read again for the report
// when it does (validate.hpp).
#include <queueforge/base/yaml_load.hpp>
#include <queueforge/checks/gate.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <filesystem>
#include <functional>
#include <set>
#include <string_view>

namespace queueforge {

namespace {

// The texts the checks read: a Kueue manager ConfigMap's embedded
// configuration is read again from its file's text (positions inside the
// ConfigMap's string), and the gate reads suppressions from the texts.
template <class Release>
void release_unread(LoadedResources& input, Release release) {
    std::set<std::string_view> config_files;
    for (const auto& r : input.resources)
        if (platform::is_kueue_manager_config_map(r)) config_files.insert(r.file);
    for (auto& src : input.sources) {
        if (config_files.count(src.path) || gate::may_hold_suppressions(src.text)) continue;
        release(src);
    }
}

SourceText::Stamp stamp_of(std::string_view text) { return {text.size(), std::hash<std::string_view>{}(text)}; }

}  // namespace

void release_unread_sources(LoadedResources& input) {
    release_unread(input, [](SourceText& src) { std::string().swap(src.text); });
}

namespace {

void set_aside(SourceText& src) {
    std::error_code ec;
    if (!src.from_file || !std::filesystem::is_regular_file(src.path, ec)) return;  // stdin, a pipe: not read twice
    src.set_aside = stamp_of(src.text);
    std::string().swap(src.text);
}

}  // namespace

void set_sources_aside(LoadedResources& input) { release_unread(input, set_aside); }

void set_source_aside(SourceText& src) {
    if (!gate::may_hold_suppressions(src.text)) set_aside(src);
}

void restore_sources(std::vector<SourceText>& sources) {
    for (auto& src : sources) {
        if (!src.set_aside) continue;
        const SourceText::Stamp was = *std::exchange(src.set_aside, std::nullopt);
        std::string text;
        Diagnostics unread;  // a file gone since: its findings print without source lines
        if (!read_file_limited(src.path, text, unread)) continue;
        const SourceText::Stamp now = stamp_of(text);
        if (now.size == was.size && now.hash == was.hash) src.text = std::move(text);
    }
}

}  // namespace queueforge
