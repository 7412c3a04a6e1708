#pragma once
// queueforge import --from runai: the Run:ai half of the import command.
#include "cli.hpp"

#include <optional>
#include <string>
#include <vector>

namespace queueforge::cli {

struct RunaiImportFlags {
    std::vector<std::string> paths;
    std::string output;       // -o: the site file ("" or "-": stdout)
    std::string target;       // --target (default rhoai-3.5)
    std::string name;         // --name (default runai)
    std::string weights;      // --runai-weights average|split
    std::string report;       // --report FILE: the migration report (.json: JSON, else text); "-": stderr
    std::string report_format;
    std::vector<std::string> demands;  // --demands FILE...: scenarios for the before/after
};

int run_import_runai(const RunaiImportFlags& f, const GateFlags& gate);

// `queueforge report --runai EXPORT`: the migration section (fidelity and
// before/after) for the HTML report. nullopt with errors in `diags`.
std::optional<std::string> runai_report_section(const RunaiImportFlags& f, Diagnostics& diags,
                                                std::vector<SourceText>& sources);

}  // namespace queueforge::cli
