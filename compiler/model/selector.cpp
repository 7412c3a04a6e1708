// The shared matcher core (model/selector.hpp). Sources: apimachinery
// pkg/labels/selector.go Requirement.Matches; component-helpers
// scheduling/corev1/nodeaffinity (Gt/Lt); api core/v1 toleration.go
// ToleratesTaint.
#include <queueforge/model/selector.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace queueforge::model {

namespace {

// Go's strconv.ParseInt(s, 10, 64): an optional sign ('+' too), digits only.
std::optional<std::int64_t> to_int64(const std::string& s) {
    std::int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+' && e - b > 1 && b[1] != '-') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e) return std::nullopt;
    return v;
}

}  // namespace

std::optional<bool> requirement_matches(std::string_view key, std::string_view op,
                                        const std::vector<std::string>& values, const Labels& labels, Operators ops) {
    auto it = labels.find(std::string(key));
    const bool has = it != labels.end();
    auto listed = [&] { return has && std::find(values.begin(), values.end(), it->second) != values.end(); };
    if (op == "In") return listed();
    if (op == "NotIn") return !listed();
    if (op == "Exists") return has;
    if (op == "DoesNotExist") return !has;
    if (ops == Operators::NodeSelector && (op == "Gt" || op == "Lt")) {
        if (!has || values.size() != 1) return false;
        auto lv = to_int64(it->second), rv = to_int64(values[0]);
        if (!lv || !rv) return false;
        return op == "Gt" ? *lv > *rv : *lv < *rv;
    }
    return std::nullopt;
}

bool label_matches(const std::string& key, const std::string& value, const Labels& labels) {
    auto it = labels.find(key);
    return it != labels.end() && it->second == value;
}

bool tolerates(const Toleration& t, const Taint& taint) {
    if (!t.effect.empty() && t.effect != taint.effect) return false;
    if (!t.key.empty() && t.key != taint.key) return false;
    if (t.op == "Exists") return true;
    if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
    return false;
}

}  // namespace queueforge::model
