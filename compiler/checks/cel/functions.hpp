#pragma once
// The function registry and the per-evaluation context that functions see.
// A function name maps to overload implementations tried in order; an
// implementation returns nullopt when the arguments are not its types, and
// when none matches the call fails with "no such overload". Receiver calls
// (x.f(y)) pass the receiver as the first argument.
#include <queueforge/checks/cel.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace queueforge::cel {

struct Expr;

struct EvalContext {
    explicit EvalContext(const Activation& act, std::uint64_t cost_limit, const KindIndex* kinds = nullptr)
        : activation(act), limit(cost_limit), kind_index(kinds) {}

    const Activation& activation;
    std::uint64_t cost = 0;
    std::uint64_t limit;
    bool exhausted = false;
    const KindIndex* kind_index;  // EvalOptions::kind_index
    // The call being evaluated, for functions that use what the resolver
    // precomputed on it (constant regular expressions).
    const Expr* call = nullptr;
    // Comprehension and cel.bind variables, innermost last.
    std::vector<std::pair<const std::string*, Value>> locals;

    // Adds to the cost; false once the budget is spent.
    bool charge(std::uint64_t units) {
        cost += units;
        if (cost > limit) exhausted = true;
        return !exhausted;
    }
    static Value cost_error() { return Value::error("cost limit exceeded"); }
};

using Result = std::optional<Value>;
using FnImpl = Result (*)(EvalContext& ctx, std::span<const Value> args);

struct Function {
    std::string name;
    std::vector<FnImpl> overloads;
};

class Registry {
public:
    void add(std::string_view name, FnImpl impl);
    const Function* find(std::string_view name) const;

private:
    std::unordered_map<std::string, Function> functions_;
};

// The full standard environment, built once and immutable afterwards.
const Registry& standard_registry();

Value call_function(EvalContext& ctx, const Function& fn, std::span<const Value> args);

// Libraries, one per file.
void register_operators(Registry& r);    // stdlib_operators.cpp
void register_strings(Registry& r);      // stdlib_strings.cpp
void register_string_ext(Registry& r);   // stdlib_string_ext.cpp
void register_format(Registry& r);       // stdlib_format.cpp
void register_conversions(Registry& r);  // stdlib_conversions.cpp
void register_time(Registry& r);         // stdlib_time.cpp
void register_optional(Registry& r);     // stdlib_optional.cpp
void register_regex(Registry& r);        // k8s_regex.cpp
void register_k8s_lists(Registry& r);    // k8s_lists.cpp
void register_quantity(Registry& r);     // k8s_quantity.cpp
void register_network(Registry& r);      // k8s_net.cpp
void register_math_ext(Registry& r);     // ext_math.cpp
void register_encoders(Registry& r);     // ext_encoders.cpp
void register_sets(Registry& r);         // ext_sets.cpp

// Small helpers for implementations.
inline bool is(const Value& v, Value::Kind k) { return v.kind() == k; }
inline bool arity(std::span<const Value> args, std::size_t n) { return args.size() == n; }

}  // namespace queueforge::cel
