// TZif (RFC 8536) reading. Only the transition table is used: Debian ships
// "fat" files whose tables run to 2037; later instants keep the offset of
// the last transition rather than applying the file's POSIX TZ footer.
#include "checks/cel/timezone.hpp"

#include <fstream>
#include <iterator>
#include <vector>

namespace queueforge::cel {
namespace {

std::int64_t read_be(const std::string& d, std::size_t pos, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(d[pos + static_cast<std::size_t>(i)]);
    if (bytes == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> fixed_offset(const std::string& zone) {
    std::size_t i = 0;
    int sign = 1;
    if (zone[0] == '+' || zone[0] == '-') {
        sign = zone[0] == '-' ? -1 : 1;
        i = 1;
    }
    const std::string rest = zone.substr(i);
    if (rest.size() != 5 || rest[2] != ':') return std::nullopt;
    for (std::size_t k : {0, 1, 3, 4})
        if (rest[k] < '0' || rest[k] > '9') return std::nullopt;
    const int hours = (rest[0] - '0') * 10 + (rest[1] - '0');
    const int minutes = (rest[3] - '0') * 10 + (rest[4] - '0');
    if (hours > 23 || minutes > 59) return std::nullopt;
    return sign * (hours * 3600 + minutes * 60);
}

bool safe_zone_name(const std::string& name) {
    if (name.empty() || name.size() > 64 || name[0] == '/' || name.find("..") != std::string::npos) return false;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                        c == '_' || c == '-' || c == '+';
        if (!ok) return false;
    }
    return true;
}

std::optional<std::int64_t> tzif_offset(const std::string& data, std::int64_t t) {
    if (data.size() < 44 || data.compare(0, 4, "TZif") != 0) return std::nullopt;
    const char version = data[4];
    std::size_t pos = 0;
    int time_size = 4;
    auto counts_at = [&](std::size_t p, std::int64_t c[6]) {
        if (p + 44 > data.size()) return false;
        for (int i = 0; i < 6; ++i) c[i] = read_be(data, p + 20 + static_cast<std::size_t>(i) * 4, 4);
        return true;
    };
    std::int64_t c[6];
    if (!counts_at(0, c)) return std::nullopt;
    if (version >= '2') {
        // Skip the 32-bit block to the 64-bit one.
        const std::size_t v1 = 44 + static_cast<std::size_t>(c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]);
        if (!counts_at(v1, c)) return std::nullopt;
        pos = v1 + 44;
        time_size = 8;
    } else {
        pos = 44;
    }
    const auto timecnt = static_cast<std::size_t>(c[3]);
    const auto typecnt = static_cast<std::size_t>(c[4]);
    const std::size_t times = pos;
    const std::size_t indices = times + timecnt * static_cast<std::size_t>(time_size);
    const std::size_t types = indices + timecnt;
    if (typecnt == 0 || types + typecnt * 6 > data.size()) return std::nullopt;
    std::size_t type = 0;
    for (std::size_t i = 0; i < timecnt; ++i) {
        if (read_be(data, times + i * static_cast<std::size_t>(time_size), time_size) > t) break;
        type = static_cast<unsigned char>(data[indices + i]);
    }
    if (type >= typecnt) return std::nullopt;
    return read_be(data, types + type * 6, 4);
}

}  // namespace

std::optional<std::int64_t> zone_offset(const std::string& zone, std::int64_t utc_seconds, std::string& error) {
    if (zone.empty()) {
        error = "empty time zone";
        return std::nullopt;
    }
    if (zone == "UTC" || zone == "Z") return 0;
    if (zone.find(':') != std::string::npos) {
        auto off = fixed_offset(zone);
        if (!off) error = "invalid time zone offset '" + zone + "'";
        return off;
    }
    if (!safe_zone_name(zone)) {
        error = "invalid time zone '" + zone + "'";
        return std::nullopt;
    }
    std::ifstream in("/usr/share/zoneinfo/" + zone, std::ios::binary);
    std::string data;
    if (in) data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    auto off = tzif_offset(data, utc_seconds);
    if (!off) error = "unknown time zone '" + zone + "'";
    return off;
}

}  // namespace queueforge::cel
