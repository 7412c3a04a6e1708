// rules::check_object: Kueue's per-object rules (kueue-semantics.md section
// 2) by kind. Pure schema rules (types, enums, required, maxItems, patterns,
// metadata.name syntax) are the schema layer's and are not repeated here.
#include <queueforge/checks/rules.hpp>

#include "checks/rules/kinds.hpp"

namespace queueforge::rules {

void check_object(const Resource& r, Diagnostics& diags) {
    using namespace detail;
    if (!is_kueue(r) || !r.doc.is_map()) return;
    const Reporter rep{r, diags};
    const std::string& kind = r.ref.kind;
#define QF_OBJECT_RULES(k, fn) \
    if (kind == k) fn(rep);
#include "checks/rules/object_rules.def"
#undef QF_OBJECT_RULES
}

}  // namespace queueforge::rules
