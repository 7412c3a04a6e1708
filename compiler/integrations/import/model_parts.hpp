#pragma once
// State shared by the parts of one model build (model.cpp, model_*.cpp).
#include "integrations/import/model.hpp"

#include <set>

namespace queueforge::importer {

struct Assembly {
    Assembly(ModelInput& i, Model& m)
        : in(i), model(m), unused(i.items.size()) {
        model.produced.assign(i.items.size(), 0);
    }

    ModelInput& in;
    Model& model;
    // Items still modelled (not excluded), by kind, in input order.
    std::vector<std::size_t> flavors, cohorts, classes, queues, local_queues, namespaces, dscs;
    std::vector<std::string> unused;  // per item: why no element took it (kept in passthrough)

    // Parts of spec, in the order the site writes them.
    Node dsc, pools, cohort_list, priority_classes, team_defaults, teams, hardware_profiles, kueue_operator, kueue_config;
    bool manage_namespaces = false;
    std::vector<std::pair<std::string, std::size_t>> team_namespaces;  // namespace -> its LocalQueue item

    const Item& item(std::size_t i) const { return in.items[i]; }
    void produce(std::size_t i, const std::string& kind, const std::string& ns, const std::string& name) {
        model.produced[i] = 1;
        model.expected[object_key(kind, ns, name)] = i;
        ++model.modelled;
    }
};

// Flavor names a resourceGroups list uses.
std::vector<std::string> flavors_of(const Node* groups);
// The cohort a ClusterQueue names (v1beta1 cohort, v1beta2 cohortName).
std::string cohort_of(const Node& cq);
// A Cohort's parent (v1alpha1 parent, later parentName).
std::string parent_of(const Node& cohort);
// fairSharing.weight as the site writes it (the CRD default 1 when the weight is absent), or null.
Node fair_sharing_weight(const Node* fair_sharing);

}  // namespace queueforge::importer
