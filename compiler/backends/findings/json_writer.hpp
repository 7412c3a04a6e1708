#pragma once
// A JSON document written as it is walked, in the exact layout of
// nlohmann::json::dump(2) (two-space indent, "key": value, [] and {} when
// empty), with strings escaped as dump does with invalid UTF-8 replaced.
// The JSON and SARIF reports of 100,000 objects hold tens of thousands of
// findings: building them as a json tree first cost about as much as
// checking the objects' schemas.
#include <queueforge/base/compact_string.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::findings {

class JsonWriter {
public:
    explicit JsonWriter(std::string& out) : out_(out) {}

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    // The key of the next member of the object being written.
    void key(std::string_view k);

    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void value(const CompactString& s) { value(s.view()); }
    void value(std::int64_t n);
    void value(int n) { value(static_cast<std::int64_t>(n)); }
    void value(std::size_t n);

    // "key": value, for the common case.
    template <typename T>
    void member(std::string_view k, const T& v) {
        key(k);
        value(v);
    }

private:
    void open(char bracket);
    void close(char bracket);
    // Before a value: the separator and indent an array element needs (an
    // object member's were written by key()).
    void before_value();
    void newline_indent(std::size_t depth);
    void string(std::string_view s);

    struct Level {
        bool object = false;
        std::size_t members = 0;
    };
    std::string& out_;
    std::vector<Level> stack_;
    bool after_key_ = false;
};

}  // namespace queueforge::findings
