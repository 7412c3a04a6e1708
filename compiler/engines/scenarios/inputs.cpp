// Reading what `simulate` is given: sites (compiled through the compiler),
// Kueue manifests, Workloads, job manifests (converted to the Workloads
// Kueue's integrations would create) and the site's sample workloads.
#include <queueforge/engines/scenarios.hpp>

#include "engines/scenarios/site_nodes.hpp"

#include <queueforge/compile.hpp>
#include <queueforge/frontend/manifests.hpp>
#include <queueforge/engines/workloads.hpp>
#include <queueforge/checks/validate.hpp>

#include <filesystem>
#include <set>

namespace queueforge::scenarios {

namespace fs = std::filesystem;

namespace {

bool is_site_path(const std::string& p, std::string& site_file) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        if (fs::exists(fs::path(p) / "queueforge-site.yaml", ec)) {
            site_file = (fs::path(p) / "queueforge-site.yaml").string();
            return true;
        }
        return false;
    }
    return false;
}

// Objects whose values end up in simulated Workloads (their podSets,
// their priority): refused like the API server would, never wrapped.
bool feeds_workloads(const Resource& r) {
    const bool kueue = r.ref.api_version.starts_with("kueue.x-k8s.io/");
    return (kueue && (r.ref.kind == "Workload" || r.ref.kind == "WorkloadPriorityClass")) ||
           (r.ref.kind == "PriorityClass" && r.ref.api_version.starts_with("scheduling.k8s.io/"));
}

Expectation expectation_of(const site::Expectation& e) {
    Expectation x;
    x.status = e.status.value;
    x.flavor = e.flavor.value;
    if (e.borrowing) x.borrowing = e.borrowing->value;
    return x;
}

}  // namespace

// Namespaces as the API server keeps them: every Namespace carries the
// automatic kubernetes.io/metadata.name label (which ClusterQueue selectors
// written by queueforge match on), and the namespaces that workloads and
// LocalQueues use exist.
void add_missing_namespaces(std::vector<Resource>& objects) {
    std::set<std::string> have, used;
    for (auto& r : objects) {
        if (r.ref.kind == "Namespace") {
            have.insert(r.ref.name);
            Node* meta = r.doc.find("metadata");
            if (meta && meta->is_map()) {
                Node* labels = meta->find("labels");
                if (!labels || !labels->is_map()) labels = &meta->set("labels", Node::mapping());
                if (!labels->find("kubernetes.io/metadata.name"))
                    labels->set("kubernetes.io/metadata.name", Node::string(r.ref.name));
            }
        } else if ((r.ref.kind == "LocalQueue" || r.ref.kind == "Workload") && !r.ref.namespace_.empty()) {
            used.insert(r.ref.namespace_);
        }
    }
    for (const auto& ns : used) {
        if (have.count(ns)) continue;
        Resource r;
        r.file = "<implicit>";
        r.ref = {"v1", "Namespace", "", ns};
        r.doc = Node::mapping();
        r.doc.set("apiVersion", Node::string("v1"));
        r.doc.set("kind", Node::string("Namespace"));
        Node meta = Node::mapping();
        meta.set("name", Node::string(ns));
        Node labels = Node::mapping();
        labels.set("kubernetes.io/metadata.name", Node::string(ns));
        meta.set("labels", std::move(labels));
        r.doc.set("metadata", std::move(meta));
        objects.push_back(std::move(r));
    }
}

namespace {

bool bound_pod(const Resource& r) {
    if (r.ref.kind != "Pod" || r.ref.api_version != "v1") return false;
    const Node* spec = r.doc.find("spec");
    const Node* node = spec && spec->is_map() ? spec->find("nodeName") : nullptr;
    return node && node->is_scalar() && !node->is_null() && !node->text().empty();
}

// What the paths hold, gathered; finish() converts the samples.
class Loader {
public:
    Loader() {
        // Job manifests and Workloads are checked as the API server would on
        // create before anything is simulated, with the schemas `validate`
        // uses (compiled once, when the first object needs them). A running
        // Workload's status is the cluster's, read as it is.
        check_ = [this](const Resource& r, Diagnostics& d) {
            if (!validator_) validator_.emplace(std::vector<std::string>{}, schema_load_);
            return validator_->check(r, d, ObjectValidator::Missing::Skip, /*status=*/false);
        };
    }
    Loader(const Loader&) = delete;
    Loader& operator=(const Loader&) = delete;

