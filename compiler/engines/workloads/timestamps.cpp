// Assigned creationTimestamps: Kueue orders a queue by creation time, so the
// simulator needs one for every Workload; these are whole seconds after an
// epoch, in the RFC 3339 form the API server writes ("2026-01-01T00:00:00Z").
#include <queueforge/engines/workloads.hpp>

#include <chrono>
#include <cstdio>

namespace queueforge::workloads {

namespace {

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
    out = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (i >= s.size() || s[i] < '0' || s[i] > '9') return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

}  // namespace

std::optional<std::string> timestamp_plus(std::string_view epoch, std::int64_t seconds) {
    using namespace std::chrono;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (epoch.size() != 20 || epoch[4] != '-' || epoch[7] != '-' || epoch[10] != 'T' || epoch[13] != ':' ||
        epoch[16] != ':' || epoch[19] != 'Z' || !digits(epoch, 0, 4, y) || !digits(epoch, 5, 2, mo) ||
        !digits(epoch, 8, 2, d) || !digits(epoch, 11, 2, h) || !digits(epoch, 14, 2, mi) || !digits(epoch, 17, 2, s))
        return std::nullopt;
    const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
    if (!ymd.ok() || h > 23 || mi > 59 || s > 59) return std::nullopt;
    const sys_seconds t = sys_days{ymd} + hours{h} + minutes{mi} + std::chrono::seconds{s} + std::chrono::seconds{seconds};
    const auto day_start = floor<days>(t);
    const year_month_day out{day_start};
    const hh_mm_ss<std::chrono::seconds> tod{t - day_start};
    if (int(out.year()) < 0 || int(out.year()) > 9999) return std::nullopt;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(out.year()), unsigned(out.month()), unsigned(out.day()),
                  int(tod.hours().count()), int(tod.minutes().count()), int(tod.seconds().count()));
    return std::string(buf);
}

}  // namespace queueforge::workloads
