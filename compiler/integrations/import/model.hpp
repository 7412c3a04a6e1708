#pragma once
// Items → the Site document of one import round. Every site element carries
// a synthetic position (line = element id) so that an error the compiler
// reports about the site leads back to the input objects it came from.
#include "integrations/import/items.hpp"
#include "integrations/import/target_infer.hpp"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace queueforge::importer {

struct Patch {
    Node merge = Node::mapping();                  // what the site cannot say about the object
    std::vector<std::pair<std::string, Mark>> fields;  // paths patched, where the input has them
};

struct ModelInput {
    const std::vector<Item>& items;
    // Why an item is kept whole in spec.passthrough ("" = modelled if it can be).
    // The model adds to it when one exclusion forces another (a flavor that
    // stays passthrough takes the queues that use it along).
    std::vector<std::string>& excluded;
    const std::map<std::size_t, Patch>& patches;
    const TargetChoice& target;
    const std::string& site_name;
};

struct Model {
    Node site;
    std::vector<std::vector<std::size_t>> owners;  // element id (a Mark's line) -> items
    // "Kind\0namespace\0name" of each object the site should produce -> the item it reproduces.
    std::unordered_map<std::string, std::size_t> expected;
    // Items kept whole, with the reason (exclusions and objects no element takes).
    std::vector<std::pair<std::size_t, std::string>> passthrough;
    std::vector<char> produced;  // per item: a site element produces it
    std::size_t modelled = 0;
    std::size_t patched = 0;

    // A new element standing for `items`; its mark.
    Mark element(std::vector<std::size_t> items) {
        owners.push_back(std::move(items));
        return Mark{static_cast<int>(owners.size() - 1), 1};
    }
};

Model build_model(ModelInput in);

std::string object_key(const std::string& kind, const std::string& ns, const std::string& name);

// Gives every node of `n` (and every map key) the mark `m`.
void stamp(Node& n, Mark m);

// Model parts (model_*.cpp).
struct Assembly;
void add_pools_cohorts_classes(Assembly& a);
void add_teams(Assembly& a);
void add_platform(Assembly& a);  // DataScienceCluster and Namespaces

// A quota list (site form) from a resourceGroups list.
Node quota_from_groups(const Node* groups);
// A quantity as the site writes it: an integer when it is one, else its canonical string.
Node quantity_node(const Node& q);

}  // namespace queueforge::importer
