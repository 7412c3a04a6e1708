#pragma once
// Findings collected while reading, compiling or checking input. Every finding
// carries the file and position it is about so that callers can print
// `file:line:col: error: message` and CI can annotate the right line.
#include <queueforge/mark.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace queueforge {

enum class Severity { Error, Warning, Note };

const char* severity_name(Severity s);

// The Kubernetes object a finding is about (empty for findings about a file).
struct ObjectRef {
    std::string api_version;
    std::string kind;
    std::string namespace_;
    std::string name;
    bool empty() const { return kind.empty() && name.empty(); }
    std::string display() const;  // "ClusterQueue/team-a", "LocalQueue/ns/default"
};

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;
    Mark mark;
    std::string message;
    std::string rule;  // stable id such as "site.unknown-field" or "V24"; may be empty
    ObjectRef object;  // set by validate
    std::string path;  // field path inside the object, e.g. "spec.resourceGroups[0].flavors[1].name"
    // The cluster the finding belongs to when a command covers several
    // (discover.hpp Cluster::label, e.g. "clusters/prod"); "" otherwise.
    std::string site;
};

class Diagnostics {
public:
    void error(std::string file, Mark mark, std::string message, std::string rule = {});
    void warning(std::string file, Mark mark, std::string message, std::string rule = {});
    void note(std::string file, Mark mark, std::string message, std::string rule = {});
    void add(Diagnostic d);
    void append(const Diagnostics& other);

    const std::vector<Diagnostic>& all() const { return items_; }
    bool has_errors() const;
    std::size_t count(Severity s) const;
    bool empty() const { return items_.empty(); }

    // With --strict every warning counts as an error.
    void promote_warnings();
    // Stable order: by file, line, column, then insertion order.
    void sort();

private:
    std::vector<Diagnostic> items_;
};

// Text rendering: `file:line:col: severity: message`, then the offending source
// line and a caret under the column when the source text is known.
struct SourceText {
    std::string path;
    std::string text;
};
std::string render_text(const Diagnostics& diags, const std::vector<SourceText>& sources);

// The lines of one source text, indexed once: findings are many, files few.
class SourceLines {
public:
    explicit SourceLines(const SourceText& s);
    const SourceText& source() const { return *src_; }
    // Line `n` (1-based) without its line break; empty when out of range.
    std::string_view line(int n) const;

private:
    const SourceText* src_;
    std::vector<std::size_t> starts_;
};

// `indent` and the line, then `indent` and a caret under column `col` (tabs
// kept so that it lines up); empty for an empty line or one over 400
// characters.
std::string caret_excerpt(std::string_view line, int col, std::string_view indent);

}  // namespace queueforge
