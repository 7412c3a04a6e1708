#pragma once
// A position in a source file. Lines and columns are 1-based; 0 means "unknown".
#include <string>

namespace queueforge {

struct Mark {
    int line = 0;
    int col = 0;
    bool known() const { return line > 0; }
    friend bool operator==(const Mark&, const Mark&) = default;
};

}  // namespace queueforge
