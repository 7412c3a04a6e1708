#include "validate/builtin_schemas.hpp"

#include <queueforge/templates.hpp>
#include <queueforge/yaml_load.hpp>

#include <map>

namespace queueforge::validate {

namespace {

// File stem → kind; the folder names the group and version.
const std::map<std::string, std::string>& kinds() {
    static const std::map<std::string, std::string> k = {
        {"resourceflavor", "ResourceFlavor"},   {"clusterqueue", "ClusterQueue"},
        {"localqueue", "LocalQueue"},           {"cohort", "Cohort"},
        {"workloadpriorityclass", "WorkloadPriorityClass"}, {"workload", "Workload"},
        {"datasciencecluster", "DataScienceCluster"}, {"namespace", "Namespace"}};
    return k;
}

}  // namespace

void load_builtin_schemas(openapi::SchemaSet& out, Diagnostics& diags) {
    // Folder under schemas/ → API group ("" is the core group: apiVersion "v1").
    const std::pair<const char*, const char*> groups[] = {
        {"kueue", "kueue.x-k8s.io/"}, {"opendatahub", "datasciencecluster.opendatahub.io/"}, {"core", ""}};
    for (const auto& [group, api_group] : groups) {
        for (const char* version : {"v1alpha1", "v1beta1", "v1beta2", "v1", "v2"}) {
            for (const auto& [stem, kind] : kinds()) {
                std::string file = std::string("schemas/") + group + "/" + version + "/" + stem + ".yaml";
                auto text = find_embedded(file);
                if (!text) continue;
                auto docs = load_yaml(file, std::string(*text), diags);
                if (docs.size() != 1) continue;
                if (auto s = openapi::compile(docs[0].root, file, diags))
                    out.add(std::string(api_group) + version, kind, std::move(s));
            }
        }
    }
}

}  // namespace queueforge::validate
