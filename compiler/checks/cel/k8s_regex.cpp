// Regular expressions: core `matches` and Kubernetes' `find`/`findAll`
// (k8s.io/apiserver/pkg/cel/library/regex.go). RE2 runs in linear time, so
// no pattern backtracks catastrophically; the cost charge covers the scan.
#include "checks/cel/ast.hpp"
#include "checks/cel/functions.hpp"
#include "checks/cel/utf8.hpp"

#include <re2/re2.h>

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

// The pattern compiled by the resolver when it was a literal, else compiled
// here. nullptr with `error` set when the pattern is invalid.
std::shared_ptr<const RE2> regex_for(EvalContext& ctx, const std::string& pattern, Value& error) {
    if (ctx.call && ctx.call->regex && ctx.call->regex->pattern() == pattern) return ctx.call->regex;
    if (!ctx.charge(1 + pattern.size())) {
        error = EvalContext::cost_error();
        return nullptr;
    }
    RE2::Options opts;
    opts.set_log_errors(false);
    auto re = std::make_shared<const RE2>(pattern, opts);
    if (!re->ok()) {
        error = Value::error("invalid regular expression '" + pattern + "': " + re->error());
        return nullptr;
    }
    return re;
}

bool scan_charge(EvalContext& ctx, const std::string& text, const RE2& re) {
    return ctx.charge(1 + text.size() / 10 + static_cast<std::uint64_t>(re.ProgramSize()) / 10);
}

Result matches(EvalContext& ctx, Args a) {
    if (!arity(a, 2) || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    Value error;
    auto re = regex_for(ctx, a[1].as_string(), error);
    if (!re) return error;
    if (!scan_charge(ctx, a[0].as_string(), *re)) return EvalContext::cost_error();
    return Value::boolean(RE2::PartialMatch(a[0].as_string().view(), *re));
}

Result find(EvalContext& ctx, Args a) {
    if (!arity(a, 2) || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    Value error;
    auto re = regex_for(ctx, a[1].as_string(), error);
    if (!re) return error;
    const std::string& text = a[0].as_string();
    if (!scan_charge(ctx, text, *re)) return EvalContext::cost_error();
    re2::StringPiece match;
    if (!re->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return Value::string("");
    return Value::string(std::string(match.data(), match.size()));
}

// Go's FindAllString: successive non-overlapping matches; an empty match
// right after the previous match is skipped.
Result find_all(EvalContext& ctx, Args a) {
    if (a.size() < 2 || a.size() > 3 || !is(a[0], K::String) || !is(a[1], K::String)) return std::nullopt;
    if (a.size() == 3 && !is(a[2], K::Int)) return std::nullopt;
    const std::int64_t limit = a.size() == 3 ? a[2].as_int() : -1;
    Value error;
    auto re = regex_for(ctx, a[1].as_string(), error);
    if (!re) return error;
    const std::string& text = a[0].as_string();
    Value::ListItems out;
    if (limit == 0) return Value::list(std::move(out));
    std::size_t pos = 0;
    std::ptrdiff_t prev_end = -1;
    while (pos <= text.size() && (limit < 0 || static_cast<std::int64_t>(out.size()) < limit)) {
        if (!scan_charge(ctx, text, *re)) return EvalContext::cost_error();
        re2::StringPiece m;
        if (!re->Match(text, pos, text.size(), RE2::UNANCHORED, &m, 1)) break;
        const auto start = static_cast<std::size_t>(m.data() - text.data());
        const std::size_t end = start + m.size();
        bool accept = true;
        if (m.empty()) {
            if (static_cast<std::ptrdiff_t>(start) == prev_end) accept = false;
            if (end >= text.size()) {
                pos = text.size() + 1;
            } else {
                std::size_t next = end;
                utf8::next(text, next);
                pos = next;
            }
        } else {
            pos = end;
        }
        prev_end = static_cast<std::ptrdiff_t>(end);
        if (accept) out.push_back(Value::string(std::string(m.data(), m.size())));
    }
    return Value::list(std::move(out));
}

}  // namespace

void register_regex(Registry& r) {
    r.add("matches", matches);
    r.add("find", find);
    r.add("findAll", find_all);
}

}  // namespace queueforge::cel
