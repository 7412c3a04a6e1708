#pragma once
// An embedded CEL (Common Expression Language) engine: the language of
// Kubernetes x-kubernetes-validations rules and ValidatingAdmissionPolicy
// expressions. It parses and evaluates dynamically (there is no type
// checker), with CEL's runtime semantics: errors are values, `&&`/`||` absorb
// errors commutatively, numbers compare across int/uint/double, arithmetic
// is checked. Kubernetes' libraries (strings ext, lists, regex, quantity,
// optionals, IP/CIDR) are built in. Every evaluation runs under a cost
// budget, so no input makes it hang, and parsing bounds nesting, so no input
// overflows the stack.
//
// Values are immutable and cheap to copy: strings, lists and maps share
// their payload.
#include <queueforge/base/node.hpp>
#include <queueforge/base/quantity.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace queueforge::cel {

class Value;
struct MapData;

// A value of an extension type (net.IP, net.CIDR, kubernetes.Quantity, ...).
class Opaque {
public:
    virtual ~Opaque() = default;
    virtual std::string type_name() const = 0;
    virtual bool equals(const Opaque& other) const = 0;
    // The spelling string() gives, e.g. "192.168.0.1".
    virtual std::string to_string() const = 0;
};

class Value {
public:
    enum class Kind : std::uint8_t {
        Null, Bool, Int, Uint, Double, String, Bytes, List, Map, Type,
        Timestamp, Duration, Optional, Opaque, Error,
    };
    using ListItems = std::vector<Value>;
    using MapEntries = std::vector<std::pair<Value, Value>>;

    // Timestamps range over 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999999Z.
    // Durations are limited to int64 nanoseconds (about +-292 years), as in
    // cel-go, whose conformance tests expect the difference of two distant
    // timestamps to be a range error, although protobuf allows 10000 years.
    static constexpr std::int64_t kMinTimestampSeconds = -62135596800;
    static constexpr std::int64_t kMaxTimestampSeconds = 253402300799;
    static constexpr std::int64_t kMaxDurationNanos = 9223372036854775807;

    Value() noexcept : kind_(Kind::Null) {}  // null

    static Value null() { return Value(); }
    static Value boolean(bool b);
    static Value integer(std::int64_t i);
    static Value uinteger(std::uint64_t u);
    static Value dbl(double d);
    static Value string(std::string s);  // caller guarantees UTF-8
    static Value bytes(std::string b);
    static Value list(ListItems items);
    // Keys must be bool, int, uint or string and distinct (1 and 1u are the
    // same key); otherwise the result is an error value.
    static Value map(MapEntries entries);
    static Value type(std::string name);
    // Out-of-range results are error values.
    static Value timestamp(int128 nanos_since_epoch);
    static Value duration(int128 nanos);
    static Value optional_none();
    static Value optional_of(Value v);
    static Value opaque(std::shared_ptr<const Opaque> o);
    static Value quantity(const Quantity& q);
    static Value error(std::string message);

    Kind kind() const { return kind_; }
    bool is_error() const { return kind_ == Kind::Error; }
    bool is_null() const { return kind_ == Kind::Null; }
    // The message of an error value; empty for other values.
    const CompactString& error_message() const;
    // CEL type name: "int", "list", "google.protobuf.Timestamp", "net.IP", ...
    std::string type_name() const;

    // Accessors; each requires the matching kind.
    bool as_bool() const { return scalar_.b; }
    std::int64_t as_int() const { return scalar_.i; }
    std::uint64_t as_uint() const { return scalar_.u; }
    double as_double() const { return scalar_.d; }
    // String, Bytes, Type (its name) and Error (its message).
    const CompactString& as_string() const;
    const ListItems& as_list() const;
    const MapEntries& map_entries() const;
    // Key lookup with CEL's numeric key equivalence (1 == 1u == 1.0);
    // nullptr when absent or when this is not a map.
    const Value* map_find(const Value& key) const;
    const Value* map_find(std::string_view string_key) const;
    // Timestamps and durations: whole seconds (floored) and nanos in [0, 1e9).
    std::int64_t seconds() const { return scalar_.i; }
    std::int32_t nanos() const { return nanos_; }
    int128 total_nanos() const { return int128{scalar_.i} * 1000000000 + nanos_; }
    bool optional_has_value() const;
    const Value& optional_value() const;  // requires optional_has_value()
    const Opaque* as_opaque() const;
    // The quantity held by a kubernetes.Quantity value, else nullptr.
    const Quantity* as_quantity() const;

    // The shared data this value refers to: copies of a list or map have
    // the same identity (KindIndex).
    const void* identity() const { return ptr_.get(); }

