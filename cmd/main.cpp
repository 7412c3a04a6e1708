// queueforge: a thin front end over the library in compiler/.
#include "cli.hpp"

#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <iostream>
#include <set>

namespace {

// Users paste kubeconform-style single-dash long flags (-strict, -output);
// CLI11 would read those as bundles of short flags, so they are refused with
// the spelling that works.
bool refuse_single_dash_long_flags(int argc, char** argv) {
    static const std::set<std::string> known = {"strict", "output", "target", "summary", "verbose", "output-dir",
                                                "no-header", "template", "force", "ignore-missing-schemas", "crd",
                                                "fail-level", "cycles", "rendered", "config", "disable", "enable"};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.size() > 2 && a[0] == '-' && a[1] != '-') {
            std::string name = a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1);
            if (known.count(name)) {
                std::cerr << "queueforge: unknown flag " << a << "; did you mean --" << a.substr(1) << "?\n";
                return true;
            }
        }
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace queueforge::cli;
    use_huge_pages(false);  // until a command that takes them runs
    if (refuse_single_dash_long_flags(argc, argv)) return kUsage;
    CLI::App app{"queueforge: compile, validate and simulate Kueue queue configurations"};
    app.require_subcommand(1);
    app.set_version_flag("--version", version_text());
    app.footer(R"(Run `queueforge COMMAND --help` for a command's options, examples and exit codes.
Exit codes everywhere: 0 ok, 1 a finding at the fail level or invalid input (nothing written),
2 usage error or an unreadable path, 70 internal error.
Colours only on a terminal; NO_COLOR turns them off.)");
    std::vector<Command> commands = {
#define QF_COMMAND(name) add_##name(app),
#include "commands.def"
#undef QF_COMMAND
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }
    for (const auto& c : commands) {
        if (!c.app->parsed()) continue;
        // The last resort: whatever escapes a command is a defect of
        // queueforge, reported as one line and exit 70, never a core dump.
        try {
            // Lets the tests prove this path (tests/cli/exit_codes_cli_test.cpp).
            if (std::getenv("QUEUEFORGE_TEST_INTERNAL_ERROR")) throw std::runtime_error("fault injected for a test");
            if (c.huge_pages) use_huge_pages(true);
            return c.run();
        } catch (const std::exception& e) {
            std::cout.flush();
            std::cerr << "queueforge " << c.app->get_name() << ": internal error: " << e.what()
                      << " (please report this with the input that caused it)\n";
        } catch (...) {
            std::cout.flush();
            std::cerr << "queueforge " << c.app->get_name()
                      << ": internal error: unknown exception (please report this with the input that caused it)\n";
        }
        return kInternal;
    }
    return kUsage;
}
