#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as lower-case hex: what Go's
// fmt.Sprintf("%x", sha256.Sum256(b)) prints.
#include <string>
#include <string_view>

namespace queueforge {

std::string sha256_hex(std::string_view bytes);

}  // namespace queueforge
