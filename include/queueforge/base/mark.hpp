#pragma once
// A position in a source file. Lines and columns are 1-based; 0 means "unknown".
#include <memory>
#include <string>

namespace queueforge {

struct Mark {
    int line = 0;
    int col = 0;
    // The file this position is in when it is not the file of the document
    // being read: a site's merged tree (site_parse.hpp, spec.extends) holds
    // nodes set by the bases it extends, and each of those keeps its base's
    // path here. Null for a position in the document's own file. A finding
    // made at such a mark names this file (Diagnostics::add).
    std::shared_ptr<const std::string> file;

    bool known() const { return line > 0; }
    friend bool operator==(const Mark& a, const Mark& b) {
        if (a.line != b.line || a.col != b.col) return false;
        if (a.file == b.file) return true;
        return a.file && b.file && *a.file == *b.file;
    }
};

}  // namespace queueforge
