// `.queueforge.yaml`: gate::load_config reads a path, so each input is written
// to a file of this process's own temporary folder first. A loaded config is
// then asked about a few rules and paths, as the gate does.
#include "fuzz_util.hpp"

#include <queueforge/checks/gate.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

// A folder of this process's own, removed when the run ends.
class ConfigFile {
public:
    ConfigFile()
        : dir_(std::filesystem::temp_directory_path() / ("queueforge-fuzz-gate-" + std::to_string(::getpid()))),
          path_((dir_ / queueforge::gate::kConfigFileName).string()) {
        std::filesystem::create_directories(dir_);
    }
    ~ConfigFile() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    ConfigFile(const ConfigFile&) = delete;
    ConfigFile& operator=(const ConfigFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::filesystem::path dir_;
    std::string path_;
};

const std::string& config_path() {
    static const ConfigFile file;
    return file.path();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    {
        std::ofstream out(config_path(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    Diagnostics diags;
    std::vector<SourceText> sources;
    auto config = gate::load_config(config_path(), diags, &sources);
    fuzz::require_error_on_failure(!config, diags, "load_config");
    fuzz::require_positioned(diags, "load_config");
    if (config) {
        gate::Gate g;
        g.config = *config;
        for (const auto& [rule, setting] : config->rules) (void)g.configured(rule, "teams/a/site.yaml");
        for (const auto& o : config->overrides)
            for (const auto& glob : o.globs) (void)gate::glob_match(glob, "teams/a/queueforge-site.yaml");
    }
    return 0;
}
