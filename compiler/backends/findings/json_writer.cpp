#include "backends/findings/json_writer.hpp"

#include <nlohmann/json.hpp>

#include <charconv>

namespace queueforge::findings {

void JsonWriter::newline_indent(std::size_t depth) {
    out_ += '\n';
    out_.append(2 * depth, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (stack_.empty()) return;
    Level& l = stack_.back();
    if (l.members++ > 0) out_ += ',';
    newline_indent(stack_.size());
}

void JsonWriter::key(std::string_view k) {
    Level& l = stack_.back();
    if (l.members++ > 0) out_ += ',';
    newline_indent(stack_.size());
    string(k);
    out_ += ": ";
    after_key_ = true;
}

void JsonWriter::open(char bracket) {
    before_value();
    out_ += bracket;
    stack_.push_back({bracket == '{', 0});
}

void JsonWriter::close(char bracket) {
    const bool empty = stack_.back().members == 0;
    stack_.pop_back();
    if (!empty) newline_indent(stack_.size());
    out_ += bracket;
}

void JsonWriter::value(std::string_view s) {
    before_value();
    string(s);
}

void JsonWriter::value(std::int64_t n) {
    before_value();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

void JsonWriter::value(std::size_t n) {
    before_value();
    char buf[24];
    out_.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

void JsonWriter::string(std::string_view s) {
    // Printable ASCII without a quote or backslash, nearly every string of a
    // report, is written as it is; anything else the way dump writes it.
    bool plain = true;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        out_ += '"';
        out_ += s;
        out_ += '"';
        return;
    }
    out_ += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace queueforge::findings
