// Timestamps and durations: timestamp()/duration() conversions (RFC 3339 and
// Go duration strings), and the calendar accessors with optional time zone.
// Arithmetic and comparisons are with the operators.
#include "checks/cel/civil_time.hpp"
#include "checks/cel/functions.hpp"
#include "checks/cel/timezone.hpp"
#include "checks/cel/values.hpp"

namespace queueforge::cel {
namespace {

using K = Value::Kind;
using Args = std::span<const Value>;

constexpr int128 kNanos = 1000000000;

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
    if (pos + n > s.size()) return false;
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

// RFC 3339: 2006-01-02T15:04:05.999999999Z07:00.
Value parse_timestamp(const std::string& s) {
    auto bad = [&] { return Value::error("invalid timestamp '" + s + "'"); };
    int year, month, day, hour, minute, second;
    if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month) || s[7] != '-' ||
        !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, hour) || s[13] != ':' ||
        !digits(s, 14, 2, minute) || s[16] != ':' || !digits(s, 17, 2, second))
        return bad();
    if (month < 1 || month > 12 || day < 1 || day > civil::days_in_month(year, month) || hour > 23 || minute > 59 ||
        second > 59)
        return bad();
    std::size_t pos = 19;
    std::int64_t nanos = 0;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        int count = 0;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            if (count < 9) nanos = nanos * 10 + (s[pos] - '0');
            ++count;
            ++pos;
        }
        if (count == 0) return bad();
        for (int i = count; i < 9; ++i) nanos *= 10;
    }
    std::int64_t offset = 0;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        int oh, om;
        if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, om) ||
            oh > 23 || om > 59)
            return bad();
        offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
        pos += 6;
    } else {
        return bad();
    }
    if (pos != s.size()) return bad();
    const std::int64_t secs = civil::days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    return Value::timestamp(int128{secs} * kNanos + nanos);
}

// Go's time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0".
Value parse_duration(const std::string& s) {
    auto bad = [&] { return Value::error("invalid duration '" + s + "'"); };
    std::size_t pos = 0;
    bool negative = false;
    if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) negative = s[pos++] == '-';
    if (s.substr(pos) == "0") return Value::duration(0);
    if (pos == s.size()) return bad();
    int128 total = 0;
    const int128 cap = int128{Value::kMaxDurationNanos} * 2;
    while (pos < s.size()) {
        int128 whole = 0;
        int128 frac = 0;
        int128 frac_scale = 1;
        bool any = false;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
            whole = whole * 10 + (s[pos++] - '0');
            any = true;
            if (whole > cap) return Value::error("duration out of range");
        }
        if (pos < s.size() && s[pos] == '.') {
            ++pos;
            while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
                if (frac_scale < int128{1000000000} * 1000000000) {
                    frac = frac * 10 + (s[pos] - '0');
                    frac_scale *= 10;
                }
                ++pos;
                any = true;
            }
        }
        if (!any) return bad();
        const std::size_t unit_start = pos;
        while (pos < s.size() && !(s[pos] >= '0' && s[pos] <= '9') && s[pos] != '.') ++pos;
        const std::string unit = s.substr(unit_start, pos - unit_start);
        int128 scale;
        if (unit == "ns") scale = 1;
        else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") scale = 1000;
        else if (unit == "ms") scale = 1000000;
        else if (unit == "s") scale = kNanos;
        else if (unit == "m") scale = 60 * kNanos;
        else if (unit == "h") scale = 3600 * kNanos;
        else return bad();
        total += whole * scale + frac * scale / frac_scale;
        if (total > cap) return Value::error("duration out of range");
    }
    return Value::duration(negative ? -total : total);
}

Result timestamp(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    if (is(v, K::Timestamp)) return v;
    if (is(v, K::String)) return parse_timestamp(v.as_string());
    if (is(v, K::Int)) return Value::timestamp(int128{v.as_int()} * kNanos);
    return std::nullopt;
}

Result duration(EvalContext&, Args a) {
    if (!arity(a, 1)) return std::nullopt;
    const Value& v = a[0];
    if (is(v, K::Duration)) return v;
    if (is(v, K::String)) return parse_duration(v.as_string());
    if (is(v, K::Int)) return Value::duration(int128{v.as_int()} * kNanos);
    return std::nullopt;
}

enum class Field { FullYear, Month, Date, DayOfMonth, DayOfWeek, DayOfYear, Hours, Minutes, Seconds, Milliseconds };

template <Field F>
Result accessor(EvalContext& ctx, Args a) {
    if (a.empty() || a.size() > 2) return std::nullopt;
    const Value& v = a[0];
    if (is(v, K::Duration)) {
        if (a.size() != 1) return std::nullopt;
        const int128 n = v.total_nanos();
        switch (F) {
            case Field::Hours: return Value::integer(static_cast<std::int64_t>(n / (3600 * kNanos)));
            case Field::Minutes: return Value::integer(static_cast<std::int64_t>(n / (60 * kNanos)));
            case Field::Seconds: return Value::integer(static_cast<std::int64_t>(n / kNanos));
            case Field::Milliseconds: return Value::integer(static_cast<std::int64_t>(n / 1000000 % 1000));
            default: return std::nullopt;
        }
    }
    if (!is(v, K::Timestamp)) return std::nullopt;
    std::int64_t secs = v.seconds();
    if (a.size() == 2) {
        if (!is(a[1], K::String)) return std::nullopt;
        if (!ctx.charge(50)) return EvalContext::cost_error();
        std::string error;
        auto off = zone_offset(a[1].as_string(), secs, error);
        if (!off) return Value::error(error);
        secs += *off;
    }
    const std::int64_t days = civil::floor_div(secs, 86400);
    const std::int64_t rem = secs - days * 86400;
    const civil::Date d = civil::civil_from_days(days);
    switch (F) {
        case Field::FullYear: return Value::integer(d.year);
        case Field::Month: return Value::integer(d.month - 1);
        case Field::Date: return Value::integer(d.day);
        case Field::DayOfMonth: return Value::integer(d.day - 1);
        case Field::DayOfWeek: return Value::integer((days % 7 + 7 + 4) % 7);  // 1970-01-01 was a Thursday
        case Field::DayOfYear: return Value::integer(days - civil::days_from_civil(d.year, 1, 1));
        case Field::Hours: return Value::integer(rem / 3600);
        case Field::Minutes: return Value::integer(rem / 60 % 60);
        case Field::Seconds: return Value::integer(rem % 60);
        case Field::Milliseconds: return Value::integer(v.nanos() / 1000000);
    }
    return std::nullopt;
}

}  // namespace

void register_time(Registry& r) {
    r.add("timestamp", timestamp);
    r.add("duration", duration);
    r.add("getFullYear", accessor<Field::FullYear>);
    r.add("getMonth", accessor<Field::Month>);
    r.add("getDate", accessor<Field::Date>);
    r.add("getDayOfMonth", accessor<Field::DayOfMonth>);
    r.add("getDayOfWeek", accessor<Field::DayOfWeek>);
    r.add("getDayOfYear", accessor<Field::DayOfYear>);
    r.add("getHours", accessor<Field::Hours>);
    r.add("getMinutes", accessor<Field::Minutes>);
    r.add("getSeconds", accessor<Field::Seconds>);
    r.add("getMilliseconds", accessor<Field::Milliseconds>);
}

}  // namespace queueforge::cel
