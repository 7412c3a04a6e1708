#include <queueforge/base/yaml_load.hpp>
#include <queueforge/base/source_root.hpp>

#include "fast_parse.hpp"
#include "input_check.hpp"
#include "tree_builder.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <memory>
#include <streambuf>
#include <string_view>
#include <system_error>

namespace queueforge {

namespace {

// Lets yaml-cpp read the caller's text in place rather than from a copy
// (inputs may be tens of megabytes).
class ViewBuf final : public std::streambuf {
public:
    explicit ViewBuf(std::string_view s) {
        // streambuf's get area is non-const by signature only; nothing writes to it.
        char* b = const_cast<char*>(s.data());
        setg(b, b, b + s.size());
    }
};

// Reporting must not itself throw out of a catch handler (e.g. when memory is
// exhausted); losing the message is the lesser evil.
template <class Report>
void report_safely(Report&& r) noexcept {
    try {
        r();
    } catch (...) {
    }
}

// yaml-cpp's messages describe its scanner state; add what usually causes them.
std::string explain_parser_error(const std::string& msg) {
    std::string out = "invalid YAML: " + msg;
    if (msg == YAML::ErrorMsg::MAP_VALUE)
        out += " (a plain value containing \": \" needs quotes, or the indentation is off)";
    else if (msg == YAML::ErrorMsg::END_OF_MAP || msg == YAML::ErrorMsg::END_OF_SEQ)
        out += " (check the indentation)";
    else if (msg == YAML::ErrorMsg::END_OF_MAP_FLOW || msg == YAML::ErrorMsg::END_OF_SEQ_FLOW)
        out += " (an opening { or [ is not closed)";
    else if (msg == YAML::ErrorMsg::EOF_IN_SCALAR)
        out += " (a quoted string is not closed)";
    return out;
}

Mark mark_at(std::string_view text, std::size_t offset) {
    const std::size_t nl = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
    const std::size_t line_start = nl == std::string_view::npos ? 0 : nl + 1;
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(line_start), '\n') + 1;
    return Mark{static_cast<int>(line), static_cast<int>(offset - line_start + 1)};
}

std::vector<Document> parse_stream(const std::string& path, const std::string& text, Diagnostics& diags,
                                   const LoadOptions& opts) {
    if (text.size() > opts.max_bytes) {
        diags.error(path, {},
                    "file is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(opts.max_bytes),
                    "yaml.too-large");
        return {};
    }
    if (!yaml_detail::check_encoding(path, text, diags)) return {};
    // The layout scan finds tabs; without one it has nothing to report or
    // repair, and what else it learns (a quote left open) only the full
    // reader needs, so it runs then.
    yaml_detail::LayoutScan layout;
    bool layout_scanned = false;
    if (text.find('\t') != std::string::npos) {
        if (!yaml_detail::check_layout(path, text, diags, layout)) return {};
        layout_scanned = true;
    }
    std::string repaired;
    if (!layout.harmless_tabs.empty()) {
        repaired = text;
        for (std::size_t at : layout.harmless_tabs) repaired[at] = ' ';
    }

    std::string_view body = layout.harmless_tabs.empty() ? std::string_view(text) : std::string_view(repaired);
    int shift = 0;
    if (body.substr(0, 3) == "\xEF\xBB\xBF") {
        // yaml-cpp drops the BOM without counting it; keep columns true to
        // the bytes on line 1 so carets line up.
        body.remove_prefix(3);
        shift = 3;
    }
    // Plain manifests take the fast reader; anything it does not handle (and
    // every error) goes through yaml-cpp below. A BOM shifts columns on line
    // 1, which only the full reader accounts for.
    if (shift == 0 && opts.fast_path)
        if (auto docs = yaml_detail::fast_parse(body, opts)) return std::move(*docs);
    if (!layout_scanned) {
        Diagnostics none;  // a text without tabs has no layout finding
        yaml_detail::check_layout(path, text, none, layout);
    }
    yaml_detail::TreeBuilder builder(path, body, diags, opts, shift);
    ViewBuf buf(body);
    std::istream in(&buf);
    // yaml-cpp lets a quoted string run to the end of the input, or fails
    // far from it. The layout scan saw a quote still open at the end; if
    // yaml-cpp's last quoted scalar starts there, the closing quote really is
    // missing, and that is the error worth reporting.
    auto unclosed_quote = [&] {
        const auto last = builder.last_quoted_offset();
        if (!layout.unclosed_quote || !last || *last + static_cast<std::size_t>(shift) != *layout.unclosed_quote)
            return false;
        diags.error(path, mark_at(text, *layout.unclosed_quote),
                    "this quoted string is never closed; it runs to the end of the file", "yaml.syntax");
        return true;
    };
    try {
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(builder)) {
        }
    } catch (const yaml_detail::StopParsing&) {
        return {};
    } catch (const YAML::DeepRecursion& e) {
        diags.error(path, builder.to_mark(e.mark), "nesting is too deep for the YAML parser", "yaml.depth");
        return {};
    } catch (const YAML::Exception& e) {
        if (unclosed_quote()) return {};
        // The pre-scan misses some tab placements (it errs towards accepting).
        if (e.msg == YAML::ErrorMsg::TAB_IN_INDENTATION)
            diags.error(path, builder.to_mark(e.mark), "tab character used for indentation; YAML allows only spaces",
                        "yaml.tab");
        else
            diags.error(path, builder.to_mark(e.mark), explain_parser_error(e.msg), "yaml.syntax");
        return {};
    }
    if (unclosed_quote()) return {};
    if (builder.had_errors()) return {};
    return builder.take_documents();
}

}  // namespace

