#include "engines/scheduler/format.hpp"

#include <queueforge/base/quantity.hpp>

namespace queueforge::scheduler::detail {

std::string format_quantity(const std::string& resource, std::int64_t v) {
    if (resource == "cpu") return Quantity::from_milli(v, Quantity::Format::DecimalSI).to_string();
    if (resource == "memory" || resource == "ephemeral-storage" || resource.rfind("hugepages-", 0) == 0) {
        // newCanonicalQuantity: print as BinarySI, parse that, print again.
        std::string first = Quantity::from_int(v, Quantity::Format::BinarySI).to_string();
        auto again = Quantity::parse(first);
        return again ? again->to_string() : first;
    }
    return Quantity::from_int(v, Quantity::Format::DecimalSI).to_string();
}

std::string format_amount(const std::string& resource, Amount a) {
    if (a == kUnlimited) return "<unlimited>";
    return format_quantity(resource, a);
}

}  // namespace queueforge::scheduler::detail
