#include "engines/scheduler/parse_util.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace queueforge::scheduler::detail {

std::map<std::string, Quantity> Reader::resource_list(const Node* n, const char* key, const std::string& what) const {
    std::map<std::string, Quantity> out;
    const Node* m = map_at(n, key);
    if (!m) return out;
    for (const auto& e : m->entries()) {
        auto q = quantity(&e.value, what + " " + e.key);
        if (q) out[e.key] = *q;
    }
    return out;
}

std::map<std::string, std::string> Reader::string_map(const Node* n, const char* key) const {
    std::map<std::string, std::string> out;
    const Node* m = map_at(n, key);
    if (!m) return out;
    for (const auto& e : m->entries()) out[e.key] = scalar_text(&e.value);
    return out;
}

std::vector<SelectorReq> Reader::requirements(const Node* seq) const {
    std::vector<SelectorReq> out;
    if (!seq || !seq->is_seq()) return out;
    for (const auto& item : seq->items()) {
        if (!item.is_map()) continue;
        SelectorReq req;
        req.key = str_at(&item, "key");
        req.op = str_at(&item, "operator");
        if (const Node* vals = seq_at(&item, "values"))
            for (const auto& v : vals->items()) req.values.push_back(scalar_text(&v));
        out.push_back(std::move(req));
    }
    return out;
}

std::vector<Taint> Reader::taints(const Node* seq) const {
    std::vector<Taint> out;
    if (!seq) return out;
    for (const auto& item : seq->items()) {
        if (!item.is_map()) continue;
        out.push_back({str_at(&item, "key"), str_at(&item, "value"), str_at(&item, "effect"),
                       str_at(&item, "timeAdded")});
    }
    return out;
}

std::vector<Toleration> Reader::tolerations(const Node* seq) const {
    std::vector<Toleration> out;
    if (!seq) return out;
    for (const auto& item : seq->items()) {
        if (!item.is_map()) continue;
        out.push_back({str_at(&item, "key"), str_at(&item, "operator"), str_at(&item, "value"),
                       str_at(&item, "effect")});
    }
    return out;
}

namespace {

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

}  // namespace

std::optional<std::int64_t> parse_time(const std::string& s) {
    // YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)
    auto num = [&](std::size_t pos, std::size_t len) -> std::optional<int> {
        if (pos + len > s.size()) return std::nullopt;
        int v = 0;
        for (std::size_t i = pos; i < pos + len; ++i) {
            if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
            v = v * 10 + (s[i] - '0');
        }
        return v;
    };
    auto y = num(0, 4), mo = num(5, 2), d = num(8, 2), h = num(11, 2), mi = num(14, 2), se = num(17, 2);
    if (!y || !mo || !d || !h || !mi || !se || s.size() < 20 || s[4] != '-' || s[7] != '-' ||
        (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':')
        return std::nullopt;
    if (*mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 || *se > 60) return std::nullopt;
    std::size_t pos = 19;
    std::int64_t frac = 0;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        int digits = 0;
        while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
            if (digits < 9) {
                frac = frac * 10 + (s[pos] - '0');
                ++digits;
            }
            ++pos;
        }
        if (digits == 0) return std::nullopt;
        while (digits++ < 9) frac *= 10;
    }
    std::int64_t offset = 0;
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        auto oh = num(pos + 1, 2), om = num(pos + 4, 2);
        if (!oh || !om || pos + 3 >= s.size() || s[pos + 3] != ':') return std::nullopt;
        offset = (*oh * 3600 + *om * 60) * (s[pos] == '+' ? 1 : -1);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != s.size()) return std::nullopt;
    std::int64_t secs = days_from_civil(*y, static_cast<unsigned>(*mo), static_cast<unsigned>(*d)) * 86400 +
                        *h * 3600 + *mi * 60 + *se - offset;
    return secs * 1000000000LL + frac;
}

std::int64_t resource_value(const std::string& resource, const Quantity& q) {
    return resource == "cpu" ? q.milli_value() : q.value();
}

double quantity_to_double(const Quantity& q) { return static_cast<double>(q.nanos()) / 1e9; }

std::string suggestion(const std::string& name, std::vector<std::string> candidates) {
    std::sort(candidates.begin(), candidates.end());  // ties resolve the same way every run
    std::string best = did_you_mean(name, candidates);
    return best.empty() || best == name ? std::string() : "; did you mean \"" + best + "\"?";
}

std::vector<std::string> cluster_queue_names(const Model& m) {
    std::vector<std::string> out;
    for (const auto& cq : m.cqs) out.push_back(cq.name);
    return out;
}

std::vector<std::string> local_queue_names(const Model& m, const std::string& ns) {
    std::vector<std::string> out;
    for (const auto& lq : m.lqs)
        if (lq.ns == ns) out.push_back(lq.name);
    return out;
}

}  // namespace queueforge::scheduler::detail
