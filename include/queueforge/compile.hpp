#pragma once
// The whole pipeline for one site held in memory: parse → model → lower.
// Callers emit the result with render_stream or write_objects (emit.hpp).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/lower.hpp>

#include <optional>
#include <string>

namespace queueforge {

std::optional<Lowered> compile_site(const std::string& path, const std::string& text, Diagnostics& diags,
                                    const LowerOptions& opts = {});

}  // namespace queueforge
