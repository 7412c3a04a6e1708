// A Run:ai organisation export (import --from runai): read, mapped to a site,
// the site rendered and built for the target, and the KAI / Kueue comparison
// for "everyone asks for everything". Bad input must give positioned
// findings, never a crash.
#include "fuzz_util.hpp"

#include <queueforge/integrations/runai.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace queueforge;
    namespace runai = importer::runai;
    const std::string text = fuzz::text_of(data, size);
    Diagnostics diags;
    auto org = runai::read_organization_text("export.yaml", text, diags);
    fuzz::require_positioned(diags, "read_organization_text");
    if (!org) return 0;
    runai::MigrationOptions opts;
    auto migration = runai::migrate(*org, opts, diags);
    if (!migration) return 0;
    (void)runai::render_site(*migration);
    if (!runai::check_site(*migration, "runai/queueforge-site.yaml", diags)) return 0;
    (void)runai::compare(*org, *migration, opts, runai::demand_everything(*org), "everyone asks for everything", diags);
    return 0;
}
