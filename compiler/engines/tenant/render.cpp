// `queues -o text|json`: the tenant view as aligned blocks or one JSON
// document (shape in tenant.hpp).
#include <queueforge/engines/tenant.hpp>

#include <queueforge/base/text.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace queueforge::tenant {

namespace {

using json = nlohmann::ordered_json;

std::vector<std::string> table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> w;
    for (const auto& r : rows) {
        if (w.size() < r.size()) w.resize(r.size(), 0);
        for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    }
    std::vector<std::string> out;
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i) {
            line += r[i];
            if (i + 1 < r.size()) line.append(w[i] - r[i].size() + 2, ' ');
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out.push_back(std::move(line));
    }
    return out;
}

std::string header(const Queue& q) {
    std::string h = q.kind + " " + (q.kind == "LocalQueue" ? q.name : q.namespace_ + "/" + q.name);
    if (!q.display_name.empty()) h += " (" + go_quote(q.display_name) + ")";
    if (q.kind == "HardwareProfile") h += "  ->  LocalQueue " + (q.local_queue.empty() ? "-" : q.local_queue);
    if (!q.cluster_queue.empty()) h += "  ->  ClusterQueue " + q.cluster_queue;
    if (!q.cohort.empty()) h += ", cohort " + q.cohort;
    if (!q.priority_class.empty()) h += ", priority " + q.priority_class;
    return h;
}

std::string range(const Identifier& id) {
    std::string s = id.identifier + " " + (id.min.empty() ? "?" : id.min) + ".." + (id.max.empty() ? "?" : id.max);
    if (!id.default_.empty()) s += " (default " + id.default_ + ")";
    return s;
}

std::string block(const Queue& q) {
    std::string out = header(q) + "\n";
    if (!q.usable) out += "  NOT USABLE: " + q.problem + "\n";
    if (!q.identifiers.empty()) {
        std::vector<std::string> ids;
        for (const auto& id : q.identifiers) ids.push_back(range(id));
        out += "  identifiers: " + join(ids, ", ") + "\n";
    }
    if (q.flavors.empty()) return out;
    std::vector<std::vector<std::string>> rows{
        {"FLAVOR", "RESOURCE", "NOMINAL", "GUARANTEED", "MAX BURST", "PER NODE", "LARGEST POD"}};
    for (const auto& f : q.flavors)
        for (std::size_t i = 0; i < f.resources.size(); ++i) {
            const auto& r = f.resources[i];
            rows.push_back({i == 0 ? f.flavor : "", r.resource, r.nominal, r.guaranteed, r.max_burst,
                            r.node.value_or("-"), r.largest_pod.value_or("-")});
        }
    for (const auto& line : table(rows)) out += "  " + line + "\n";
    std::vector<std::string> nodes;
    for (const auto& f : q.flavors) {
        std::string s = f.flavor + ": ";
        if (f.node.empty()) s += "no node known";
        else s += std::to_string(f.nodes) + (f.nodes == 1 ? " node" : " nodes") + ", largest: " + f.node;
        if (!f.taints.empty()) s += ", pods must tolerate " + join(f.taints, " and ");
        nodes.push_back(std::move(s));
    }
    for (const auto& n : nodes) out += "  " + n + "\n";
    return out;
}

json opt(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

}  // namespace

std::string render_text(const Report& r) {
    std::string out = "Queues in namespace " + r.namespace_;
    if (!r.target.empty()) out += " (target " + r.target + ")";
    out += "\n\nGUARANTEED = quota never lent to the cohort; MAX BURST = the most the queue can hold (nominal +\n"
           "borrowing, capped by what the cohort lends); PER NODE = allocatable of the flavor's largest node;\n"
           "LARGEST POD = the biggest single pod that is admitted and fits that node (min of the two; for a\n"
           "HardwareProfile also within its identifiers' maxCount)\n";
    for (const auto& q : r.queues) out += "\n" + block(q);
    std::size_t usable = 0;
    for (const auto& q : r.queues) usable += q.usable;
    out += "\n";
    if (r.queues.empty()) out += "no LocalQueue or Queue HardwareProfile in namespace " + r.namespace_ + "\n";
    else if (!usable) out += "no usable queue in namespace " + r.namespace_ + "\n";
    else out += std::to_string(usable) + " of " + std::to_string(r.queues.size()) + " usable\n";
    return out;
}

std::string render_json(const Report& r) {
    json queues = json::array();
    for (const auto& q : r.queues) {
        json j = {{"kind", q.kind}, {"namespace", q.namespace_}, {"name", q.name}};
        if (q.kind == "HardwareProfile") j["displayName"] = q.display_name;
        j["localQueue"] = q.local_queue;
        if (q.kind == "HardwareProfile") {
            j["priorityClass"] = q.priority_class;
            json ids = json::array();
            for (const auto& id : q.identifiers)
                ids.push_back({{"identifier", id.identifier},
                               {"displayName", id.display_name},
                               {"resourceType", id.resource_type},
                               {"min", id.min},
                               {"default", id.default_},
                               {"max", id.max}});
            j["identifiers"] = std::move(ids);
        }
        j["clusterQueue"] = q.cluster_queue;
        j["cohort"] = q.cohort;
        j["usable"] = q.usable;
        j["problem"] = q.problem;
        json flavors = json::array();
        for (const auto& f : q.flavors) {
            json res = json::array();
            for (const auto& x : f.resources)
                res.push_back({{"resource", x.resource},
                               {"nominal", x.nominal},
                               {"guaranteed", x.guaranteed},
                               {"maxBurst", x.max_burst},
                               {"node", opt(x.node)},
                               {"largestPod", opt(x.largest_pod)}});
            flavors.push_back({{"flavor", f.flavor},
                               {"node", f.node.empty() ? json(nullptr) : json(f.node)},
                               {"nodes", f.nodes},
                               {"taints", f.taints},
                               {"resources", std::move(res)}});
        }
        j["flavors"] = std::move(flavors);
        queues.push_back(std::move(j));
    }
    json doc = {{"apiVersion", "queueforge.io/v1alpha1"},
                {"kind", "TenantQueues"},
                {"namespace", r.namespace_},
                {"target", r.target},
                {"queues", std::move(queues)}};
    return doc.dump(2) + "\n";
}

}  // namespace queueforge::tenant
