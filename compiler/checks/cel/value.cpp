// The value model: construction (with the map-key and range rules CEL puts
// on values), accessors, equality, ordering and canonical spellings.
#include "checks/cel/civil_time.hpp"
#include "checks/cel/values.hpp"

#include <queueforge/base/node.hpp>
#include <queueforge/base/text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_set>
#include <utility>

namespace queueforge::cel {
namespace {

constexpr int128 kNanosPerSecond = 1000000000;
constexpr std::size_t kIndexThreshold = 8;

const CompactString& empty_string() {
    static const CompactString empty;
    return empty;
}

void split_nanos(int128 total, std::int64_t& seconds, std::int32_t& nanos) {
    int128 s = total / kNanosPerSecond;
    int128 ns = total % kNanosPerSecond;
    if (ns < 0) {
        ns += kNanosPerSecond;
        s -= 1;
    }
    seconds = static_cast<std::int64_t>(s);
    nanos = static_cast<std::int32_t>(ns);
}

// Sign of (i - d) for an int64 and a double; 2 when d is NaN. Like cel-go,
// values within the int64 range compare as doubles, so the comparison is
// lossy near 2^63: 9223372036854775807 == 9223372036854775808.0.
int compare_int_double(std::int64_t i, double d) {
    if (std::isnan(d)) return 2;
    if (d < -9223372036854775808.0) return 1;
    if (d > 9223372036854775807.0) return -1;
    const auto di = static_cast<double>(i);
    return di < d ? -1 : (di > d ? 1 : 0);
}

int compare_uint_double(std::uint64_t u, double d) {
    if (std::isnan(d)) return 2;
    if (d < 0) return 1;
    if (d > 18446744073709551615.0) return -1;
    const auto du = static_cast<double>(u);
    return du < d ? -1 : (du > d ? 1 : 0);
}

template <typename T>
int sign_of_compare(const T& a, const T& b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

// -1/0/1, or 2 for unordered (NaN).
int compare_numbers(const Value& a, const Value& b) {
    using K = Value::Kind;
    switch (a.kind()) {
        case K::Int:
            if (b.kind() == K::Int) return sign_of_compare(a.as_int(), b.as_int());
            if (b.kind() == K::Uint) return a.as_int() < 0 ? -1 : sign_of_compare<std::uint64_t>(a.as_int(), b.as_uint());
            return compare_int_double(a.as_int(), b.as_double());
        case K::Uint:
            if (b.kind() == K::Uint) return sign_of_compare(a.as_uint(), b.as_uint());
            if (b.kind() == K::Int) return b.as_int() < 0 ? 1 : sign_of_compare<std::uint64_t>(a.as_uint(), b.as_int());
            return compare_uint_double(a.as_uint(), b.as_double());
        default: {
            const double d = a.as_double();
            if (b.kind() == K::Double) {
                if (std::isnan(d) || std::isnan(b.as_double())) return 2;
                return sign_of_compare(d, b.as_double());
            }
            const int r = b.kind() == K::Int ? compare_int_double(b.as_int(), d) : compare_uint_double(b.as_uint(), d);
            return r == 2 ? 2 : -r;
        }
    }
}

std::string quote_for_debug(std::string_view s, char prefix) {
    std::string out;
    if (prefix) out += prefix;
    out += '"';
    for (unsigned char c : s) {
        if (append_escape(out, static_cast<char>(c), Escapes::Json)) continue;
        if (c < 0x20 || c == 0x7F || (prefix == 'b' && c >= 0x80)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
    return out;
}

}  // namespace

Value Value::boolean(bool b) {
    Value v;
    v.kind_ = Kind::Bool;
    v.scalar_.b = b;
    return v;
}

Value Value::integer(std::int64_t i) {
    Value v;
    v.kind_ = Kind::Int;
    v.scalar_.i = i;
    return v;
}

Value Value::uinteger(std::uint64_t u) {
    Value v;
    v.kind_ = Kind::Uint;
    v.scalar_.u = u;
    return v;
}

Value Value::dbl(double d) {
    Value v;
    v.kind_ = Kind::Double;
    v.scalar_.d = d;
    return v;
}

Value Value::string(std::string s) {
    Value v;
    v.kind_ = Kind::String;
    v.ptr_ = std::make_shared<const CompactString>(s);
    return v;
}

Value Value::bytes(std::string b) {
    Value v;
    v.kind_ = Kind::Bytes;
    v.ptr_ = std::make_shared<const CompactString>(b);
    return v;
}

Value Value::type(std::string name) {
    Value v;
    v.kind_ = Kind::Type;
    v.ptr_ = std::make_shared<const CompactString>(name);
    return v;
}

Value Value::error(std::string message) {
    Value v;
    v.kind_ = Kind::Error;
    v.ptr_ = std::make_shared<const CompactString>(message);
    return v;
}

Value Value::list(ListItems items) {
    Value v;
    v.kind_ = Kind::List;
    v.ptr_ = std::make_shared<const ListItems>(std::move(items));
    return v;
}

// from_node_lazy's maps: a MapData that holds the mapping until the map is
// first read. Only documents that from_node converts without an error are
// converted this way (lazy_safe), so a lazy map never turns out invalid.
struct LazyMaps {
    static Value map(const Node& n) {
        auto data = std::make_shared<MapData>();
        data->pending = &n;
        data->source = &n;
        Value v;
        v.kind_ = Value::Kind::Map;
        v.ptr_ = std::move(data);
        return v;
    }

    // A string that refers to the node's text instead of copying it: the
    // node outlives the value (from_node_lazy's contract), and most fields a
    // policy converts are never compared or copied.
    static Value text(const CompactString& s) {
        Value v;
        v.kind_ = Value::Kind::String;
        v.ptr_ = std::shared_ptr<const void>(std::shared_ptr<const void>(), &s);  // not owning: no allocation
        return v;
    }

    static Value convert(const Node& n) {
        if (n.is_map()) return map(n);
        if (n.is_string()) return text(n.text());
        if (!n.is_seq()) return from_node(n);  // other scalars: the same conversion
        Value::ListItems items;
        items.reserve(n.items().size());
        for (const auto& item : n.items()) items.push_back(convert(item));
        return Value::list(std::move(items));
    }

    // The map's data with its entries converted. The MapData was made
    // mutable by map() and is filled once, on first read; a map is never
    // read before it is filled.
    static const MapData& resolve(const void* p) {
        const auto& d = *static_cast<const MapData*>(p);
        if (!d.pending) return d;
        auto& m = const_cast<MapData&>(d);
        const Node& n = *std::exchange(m.pending, nullptr);
        m.entries.reserve(n.entries().size());
        for (const auto& e : n.entries()) m.entries.emplace_back(text(e.key), convert(e.value));
        if (m.entries.size() > kIndexThreshold) {
            m.index = std::make_unique<MapData::Index>();
            m.index->reserve(m.entries.size());
            for (std::size_t i = 0; i < m.entries.size(); ++i) m.index->emplace(*map_key_code(m.entries[i].first), i);
        }
        return d;
    }

    // Whether `n` is at most max_depth deep (below from_node's limit, so
    // deeper documents take the eager path, which applies it) and has no
    // mapping with a repeated key (from_node's other error).
    static bool safe(const Node& n, int depth, int max_depth) {
        if (depth > max_depth) return false;
        if (n.is_seq()) {
            for (const auto& item : n.items())
                if (!safe(item, depth + 1, max_depth)) return false;
        } else if (n.is_map()) {
            const auto& es = n.entries();
            if (es.size() > kIndexThreshold) {
                std::unordered_set<std::string_view> keys;
                for (const auto& e : es)
                    if (!keys.insert(e.key).second) return false;
            } else {
                for (std::size_t i = 0; i < es.size(); ++i)
                    for (std::size_t j = 0; j < i; ++j)
                        if (es[i].key == es[j].key) return false;
            }
            for (const auto& e : es)
                if (!safe(e.value, depth + 1, max_depth)) return false;
        }
        return true;
    }
};

Value unconverted(const Value& v) {
    if (v.kind() != Value::Kind::Map) return v;
    const auto* data = static_cast<const MapData*>(v.identity());
    return data->source ? LazyMaps::map(*data->source) : v;
}

Value from_node_lazy(const Node& n) {
    // Deep documents take the eager path, which reports them as from_node does.
    constexpr int kLazyMaxDepth = 100;
    if (!LazyMaps::safe(n, 0, kLazyMaxDepth)) return from_node(n);
    return LazyMaps::convert(n);
}

Value Value::map(MapEntries entries) {
    auto data = std::make_shared<MapData>();
    const bool indexed = entries.size() > kIndexThreshold;
    std::vector<std::string> codes;
    codes.reserve(entries.size());
    for (const auto& [k, val] : entries) {
        if (k.is_error()) return k;
        if (val.is_error()) return val;
        const Kind kk = k.kind();
        if (kk != Kind::Bool && kk != Kind::Int && kk != Kind::Uint && kk != Kind::String)
            return error("unsupported key type: " + k.type_name());
        codes.push_back(*map_key_code(k));
    }
    if (indexed) {
        data->index = std::make_unique<MapData::Index>();
        data->index->reserve(entries.size());
        for (std::size_t i = 0; i < codes.size(); ++i)
            if (!data->index->emplace(codes[i], i).second)
                return error("Failed with repeated key: " + entries[i].first.debug_string());
    } else {
        for (std::size_t i = 0; i < codes.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (codes[i] == codes[j]) return error("Failed with repeated key: " + entries[i].first.debug_string());
    }
    data->entries = std::move(entries);
    Value v;
    v.kind_ = Kind::Map;
    v.ptr_ = std::move(data);
    return v;
}

Value Value::timestamp(int128 nanos_since_epoch) {
    Value v;
    v.kind_ = Kind::Timestamp;
    split_nanos(nanos_since_epoch, v.scalar_.i, v.nanos_);
    if (nanos_since_epoch < int128{kMinTimestampSeconds} * kNanosPerSecond ||
        nanos_since_epoch >= (int128{kMaxTimestampSeconds} + 1) * kNanosPerSecond)
        return error("timestamp out of range");
    return v;
}

Value Value::duration(int128 nanos) {
    if (nanos > kMaxDurationNanos || nanos < -kMaxDurationNanos - 1) return error("duration out of range");
    Value v;
    v.kind_ = Kind::Duration;
    split_nanos(nanos, v.scalar_.i, v.nanos_);
    return v;
}

Value Value::optional_none() {
    Value v;
    v.kind_ = Kind::Optional;
    return v;
}

Value Value::optional_of(Value inner) {
    Value v;
    v.kind_ = Kind::Optional;
    v.ptr_ = std::make_shared<const Value>(std::move(inner));
    return v;
}

Value Value::opaque(std::shared_ptr<const Opaque> o) {
    Value v;
    v.kind_ = Kind::Opaque;
    v.ptr_ = std::move(o);
    return v;
}

Value Value::quantity(const Quantity& q) { return opaque(std::make_shared<const QuantityValue>(q)); }

const CompactString& Value::error_message() const {
    return kind_ == Kind::Error ? *static_cast<const CompactString*>(ptr_.get()) : empty_string();
}

const CompactString& Value::as_string() const {
    if (!ptr_) return empty_string();
    return *static_cast<const CompactString*>(ptr_.get());
}

const Value::ListItems& Value::as_list() const {
    static const ListItems empty;
    if (kind_ != Kind::List) return empty;
    return *static_cast<const ListItems*>(ptr_.get());
}

const Value::MapEntries& Value::map_entries() const {
    static const MapEntries empty;
    if (kind_ != Kind::Map) return empty;
    return LazyMaps::resolve(ptr_.get()).entries;
}

namespace {

// A map key as CEL compares keys: numbers by exact value across int, uint
// and integral doubles; bools and strings by value. Allocation-free, for the
// common small-map lookups.
struct KeyView {
    enum class Type { None, Bool, Number, String } type = Type::None;
    bool b = false;
    bool negative = false;
    std::uint64_t magnitude = 0;
    std::string_view s;
};

KeyView key_view(const Value& k) {
    using K = Value::Kind;
    KeyView v;
    switch (k.kind()) {
        case K::Bool:
            v.type = KeyView::Type::Bool;
            v.b = k.as_bool();
            break;
        case K::String:
            v.type = KeyView::Type::String;
            v.s = k.as_string();
            break;
        case K::Int:
            v.type = KeyView::Type::Number;
            v.negative = k.as_int() < 0;
            v.magnitude = v.negative ? 0 - static_cast<std::uint64_t>(k.as_int()) : static_cast<std::uint64_t>(k.as_int());
            break;
        case K::Uint:
            v.type = KeyView::Type::Number;
            v.magnitude = k.as_uint();
            break;
        case K::Double: {
            const double d = k.as_double();
            if (!std::isfinite(d) || std::trunc(d) != d || d < -9223372036854775808.0 || d >= 18446744073709551616.0)
                break;
            v.type = KeyView::Type::Number;
            v.negative = d < 0;
            v.magnitude = v.negative ? 0 - static_cast<std::uint64_t>(static_cast<std::int64_t>(d)) : static_cast<std::uint64_t>(d);
            break;
        }
        default: break;
    }
    return v;
}

bool same_key(const KeyView& a, const KeyView& b) {
    if (a.type != b.type || a.type == KeyView::Type::None) return false;
    switch (a.type) {
        case KeyView::Type::Bool: return a.b == b.b;
        case KeyView::Type::Number: return a.magnitude == b.magnitude && (a.negative == b.negative || a.magnitude == 0);
        default: return a.s == b.s;
    }
}

}  // namespace

const Value* Value::map_find(const Value& key) const {
    if (kind_ != Kind::Map) return nullptr;
    const auto* data = &LazyMaps::resolve(ptr_.get());
    if (data->index) {
        const auto code = map_key_code(key);
        if (!code) return nullptr;
        auto it = data->index->find(*code);
        return it == data->index->end() ? nullptr : &data->entries[it->second].second;
    }
    const KeyView probe = key_view(key);
    if (probe.type == KeyView::Type::None) return nullptr;
    for (const auto& [k, v] : data->entries)
        if (same_key(key_view(k), probe)) return &v;
    return nullptr;
}

const Value* Value::map_find(std::string_view key) const {
    if (kind_ != Kind::Map) return nullptr;
    const auto* data = &LazyMaps::resolve(ptr_.get());
    if (data->index) {
        std::string code = "s";
        code += key;
        auto it = data->index->find(code);
        return it == data->index->end() ? nullptr : &data->entries[it->second].second;
    }
    for (const auto& [k, v] : data->entries)
        if (k.kind() == Kind::String && k.as_string() == key) return &v;
    return nullptr;
}

bool Value::optional_has_value() const { return kind_ == Kind::Optional && ptr_ != nullptr; }

const Value& Value::optional_value() const { return *static_cast<const Value*>(ptr_.get()); }

const Opaque* Value::as_opaque() const {
    return kind_ == Kind::Opaque ? static_cast<const Opaque*>(ptr_.get()) : nullptr;
}

const Quantity* Value::as_quantity() const {
    const auto* q = dynamic_cast<const QuantityValue*>(as_opaque());
    return q ? &q->quantity() : nullptr;
}

std::string Value::type_name() const {
    switch (kind_) {
        case Kind::Null: return "null_type";
        case Kind::Bool: return "bool";
        case Kind::Int: return "int";
        case Kind::Uint: return "uint";
        case Kind::Double: return "double";
        case Kind::String: return "string";
        case Kind::Bytes: return "bytes";
        case Kind::List: return "list";
        case Kind::Map: return "map";
        case Kind::Type: return "type";
        case Kind::Timestamp: return "google.protobuf.Timestamp";
        case Kind::Duration: return "google.protobuf.Duration";
        case Kind::Optional: return "optional_type";
        case Kind::Opaque: return as_opaque()->type_name();
        case Kind::Error: return "error";
    }
    return "unknown";
}

bool Value::equals(const Value& o) const {
    if (is_numeric(*this) && is_numeric(o)) return compare_numbers(*this, o) == 0;
    if (kind_ != o.kind_) return false;
    switch (kind_) {
        case Kind::Null: return true;
        case Kind::Bool: return as_bool() == o.as_bool();
        case Kind::String:
        case Kind::Bytes:
        case Kind::Type: return as_string() == o.as_string();
        case Kind::Timestamp:
        case Kind::Duration: return seconds() == o.seconds() && nanos() == o.nanos();
        case Kind::List: {
            const auto& a = as_list();
            const auto& b = o.as_list();
            if (a.size() != b.size()) return false;
            for (std::size_t i = 0; i < a.size(); ++i)
                if (!a[i].equals(b[i])) return false;
            return true;
        }
        case Kind::Map: {
            const auto& a = map_entries();
            if (a.size() != o.map_entries().size()) return false;
            for (const auto& [k, v] : a) {
                const Value* other = o.map_find(k);
                if (!other || !v.equals(*other)) return false;
            }
            return true;
        }
        case Kind::Optional:
            if (optional_has_value() != o.optional_has_value()) return false;
            return !optional_has_value() || optional_value().equals(o.optional_value());
        case Kind::Opaque: return as_opaque()->equals(*o.as_opaque());
        default: return false;
    }
}

std::string Value::debug_string() const {
    switch (kind_) {
        case Kind::Null: return "null";
        case Kind::Bool: return as_bool() ? "true" : "false";
        case Kind::Int: return std::to_string(as_int());
        case Kind::Uint: return std::to_string(as_uint()) + "u";
        case Kind::Double: {
            std::string s = format_double(as_double());
            if (s.find_first_of(".eIN") == std::string::npos) s += ".0";
            return s;
        }
        case Kind::String: return quote_for_debug(as_string(), 0);
        case Kind::Bytes: return quote_for_debug(as_string(), 'b');
        case Kind::Type: return as_string();
        case Kind::Timestamp: return "timestamp(\"" + format_timestamp(*this) + "\")";
        case Kind::Duration: return "duration(\"" + format_duration(*this) + "\")";
        case Kind::List: {
            std::string out = "[";
            bool first = true;
            for (const auto& item : as_list()) {
                if (!first) out += ", ";
                first = false;
                out += item.debug_string();
            }
            return out + "]";
        }
        case Kind::Map: {
            std::string out = "{";
            bool first = true;
            for (const auto& [k, v] : map_entries()) {
                if (!first) out += ", ";
                first = false;
                out += k.debug_string() + ": " + v.debug_string();
            }
            return out + "}";
        }
        case Kind::Optional:
            return optional_has_value() ? "optional.of(" + optional_value().debug_string() + ")" : "optional.none()";
        case Kind::Opaque: return as_opaque()->type_name() + "(\"" + as_opaque()->to_string() + "\")";
        case Kind::Error: return "error(" + error_message() + ")";
    }
    return "?";
}

std::optional<std::string> map_key_code(const Value& key) {
    using K = Value::Kind;
    switch (key.kind()) {
        case K::Bool: return std::string(key.as_bool() ? "b1" : "b0");
        case K::Int: return "n" + std::to_string(key.as_int());
        case K::Uint: return "n" + std::to_string(key.as_uint());
        case K::String: return "s" + key.as_string();
        case K::Double: {
            const double d = key.as_double();
            if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
            if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                return "n" + std::to_string(static_cast<std::int64_t>(d));
            if (d >= 0 && d < 18446744073709551616.0) return "n" + std::to_string(static_cast<std::uint64_t>(d));
            return std::nullopt;
        }
        default: return std::nullopt;
    }
}

bool is_numeric(const Value& v) {
    return v.kind() == Value::Kind::Int || v.kind() == Value::Kind::Uint || v.kind() == Value::Kind::Double;
}

Order compare(const Value& a, const Value& b) {
    using K = Value::Kind;
    auto from_sign = [](int s) {
        return s == 2 ? Order::Unordered : s < 0 ? Order::Less : s > 0 ? Order::Greater : Order::Equal;
    };
    if (is_numeric(a) && is_numeric(b)) return from_sign(compare_numbers(a, b));
    if (a.kind() != b.kind()) return Order::NoOverload;
    switch (a.kind()) {
        case K::Bool: return from_sign(sign_of_compare(a.as_bool(), b.as_bool()));
        case K::String:
        case K::Bytes: {
            const int c = a.as_string().compare(b.as_string());
            return from_sign(c < 0 ? -1 : (c > 0 ? 1 : 0));
        }
        case K::Timestamp:
        case K::Duration: return from_sign(sign_of_compare(a.total_nanos(), b.total_nanos()));
        default: return Order::NoOverload;
    }
}

std::string format_double(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
    // Shortest round-trip digits in scientific form, e.g. "1.2345e+02".
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    std::string sign;
    if (sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const auto epos = sci.find('e');
    std::string digits = sci.substr(0, epos);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::stoi(sci.substr(epos + 1));
    if (exp < -4 || exp >= 6) {
        std::string out = sign + digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        char ebuf[16];
        std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        return out + ebuf;
    }
    std::string out;
    if (exp < 0) {
        out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else if (static_cast<std::size_t>(exp) + 1 >= digits.size()) {
        out = digits + std::string(static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
    } else {
        out = digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
    }
    return sign + out;
}

std::string format_timestamp(const Value& ts) {
    const std::int64_t secs = ts.seconds();
    const std::int64_t days = civil::floor_div(secs, 86400);
    const std::int64_t rem = secs - days * 86400;
    const auto date = civil::civil_from_days(days);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", static_cast<long long>(date.year), date.month,
                  date.day, static_cast<int>(rem / 3600), static_cast<int>(rem / 60 % 60), static_cast<int>(rem % 60));
    std::string out = buf;
    if (ts.nanos() != 0) {
        std::snprintf(buf, sizeof buf, ".%09d", ts.nanos());
        std::string frac = buf;
        while (frac.back() == '0') frac.pop_back();
        out += frac;
    }
    return out + "Z";
}

std::string format_duration(const Value& d) {
    int128 total = d.total_nanos();
    std::string out;
    if (total < 0) {
        out = "-";
        total = -total;
    }
    out += std::to_string(static_cast<std::int64_t>(total / kNanosPerSecond));
    const auto frac = static_cast<int>(total % kNanosPerSecond);
    if (frac != 0) {
        char buf[16];
        std::snprintf(buf, sizeof buf, ".%09d", frac);
        std::string f = buf;
        while (f.back() == '0') f.pop_back();
        out += f;
    }
    return out + "s";
}

Value no_such_overload(std::string_view function, std::span<const Value> args) {
    std::string msg = "no such overload: ";
    msg += function;
    msg += '(';
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) msg += ", ";
        msg += args[i].type_name();
    }
    return Value::error(msg + ")");
}

bool QuantityValue::equals(const Opaque& other) const {
    const auto* o = dynamic_cast<const QuantityValue*>(&other);
    return o && o->q_ == q_;
}

}  // namespace queueforge::cel
