#pragma once
// Kueue's ResourceFormatter (pkg/resources/resource_formatter.go): int64
// amounts back to canonical quantity strings, kueue-semantics.md 3.5.
#include "engines/scheduler/amount.hpp"

#include <string>

namespace queueforge::scheduler::detail {

// ResourceQuantityString: cpu as milli DecimalSI; memory, ephemeral-storage
// and hugepages-* as canonical BinarySI; everything else DecimalSI.
std::string format_quantity(const std::string& resource, std::int64_t v);
// AmountQuantityString: Unlimited prints as "<unlimited>".
std::string format_amount(const std::string& resource, Amount a);

}  // namespace queueforge::scheduler::detail
