#pragma once
// Findings collected while reading, compiling or checking input. Every finding
// carries the file and position it is about so that callers can print
// `file:line:col: error: message` and CI can annotate the right line.
#include <queueforge/base/compact_string.hpp>
#include <queueforge/base/mark.hpp>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace queueforge {

enum class Severity { Error, Warning, Note };

const char* severity_name(Severity s);

// The Kubernetes object a finding is about (empty for findings about a file).
// Compact strings: every loaded object and every finding holds one (64
// bytes where std::string made it 128).
struct ObjectRef {
    CompactString api_version;
    CompactString kind;
    CompactString namespace_;
    CompactString name;
    bool empty() const { return kind.empty() && name.empty(); }
    std::string display() const;  // "ClusterQueue/team-a", "LocalQueue/ns/default"
};

// An object that was checked, so that JUnit can list the ones that passed too.
struct CheckedObject {
    std::string file;
    ObjectRef object;
};

// Its texts are compact strings: a large input has tens of thousands of
// findings (168 bytes each, where std::string made them 248).
struct Diagnostic {
    Severity severity = Severity::Error;
    CompactString file;
    Mark mark;
    CompactString message;
    CompactString rule;  // stable id such as "site.unknown-field" or "V24"; may be empty
    ObjectRef object;    // set by validate
    CompactString path;  // field path inside the object, e.g. "spec.resourceGroups[0].flavors[1].name"
    // The cluster the finding belongs to when a command covers several
    // (discover.hpp Cluster::label, e.g. "clusters/prod"); "" otherwise.
    CompactString site;
};
static_assert(sizeof(Diagnostic) <= 168);

class Diagnostics {
public:
    void error(std::string file, Mark mark, std::string message, std::string rule = {});
    void warning(std::string file, Mark mark, std::string message, std::string rule = {});
    void note(std::string file, Mark mark, std::string message, std::string rule = {});
    void add(Diagnostic d);
    void append(const Diagnostics& other);
    // The same, moving: findings of a large input are tens of MiB, and a
    // copy would hold both at once.
    void append(Diagnostics&& other);
    // Room for `n` findings in all, e.g. before appending many lists.
    void reserve(std::size_t n) { items_.reserve(n); }
    // Drops the findings `drop` returns true for, keeping the others' order.
    void erase_if(const std::function<bool(const Diagnostic&)>& drop);
    // Moves the findings out (the caller re-adds them, e.g. with a site set).
    std::vector<Diagnostic> release() && {
        counts_ = {};
        return std::move(items_);
    }

    const std::vector<Diagnostic>& all() const { return items_; }
    bool has_errors() const;
    // Kept as findings are added: a check that compares the count before and
    // after each object would otherwise walk every finding per object.
    std::size_t count(Severity s) const { return counts_[static_cast<std::size_t>(s)]; }
    bool empty() const { return items_.empty(); }

    // With --strict every warning counts as an error.
    void promote_warnings();
    // Stable order: by file, line, column, then insertion order.
    void sort();

private:
    void recount();

    std::vector<Diagnostic> items_;
    std::array<std::size_t, 3> counts_{};  // per Severity
};

// Text rendering: `file:line:col: severity: message`, then the offending source
// line and a caret under the column when the source text is known.
struct SourceText {
    std::string path;
    std::string text;
    // The text was read from the file at `path` (load_resources), so a
    // command may let it go and read it again for its report.
    bool from_file = false;
    // Set while the text is let go to be read again (set_sources_aside):
    // what the checked text was, so that a file changed in between is not
    // quoted as if it were the one checked.
    struct Stamp {
        std::size_t size = 0;
        std::size_t hash = 0;
    };
    std::optional<Stamp> set_aside{};
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

// The line index of every source, each built on first use and kept for the
// whole run: a report renders its findings one at a time, and rebuilding the
// index per finding made text output quadratic (100,000 objects: 1,039 s).
// `sources` must outlive the index.
class SourceIndex {
public:
    explicit SourceIndex(const std::vector<SourceText>& sources);
    // The first source named `path`, indexed; null when there is none.
    const SourceLines* lines(const std::string& path);

private:
    const std::vector<SourceText>* sources_;
    std::unordered_map<std::string, std::size_t> first_;    // path -> its first source
    std::unordered_map<std::string, SourceLines> indexed_;  // built so far
};

// One finding as render_text prints it: the headline, then the source line
// and caret when `index` knows the file.
std::string render_text(const Diagnostic& d, SourceIndex& index);

// `indent` and an excerpt of the line, then `indent` and a caret under column
// `col` (tabs kept so that it lines up); empty for an empty line. At most
// kExcerptWidth characters around the column are shown, with "…" where the
// line was cut, and control characters are shown escaped (`\x1b`) so that
// input cannot drive the terminal.
std::string caret_excerpt(std::string_view line, int col, std::string_view indent);
inline constexpr std::size_t kExcerptWidth = 200;

// `s` with C0 control characters (other than tab, LF and CR) and DEL shown
// as `\xNN`, C1 ones (U+0080..U+009F) as `\u0085`: what findings quote of
// any input.
std::string escape_controls(std::string_view s);

// A message as findings keep it (Diagnostics::add applies it): over
// kMessageLimit bytes, its head and tail around "…", so that a finding
// quoting a 1 MB scalar stays bounded in every format.
std::string bounded_message(std::string_view s);
inline constexpr std::size_t kMessageLimit = 1000;

}  // namespace queueforge
