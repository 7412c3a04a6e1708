#pragma once
// Shared by the libFuzzer targets in this folder: turning the fuzzer's bytes
// into text, and checks of the contracts every entry point states (a failure
// is reported as an error diagnostic, never as silence).
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace queueforge::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Stops the run with a message: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "contract violated: %s\n", what.c_str());
    std::abort();
}

// "Returns nothing when an error was reported" read the other way: an entry
// point that gives up must say why.
inline void require_error_on_failure(bool failed, const Diagnostics& diags, const char* entry_point) {
    if (failed && !diags.has_errors()) fail(std::string(entry_point) + " failed without an error diagnostic");
}

// Every diagnostic names the file it is about.
inline void require_positioned(const Diagnostics& diags, const char* entry_point) {
    for (const auto& d : diags.all())
        if (d.file.empty()) fail(std::string(entry_point) + ": a diagnostic without a file: " + d.message);
}

// Empty when the two trees are identical (kinds, texts, quoting, marks).
inline std::string tree_difference(const Node& a, const Node& b, const std::string& path) {
    if (a.kind() != b.kind()) return path + ": kind " + Node::kind_name(a.kind()) + " vs " + Node::kind_name(b.kind());
    if (a.mark() != b.mark()) return path + ": mark differs";
    if (a.is_scalar()) {
        if (a.text() != b.text()) return path + ": text \"" + a.text() + "\" vs \"" + b.text() + "\"";
        if (a.quoted() != b.quoted()) return path + ": quoted differs";
        return {};
    }
    if (a.size() != b.size()) return path + ": size differs";
    if (a.is_seq()) {
        for (std::size_t i = 0; i < a.items().size(); ++i) {
            auto d = tree_difference(a.items()[i], b.items()[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return {};
    }
    for (std::size_t i = 0; i < a.entries().size(); ++i) {
        const auto &x = a.entries()[i], &y = b.entries()[i];
        if (x.key != y.key) return path + ": key " + x.key + " vs " + y.key;
        if (x.key_mark() != y.key_mark()) return path + "." + x.key + ": key mark differs";
        auto d = tree_difference(x.value, y.value, path + "." + x.key);
        if (!d.empty()) return d;
    }
    return {};
}

}  // namespace queueforge::fuzz