std::vector<Document> load_yaml(const std::string& path, const std::string& text, Diagnostics& diags,
                                const LoadOptions& opts) {
    try {
        return parse_stream(path, text, diags, opts);
    } catch (const std::bad_alloc&) {
        report_safely([&] { diags.error(path, {}, "out of memory while reading YAML", "yaml.too-large"); });
    } catch (const std::exception& e) {
        report_safely([&] {
            diags.error(path, {}, std::string("internal error while reading YAML: ") + e.what(), "yaml.internal");
        });
    } catch (...) {
        report_safely([&] { diags.error(path, {}, "internal error while reading YAML", "yaml.internal"); });
    }
    return {};
}

bool read_file_limited(const std::string& path, std::string& out, Diagnostics& diags, std::size_t max_bytes) {
    namespace fs = std::filesystem;
    try {
        // The one confinement rule (source_root.hpp): nothing outside the
        // path's source root is opened, so nothing of it can be quoted.
        std::string why;
        if (!confine_input(path, &why)) {
            diags.error(path, {}, why, "io.outside-root");
            return false;
        }
        std::error_code ec;
        const fs::file_status st = fs::status(path, ec);
        if (st.type() == fs::file_type::not_found) {
            diags.error(path, {}, "cannot read " + path + ": no such file", "yaml.read");
            return false;
        }
        if (ec) {
            diags.error(path, {}, "cannot read " + path + ": " + ec.message(), "yaml.read");
            return false;
        }
        if (fs::is_directory(st)) {
            diags.error(path, {}, "cannot read " + path + ": it is a directory", "yaml.read");
            return false;
        }
        std::uintmax_t expected = 0;
        if (fs::is_regular_file(st)) {
            expected = fs::file_size(path, ec);
            if (!ec && expected > max_bytes) {
                diags.error(path, {},
                            path + " is " + std::to_string(expected) + " bytes; the limit is " +
                                std::to_string(max_bytes),
                            "yaml.too-large");
                return false;
            }
        }
        std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
        if (!file) {
            diags.error(path, {},
                        "cannot open " + path + ": " + std::error_code(errno, std::generic_category()).message(),
                        "yaml.read");
            return false;
        }
        std::string data;
        data.reserve(static_cast<std::size_t>(std::min<std::uintmax_t>(expected, max_bytes)));
        // Pipes and files that grow while we read have no trustworthy size,
        // so the limit is enforced on what is actually read.
        std::array<char, 64 * 1024> chunk{};
        for (;;) {
            const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), file.get());
            if (data.size() + n > max_bytes) {
                diags.error(path, {}, path + " is larger than the limit of " + std::to_string(max_bytes) + " bytes",
                            "yaml.too-large");
                return false;
            }
            data.append(chunk.data(), n);
            if (n < chunk.size()) {
                if (std::ferror(file.get())) {
                    diags.error(path, {}, "cannot read " + path + ": read error", "yaml.read");
                    return false;
                }
                break;
            }
        }
        out = std::move(data);
        return true;
    } catch (const std::bad_alloc&) {
        report_safely([&] { diags.error(path, {}, "out of memory while reading " + path, "yaml.too-large"); });
    } catch (const std::exception& e) {
        report_safely([&] { diags.error(path, {}, "cannot read " + path + ": " + e.what(), "yaml.read"); });
    } catch (...) {
        report_safely([&] { diags.error(path, {}, "cannot read " + path, "yaml.read"); });
    }
    return false;
}

}  // namespace queueforge