    // CEL `==` for values that are not errors (errors compare unequal).
    bool equals(const Value& other) const;
    // A readable spelling for messages and tests: 1, 2u, 1.5, "s", b"\x01",
    // [1, 2], {"k": v}, timestamp("..."), duration("1s"), optional.of(1), ...
    std::string debug_string() const;

private:
    Kind kind_;
    std::int32_t nanos_ = 0;
    union {
        bool b;
        std::int64_t i;
        std::uint64_t u;
        double d;
    } scalar_{.i = 0};
    // String/bytes/type/error text, list items, map data, optional payload
    // or opaque object, depending on kind_.
    std::shared_ptr<const void> ptr_;

    friend struct LazyMaps;  // from_node_lazy's maps (value.cpp)
};

// Variables by name. Qualified names ("x.y") are allowed and resolve the way
// CEL containers and qualified identifiers do.
using Activation = std::map<std::string, Value, std::less<>>;

struct ParseError {
    int line = 1;    // 1-based
    int column = 1;  // 1-based, in code points
    std::string message;
    std::string to_string() const;  // "1:4: Syntax error: ..."
};

struct Options {
    // Container for name resolution (namespace.yaml): in container "a.b",
    // the name `y` resolves to a.b.y, a.y or y, the first that is bound.
    std::string container;
    std::size_t max_expression_bytes = 100 * 1024;
    // Nesting of parentheses, brackets, calls and ternaries; operator chains
    // (a + b + ...) may be four times as deep. Parsing and evaluating the
    // deepest expression these defaults admit takes up to about 512 KB of
    // stack; lower the limit for threads with smaller stacks.
    int max_nesting_depth = 250;
};

// The elements of one list grouped by the string in their `kind` field (the
// objects a policy reads as `objects`). A comprehension over that list whose
// predicate requires `x.kind == 'K'` -- a conjunct of a filter, exists or
// exists_one predicate, or of map's filter -- visits only the elements of
// kind K and those whose kind is not a string (`other`): for every other
// element the predicate is false whatever else it says, as CEL's `&&` is
// false when one side is. The result is the same; the work is the kind's.
struct KindIndex {
    const void* list = nullptr;  // Value::identity() of the list
    std::unordered_map<std::string, std::vector<std::uint32_t>> by_kind;  // ascending positions
    std::vector<std::uint32_t> other;                                      // ascending positions
};

struct EvalOptions {
    // Abstract cost units: one per evaluated node plus per-element/per-byte
    // charges of string, list, regex and comprehension work (about one unit
    // per 10 bytes produced or scanned). Exceeding it yields the error
    // "cost limit exceeded". The default matches Kubernetes' per-expression
    // limit in size, though cel-go's units differ from these.
    std::uint64_t cost_limit = 1'000'000;
    const KindIndex* kind_index = nullptr;  // must index a list the expression can reach unchanged
};

struct EvalStats {
    std::uint64_t cost = 0;
};

struct ProgramData;

class Program {
public:
    explicit Program(std::shared_ptr<const ProgramData> data) : data_(std::move(data)) {}
    // Never throws; failures are error values.
    Value eval(const Activation& activation, const EvalOptions& options = {}, EvalStats* stats = nullptr) const;
    const std::string& source() const;

private:
    std::shared_ptr<const ProgramData> data_;
};

std::variant<Program, ParseError> compile(std::string_view expression, const Options& options = {});

// Documents as CEL values, e.g. a Kubernetes object bound as `self` or
// `object`. JSON integers become int (uint when above int64), floats double.
Value from_json(const nlohmann::json& j);
Value from_json(const nlohmann::ordered_json& j);
// YAML nodes: Int scalars become int (uint or double when they do not fit),
// Float double (".inf", ".nan" included), Bool bool, Null null, String
// string, Seq list, Map map with string keys.
Value from_node(const Node& n);
// The same value, converted on demand: each YAML mapping becomes a map whose
// entries are converted when the map is first read (its nested mappings in
// turn), so a policy that reads a few fields of many objects converts only
// those. Observably the same as from_node (equality, order, errors: a
// document that from_node turns into an error is converted eagerly). The
// node must outlive the value and every value taken from it; a lazy value
// must not be read from two threads at once.
Value from_node_lazy(const Node& n);
// A value of from_node_lazy as it was made, with nothing converted yet: what
// evaluations converted in `v` is not shared with the copy, so it is freed
// with `v` (one allocation; no walk of the document). Other values are
// returned as they are.
Value unconverted(const Value& v);

}  // namespace queueforge::cel
