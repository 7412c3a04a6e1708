// `diff -o json`: the Review as a stable document (README, "diff"). Over
// several sites, every entry names its site, and `sites` lists each site's
// change.
#include <queueforge/integrations/diff.hpp>

#include <nlohmann/json.hpp>

namespace queueforge::diff {

namespace {

using json = nlohmann::ordered_json;
json opt(const std::string& v) { return v.empty() ? json(nullptr) : json(v); }

struct Arrays {
    json objects = json::array(), quotas = json::array(), admissions = json::array(), blocked = json::array(),
         below = json::array();
};

// The entries of one site's review; `site` is left out when empty (the
// single-site document of earlier releases).
void add(const Review& r, const std::string& site, Arrays& out) {
    auto with_site = [&](json j) {
        if (site.empty()) return j;
        json s = {{"site", site}};
        s.update(j);
        return s;
    };
    for (const auto& c : r.objects) {
        json fields = json::array();
        for (const auto& f : c.fields) fields.push_back({{"path", f.path}, {"before", opt(f.before)}, {"after", opt(f.after)}});
        out.objects.push_back(with_site(
            {{"kind", c.kind}, {"namespace", opt(c.namespace_)}, {"name", c.name}, {"change", c.change}, {"fields", fields}}));
    }
    for (const auto& q : r.quotas)
        out.quotas.push_back(with_site({{"clusterQueue", q.cluster_queue}, {"flavor", q.flavor}, {"resource", q.resource},
                                        {"field", q.field}, {"before", opt(q.before)}, {"after", opt(q.after)}}));
    for (const auto& a : r.admissions)
        out.admissions.push_back(with_site({{"namespace", a.namespace_}, {"name", a.name}, {"running", a.running},
                                            {"before", a.before}, {"after", a.after}, {"impact", opt(a.impact)},
                                            {"regression", a.regression}}));
    for (const auto& b : r.blocked)
        out.blocked.push_back(with_site({{"kind", b.kind}, {"name", b.name}, {"usedBy", b.used_by}}));
    for (const auto& u : r.below_usage)
        out.below.push_back(with_site({{"clusterQueue", u.cluster_queue}, {"flavor", u.flavor}, {"resource", u.resource},
                                       {"nominalQuota", u.quota}, {"usage", u.usage}, {"usedBy", u.workloads}}));
}

}  // namespace

std::string render_json(const Review& r) {
    Arrays a;
    add(r, "", a);
    json out = {{"apiVersion", "queueforge.io/v1alpha1"}, {"kind", "Review"}, {"base", r.base}, {"head", r.head},
                {"objects", a.objects}, {"quotas", a.quotas}, {"simulated", r.simulated},
                {"admissions", a.admissions}, {"blockedDeletions", a.blocked}, {"quotaBelowUsage", a.below}};
    return out.dump(2) + "\n";
}

std::string render_json(const MultiReview& r) {
    Arrays a;
    json sites = json::array();
    bool simulated = false;
    for (const auto& s : r.sites) {
        add(s.review, s.site, a);
        simulated = simulated || s.review.simulated;
        std::size_t regressions = 0;
        for (const auto& c : s.review.admissions) regressions += c.regression ? 1 : 0;
        sites.push_back({{"site", s.site}, {"change", s.change}, {"renamedFrom", opt(s.renamed_from)},
                         {"objectsChanged", s.review.objects.size()}, {"admissionRegressions", regressions},
                         {"simulated", s.review.simulated}});
    }
    json out = {{"apiVersion", "queueforge.io/v1alpha1"}, {"kind", "Review"}, {"base", r.base}, {"head", r.head},
                {"sites", sites}, {"objects", a.objects}, {"quotas", a.quotas}, {"simulated", simulated},
                {"admissions", a.admissions},
                {"blockedDeletions", a.blocked}, {"quotaBelowUsage", a.below}};
    for (const auto& kind : fail_on_kinds()) out["found"][kind] = has(r, kind);
    return out.dump(2) + "\n";
}

}  // namespace queueforge::diff
