#pragma once
// The simulator's view of the model's amount type (model/amount.hpp) and a
// small sorted map keyed by interned ids.
#include <queueforge/model/amount.hpp>
#include <queueforge/model/flat_map.hpp>


namespace queueforge::scheduler::detail {

using model::Amount;
using model::kUnlimited;
using model::kMinAmount;
using model::sat_add;
using model::sat_sub;
using model::sat_mul;
using model::amt_add;
using model::amt_add_int;
using model::amt_sub;

using model::FlatMap;

}  // namespace queueforge::scheduler::detail
