// Kubernetes' IP and CIDR libraries.
#include "cel/functions.hpp"

namespace queueforge::cel {

void register_network(Registry&) {}

}  // namespace queueforge::cel
