// `diff -o json`: the Review as a stable document (README, "diff").
#include <queueforge/review.hpp>

#include <nlohmann/json.hpp>

namespace queueforge::review {

namespace {
using json = nlohmann::ordered_json;
json opt(const std::string& v) { return v.empty() ? json(nullptr) : json(v); }
}  // namespace

std::string render_json(const Review& r) {
    json objects = json::array();
    for (const auto& c : r.objects) {
        json fields = json::array();
        for (const auto& f : c.fields) fields.push_back({{"path", f.path}, {"before", opt(f.before)}, {"after", opt(f.after)}});
        objects.push_back({{"kind", c.kind}, {"namespace", opt(c.namespace_)}, {"name", c.name}, {"change", c.change}, {"fields", fields}});
    }
    json quotas = json::array();
    for (const auto& q : r.quotas)
        quotas.push_back({{"clusterQueue", q.cluster_queue}, {"flavor", q.flavor}, {"resource", q.resource},
                          {"field", q.field}, {"before", opt(q.before)}, {"after", opt(q.after)}});
    json admissions = json::array();
    for (const auto& a : r.admissions)
        admissions.push_back({{"namespace", a.namespace_}, {"name", a.name}, {"running", a.running},
                              {"before", a.before}, {"after", a.after}, {"impact", opt(a.impact)}});
    json blocked = json::array();
    for (const auto& b : r.blocked) blocked.push_back({{"kind", b.kind}, {"name", b.name}, {"usedBy", b.used_by}});
    json out = {{"apiVersion", "queueforge.io/v1alpha1"}, {"kind", "Review"}, {"base", r.base}, {"head", r.head},
                {"objects", objects}, {"quotas", quotas}, {"simulated", r.simulated},
                {"admissions", admissions}, {"blockedDeletions", blocked}};
    return out.dump(2) + "\n";
}

}  // namespace queueforge::review