    // A compiled site: its objects join the configuration in the order the
    // sites were given, after the manifests.
    void add_site(const Compilation& c, const std::string& file, Diagnostics& diags) {
        diags.append(c.diagnostics);
        for (const auto& t : c.sources.texts()) in_.sources.push_back(t);
        if (!c.site || !c.lowered) return;
        site_objects_.push_back(workloads::resources_from_objects(c.lowered->objects, file));
        // Pools with a topology shape bring their nodes (topology placement).
        for (auto& n : site_nodes(*c.site, file)) site_objects_.back().push_back(std::move(n));
        in_.sites.emplace_back(*c.site, file);
    }

    void add_manifests(LoadedResources loaded, const std::string& target, Diagnostics& diags) {
        in_.sources.insert(in_.sources.end(), loaded.sources.begin(), loaded.sources.end());
        for (auto& r : loaded.resources) {
            if (r.ref.kind == "Site" && r.ref.api_version.starts_with("queueforge.io/")) {
                add_site(compile({.path = r.file, .document = &r.doc, .target = target}), r.file, diags);
            } else if (bound_pod(r)) {
                // Already running on a node (`kubectl get pods -A -o yaml`):
                // cluster state, the non-TAS usage of its node, not a sample.
                in_.config.push_back(std::move(r));
            } else if (workloads::is_job(r) || workloads::unsupported_job_reason(r)) {
                job_inputs_.push_back(std::move(r));
            } else if (feeds_workloads(r)) {
                if (check_(r, diags)) in_.config.push_back(std::move(r));
            } else {
                in_.config.push_back(std::move(r));
            }
        }
    }

    std::optional<Inputs> finish(Diagnostics& diags) {
        if (diags.has_errors()) return std::nullopt;
        for (auto& objects : site_objects_) in_.config.insert(in_.config.end(), objects.begin(), objects.end());
        auto ctx = workloads::cluster_context(in_.config);
        for (auto& [s, file] : in_.sites) {
            auto converted = workloads::workloads_from_site(s, fs::path(file).parent_path().string(), ctx, diags,
                                                            in_.sources, check_);
            for (auto& c : converted) {
                Sample x{std::move(c.workload), std::nullopt};
                if (c.sample && c.sample->expect) x.expect = expectation_of(*c.sample->expect);
                in_.samples.push_back(std::move(x));
            }
        }
        if (!job_inputs_.empty()) {
            workloads::JobOptions jo;
            jo.fallback_epoch = "2026-01-01T12:00:00Z";
            jo.check = check_;
            for (auto& w : workloads::workloads_from_jobs(job_inputs_, ctx, diags, jo))
                in_.samples.push_back({std::move(w), std::nullopt});
        }
        diags.append(schema_load_);  // problems in the built-in schemas themselves (none expected)
        if (diags.has_errors()) return std::nullopt;
        return std::move(in_);
    }

private:
    Inputs in_;
    std::vector<Resource> job_inputs_;
    std::vector<std::vector<Resource>> site_objects_;
    std::optional<ObjectValidator> validator_;
    Diagnostics schema_load_;
    workloads::ManifestCheck check_;
};

}  // namespace

std::optional<Inputs> load_inputs(const Options& opts, Diagnostics& diags) {
    Loader loader;
    for (const auto& p : opts.paths) {
        std::string site_file;
        if (is_site_path(p, site_file)) {
            loader.add_site(compile({.path = site_file, .target = opts.target}), site_file, diags);
            continue;
        }
        Diagnostics local;
        LoadedResources in = load_resources({p}, local);
        diags.append(local);
        loader.add_manifests(std::move(in), opts.target, diags);
    }
    return loader.finish(diags);
}

std::optional<Inputs> inputs_of(const Compilation& c, Diagnostics& diags) {
    Loader loader;
    Diagnostics ignored;  // the compilation's findings are the caller's
    loader.add_site(c, c.site ? c.site->file : std::string(), ignored);
    return loader.finish(diags);
}

}  // namespace queueforge::scenarios
