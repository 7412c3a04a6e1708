// cel-go's math extension (not in Kubernetes' base environment).
#include "cel/functions.hpp"

namespace queueforge::cel {

void register_math_ext(Registry&) {}

}  // namespace queueforge::cel
