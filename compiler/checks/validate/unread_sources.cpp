// The inputs' texts a command may let go before checking when its report
// format prints no source line (validate.hpp).
#include <queueforge/checks/gate.hpp>
#include <queueforge/checks/validate.hpp>
#include <queueforge/frontend/kueue_operator.hpp>

#include <set>
#include <string_view>

namespace queueforge {

void release_unread_sources(LoadedResources& input) {
    // A Kueue manager ConfigMap's embedded configuration is read again from
    // its file's text (positions inside the ConfigMap's string).
    std::set<std::string_view> config_files;
    for (const auto& r : input.resources)
        if (platform::is_kueue_manager_config_map(r)) config_files.insert(r.file);
    for (auto& src : input.sources) {
        if (config_files.count(src.path) || gate::may_hold_suppressions(src.text)) continue;
        std::string().swap(src.text);
    }
}

}  // namespace queueforge
