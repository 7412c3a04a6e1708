// A Run:ai organisation export (import --from runai): read, mapped to a site,
// and the site rendered and compiled for its target. Bad input must give
// positioned findings, never a crash. (The before/after comparison runs the
// simulator, which the fuzz build leaves out; its input is bounded by
// runai.scenario.)
#include "fuzz_util.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/integrations/runai.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    namespace runai = importer::runai;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics diags;
    auto org = runai::read_organization_text("export.yaml", text, diags);
    fuzz::require_positioned(diags, "read_organization_text");
    if (!org) return 0;
    auto migration = runai::migrate(*org, runai::MigrationOptions{}, diags);
    fuzz::require_positioned(diags, "migrate");
    if (!migration) return 0;
    Compilation c = compile({.path = "runai/queueforge-site.yaml", .text = runai::render_site(*migration)});
    (void)c;
    return 0;
}
