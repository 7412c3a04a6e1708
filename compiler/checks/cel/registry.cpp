#include "checks/cel/functions.hpp"

#include "checks/cel/values.hpp"

namespace queueforge::cel {

void Registry::add(std::string_view name, FnImpl impl) {
    auto& fn = functions_[std::string(name)];
    fn.name = std::string(name);
    fn.overloads.push_back(impl);
}

const Function* Registry::find(std::string_view name) const {
    auto it = functions_.find(std::string(name));
    return it == functions_.end() ? nullptr : &it->second;
}

const Registry& standard_registry() {
    static const Registry registry = [] {
        Registry r;
        register_operators(r);
        register_strings(r);
        register_string_ext(r);
        register_format(r);
        register_conversions(r);
        register_time(r);
        register_optional(r);
        register_regex(r);
        register_k8s_lists(r);
        register_quantity(r);
        register_network(r);
        register_math_ext(r);
        register_encoders(r);
        register_sets(r);
        return r;
    }();
    return registry;
}

Value call_function(EvalContext& ctx, const Function& fn, std::span<const Value> args) {
    for (FnImpl impl : fn.overloads) {
        Result r = impl(ctx, args);
        if (r) return std::move(*r);
    }
    return no_such_overload(fn.name, args);
}

}  // namespace queueforge::cel
