#pragma once
// spec.patches and spec.passthrough: fields and whole manifests the site
// format cannot express, carried so that nothing is lost (queueforge import
// writes them). Run after every other pass and before the duplicate check.
#include "lower/context.hpp"

namespace queueforge::lower {

// Merges each patch into the object it names; a patch may only add fields.
void apply_patches(Context& ctx);
// Appends the passthrough manifests, unchanged.
void add_passthrough(Context& ctx);

}  // namespace queueforge::lower
