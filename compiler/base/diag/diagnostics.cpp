#include <queueforge/base/diagnostics.hpp>

#include <algorithm>
#include <iterator>

namespace queueforge {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

std::string ObjectRef::display() const {
    std::string s = kind;
    if (!namespace_.empty()) s += "/" + namespace_;
    if (!name.empty()) s += "/" + name;
    return s;
}

// Every finding passes here: messages quote input (names, values), so this is
// where a 1 MB scalar stops being copied into every format. Control
// characters are left to each format's own escaping (JSON, XML, workflow
// commands; the text renderer shows them as \x1b).
void Diagnostics::add(Diagnostic d) {
    // A position set by a base a site extends names the base's file; from
    // here on the finding's file says so (and may be renamed, as a git
    // revision's findings are).
    if (d.mark.file) {
        if (!d.mark.file->empty()) d.file = *d.mark.file;
        d.mark.file.reset();
    }
    if (d.message.size() > kMessageLimit) d.message = bounded_message(d.message);
    ++counts_[static_cast<std::size_t>(d.severity)];
    // Grown by half, not doubled: a check that notes every ClusterQueue of
    // 100,000 objects holds 33,000 findings, and doubling left up to as many
    // slots again unused (5 MiB) through the rest of the checks.
    // Small lists grow as vectors do: a command may hold many of one finding.
    if (items_.size() == items_.capacity() && items_.size() >= 64) items_.reserve(items_.size() + items_.size() / 2);
    items_.push_back(std::move(d));
}

void Diagnostics::error(std::string file, Mark mark, std::string message, std::string rule) {
    add({Severity::Error, std::move(file), mark, std::move(message), std::move(rule)});
}

void Diagnostics::warning(std::string file, Mark mark, std::string message, std::string rule) {
    add({Severity::Warning, std::move(file), mark, std::move(message), std::move(rule)});
}

void Diagnostics::note(std::string file, Mark mark, std::string message, std::string rule) {
    add({Severity::Note, std::move(file), mark, std::move(message), std::move(rule)});
}

void Diagnostics::append(const Diagnostics& other) {
    items_.insert(items_.end(), other.items_.begin(), other.items_.end());
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
}

void Diagnostics::append(Diagnostics&& other) {
    const std::size_t needed = items_.size() + other.items_.size();
    if (items_.empty() && items_.capacity() < needed) {
        items_ = std::move(other.items_);
    } else {
        // Grown by half at least: joining many lists one by one must not
        // copy the ones before each time (room reserved ahead is kept).
        if (needed > items_.capacity()) items_.reserve(std::max(needed, items_.size() + items_.size() / 2));
        std::move(other.items_.begin(), other.items_.end(), std::back_inserter(items_));
    }
    for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    other.items_.clear();
    other.counts_ = {};
}

void Diagnostics::erase_if(const std::function<bool(const Diagnostic&)>& drop) {
    std::erase_if(items_, drop);
    recount();
}

void Diagnostics::recount() {
    counts_ = {};
    for (const auto& d : items_) ++counts_[static_cast<std::size_t>(d.severity)];
}

bool Diagnostics::has_errors() const { return count(Severity::Error) > 0; }

void Diagnostics::promote_warnings() {
    for (auto& d : items_)
        if (d.severity == Severity::Warning) d.severity = Severity::Error;
    recount();
}

void Diagnostics::sort() {
    std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.file != b.file) return a.file < b.file;
        if (a.mark.line != b.mark.line) return a.mark.line < b.mark.line;
        return a.mark.col < b.mark.col;
    });
}

}  // namespace queueforge
