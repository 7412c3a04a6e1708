#pragma once
// Time zones for the timestamp accessors: "UTC", fixed offsets ("+05:30",
// "-02:00", "02:00") and IANA names read from the system's zoneinfo files.
#include <cstdint>
#include <optional>
#include <string>

namespace queueforge::cel {

// The UTC offset in seconds of `zone` at the instant `utc_seconds`, or
// nullopt (with `error` set) for an unknown or malformed zone.
std::optional<std::int64_t> zone_offset(const std::string& zone, std::int64_t utc_seconds, std::string& error);

}  // namespace queueforge::cel
