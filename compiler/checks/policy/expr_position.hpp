#pragma once
// Where a position inside a YAML scalar's value lies in the file: CEL parse
// errors come as line:col within the expression, and users need line:col in
// the policy file. Handles plain, quoted, literal (|) and folded (>) scalars;
// escapes inside quoted scalars can shift the column slightly.
#include <queueforge/base/mark.hpp>

#include <string_view>

namespace queueforge::policy {

// `value` is the scalar's mark (its first character, or the block indicator);
// `line`/`col` are 1-based within the value. Falls back to `value`.
Mark position_in_scalar(std::string_view source, Mark value, int line, int col);

}  // namespace queueforge::policy
