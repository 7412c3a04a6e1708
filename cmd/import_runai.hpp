#pragma once
// queueforge import --from runai: the Run:ai half of the import command.
#include "cli.hpp"

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

}  // namespace queueforge::cli
