// LocalQueue and WorkloadPriorityClass: no Kueue webhook validates them
// (kueue-semantics.md 2.5, 2.6); their schema rules are the schema layer's.
// What remains is V2 (advice) and the quantity decoding of V4. V50
// (clusterQueue immutable) compares with the stored object: not checkable
// offline.
#include "checks/rules/kinds.hpp"

#include <queueforge/base/names.hpp>

namespace queueforge::rules::detail {

namespace {

// V2: the name is copied into a label value on every job that uses it, so a
// name that is a valid object name (253 chars, dots) can still be unusable.
void check_name_is_label_value(const Reporter& rep, std::string_view label) {
    const Node* name = present(present(&rep.r.doc, "metadata"), "name");
    if (!is_text(name)) return;
    if (auto why = check_label_value(name->text()); !why.empty())
        rep.warning("V2", name, "metadata.name",
                    "metadata.name: " + go_quote(name->text()) + " is used as the value of label " + std::string(label) +
                        ", and is not a valid label value: " + why);
}

}  // namespace

void check_local_queue(const Reporter& rep) {
    check_name_is_label_value(rep, "kueue.x-k8s.io/queue-name");
    quantity(rep, present(present(present(&rep.r.doc, "spec"), "fairSharing"), "weight"), "spec.fairSharing.weight");
}

void check_workload_priority_class(const Reporter& rep) {
    check_name_is_label_value(rep, "kueue.x-k8s.io/priority-class");
}

}  // namespace queueforge::rules::detail
