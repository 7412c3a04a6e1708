#include "cli.hpp"

#include <queueforge/base/safe_write.hpp>
#include <queueforge/base/templates.hpp>

#include <filesystem>
#include <iostream>

namespace queueforge::cli {

namespace {

struct InitFlags {
    std::string dir;
    std::string template_name = "minimal";
    bool force = false;
};

int run_init(const InitFlags& f) {
    auto text = find_template("sites/" + f.template_name + ".yaml");
    if (!text) {
        std::cerr << "queueforge init: unknown template \"" << f.template_name << "\"; available:";
        for (const auto& p : template_paths("sites/"))
            std::cerr << " " << std::filesystem::path(p).stem().string();
        std::cerr << "\n";
        return kUsage;
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(f.dir, ec);
    fs::path target = fs::path(f.dir) / kSiteFileName;
    if (fs::exists(target, ec) && !f.force) {
        std::cerr << "queueforge init: " << target.string() << " exists; use --force to overwrite\n";
        return kInvalid;
    }
    // A fresh hidden temporary file (O_EXCL|O_NOFOLLOW: never written
    // through a planted symlink) and one rename.
    std::string error;
    if (!replace_file_atomically(target.string(), *text, error)) {
        std::cerr << "queueforge init: " << error << "\n";
        return kInvalid;
    }
    std::cerr << "wrote " << target.string() << "\n";
    return kOk;
}

}  // namespace

Command add_init(CLI::App& app) {
    auto flags = std::make_shared<InitFlags>();
    CLI::App* sub = app.add_subcommand("init", "Write a starter site description into a folder");
    sub->add_option("dir", flags->dir, "Folder to create queueforge-site.yaml in")->required();
    sub->add_option("-t,--template", flags->template_name, "Starter site (minimal, multi-team, rhoai-3)");
    sub->add_flag("--force", flags->force, "Overwrite an existing queueforge-site.yaml");
    sub->footer(R"(Examples:
  queueforge init gpu-site
  queueforge init --template multi-team gpu-site

Exit codes: 0 ok, 1 file exists or cannot be written, 2 usage error.)");
    return {sub, [flags] { return run_init(*flags); }};
}

}  // namespace queueforge::cli
