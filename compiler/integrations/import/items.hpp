#pragma once
// The input of an import after hygiene: one Item per distinct object.
#include <queueforge/base/diagnostics.hpp>
#include <queueforge/base/node.hpp>
#include <queueforge/frontend/manifests.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace queueforge::importer {

enum class Kind { ResourceFlavor, Cohort, WorkloadPriorityClass, ClusterQueue, LocalQueue, DataScienceCluster, Namespace, Other };

struct Item {
    std::string file;  // where it was read, for diagnostics
    Node doc;          // the object without server-set fields; marks point into `file`
    Kind kind = Kind::Other;
    std::string api_version;
    std::string kind_name;
    std::string ns;
    std::string name;

    Mark mark() const { return doc.mark(); }
    // "ClusterQueue/team-a", "LocalQueue/ns/default"
    std::string display() const { return kind_name + "/" + (ns.empty() ? "" : ns + "/") + name; }
};

// The Configuration a kueue-manager-config ConfigMap carries (Kueue's
// controller_manager_config.yaml, parsed), or nullopt for any other item
// and for text Kueue would not load.
std::optional<Node> kueue_manager_configuration(const Item& it);

// Reads the resources into items: strips status and server-set metadata,
// classifies kinds, merges identical duplicates (a note) and refuses
// conflicting ones (an error naming both positions).
std::vector<Item> read_items(std::vector<Resource> resources, Diagnostics& diags);

// "file:line:col" of a position in an item's file.
std::string position(const Item& it, Mark m);

}  // namespace queueforge::importer
