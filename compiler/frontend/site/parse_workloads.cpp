#include "frontend/site/parse_parts.hpp"

namespace queueforge::site {

namespace {

bool read_pod_set(const Reader& r, const Node& n, const std::string& what, PodSet& p) {
    if (!r.expect_map(n, what, {"name", "count", "minCount", "requests", "nodeSelector", "tolerations", "topology"}))
        return false;
    p.mark = n.mark();
    r.read_name(n.find("name"), what + ".name", p.name);
    r.read_int(n.find("count"), what + ".count", p.count, 0, INT32_MAX);
    r.read_int(n.find("minCount"), what + ".minCount", p.min_count, 1, INT32_MAX);
    if (p.count && p.min_count && p.min_count->value > p.count->value)
        r.error(p.min_count->mark, what + ".minCount: minCount should be positive and less or equal to count", "V61");
    r.read_amounts(n.find("requests"), what + ".requests", p.requests, false);
    r.read_string_map(n.find("nodeSelector"), what + ".nodeSelector", p.node_selector);
    read_tolerations(r, n.find("tolerations"), what + ".tolerations", p.tolerations);
    if (const Node* t = n.find("topology")) {
        const std::string tw = what + ".topology";
        if (r.expect_map(*t, tw, {"required", "preferred", "unconstrained", "sliceRequired", "sliceSize", "groupName"})) {
            PodSet::Topology x;
            x.mark = t->mark();
            r.read_text(t->find("required"), tw + ".required", x.required);
            r.read_text(t->find("preferred"), tw + ".preferred", x.preferred);
            r.read_bool(t->find("unconstrained"), tw + ".unconstrained", x.unconstrained);
            r.read_text(t->find("sliceRequired"), tw + ".sliceRequired", x.slice_required);
            r.read_int(t->find("sliceSize"), tw + ".sliceSize", x.slice_size, 1, INT32_MAX);
            r.read_text(t->find("groupName"), tw + ".groupName", x.group_name);
            p.topology = std::move(x);
        }
    }
    return true;
}

}  // namespace

bool read_workload(const Reader& r, const Node& n, const std::string& what, Workload& w) {
    if (!r.expect_map(n, what, {"name", "namespace", "queue", "priorityClass", "file", "podSets", "expect"}))
        return false;
    w.mark = n.mark();
    r.require(n, "name", what);
    r.read_name(n.find("name"), what + ".name", w.name);
    r.read_name(n.find("namespace"), what + ".namespace", w.namespace_);
    r.read_name(n.find("queue"), what + ".queue", w.queue);
    r.read_name(n.find("priorityClass"), what + ".priorityClass", w.priority_class);
    r.read_text(n.find("file"), what + ".file", w.file);
    if (const Node* ps = n.find("podSets"); ps && r.expect_seq(*ps, what + ".podSets")) {
        for (std::size_t i = 0; i < ps->items().size(); ++i) {
            PodSet p;
            if (read_pod_set(r, ps->items()[i], what + ".podSets[" + std::to_string(i) + "]", p))
                w.pod_sets.push_back(std::move(p));
        }
    }
    if (w.file.value.empty() == w.pod_sets.empty())
        r.error(n.mark(), what + ": give either file (a job manifest) or podSets", "site.workload");
    if (const Node* e = n.find("expect")) {
        std::string ew = what + ".expect";
        if (r.expect_map(*e, ew, {"status", "flavor", "borrowing"})) {
            Expectation x;
            x.mark = e->mark();
            r.read_enum(e->find("status"), ew + ".status", x.status, {"Admitted", "Pending"});
            r.read_name(e->find("flavor"), ew + ".flavor", x.flavor);
            r.read_bool(e->find("borrowing"), ew + ".borrowing", x.borrowing);
            w.expect = std::move(x);
        }
    }
    return !w.name.value.empty();
}

}  // namespace queueforge::site
