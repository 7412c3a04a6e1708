// workloads_from_jobs: what Kueue's job webhooks and reconciler do with each
// job before a Workload exists (kueue-semantics.md 1.10): queue name (label,
// else the namespace's LocalQueue `default`), Kueue's own job validation
// (jobframework/validation.go ValidateJobOnCreate), pod sets per integration,
// then priority.
#include "engines/workloads/jobs.hpp"

#include <queueforge/base/names.hpp>

#include <algorithm>
#include <map>

namespace queueforge::workloads {

namespace {

using namespace detail;

constexpr std::size_t kMaxWorkloadName = 253;

// managedJobsNamespaceSelector's default leaves these out of queue defaulting.
bool system_namespace(const std::string& ns) { return ns == "kube-system" || ns == "kueue-system"; }

struct Queue {
    std::string name;
    Mark mark;
};

std::optional<Queue> resolve_queue(const ClusterContext& ctx, const Reporter& rep, bool& invalid) {
    const Node* l = label(rep.doc(), kQueueLabel);
    if (const std::string q = text(l); !q.empty()) {
        if (auto why = check_dns1123_subdomain(q); !why.empty()) {
            rep.invalid(l, "metadata.labels[" + std::string(kQueueLabel) + "]", "Invalid value: \"" + q + "\": " + why);
            invalid = true;
            return std::nullopt;
        }
        return Queue{q, l->mark()};
    }
    const std::string ns = namespace_of(rep.job());
    if (!system_namespace(ns) && find_local_queue(ctx, ns, std::string(kDefaultName)))
        return Queue{std::string(kDefaultName), mark_of(present(&rep.doc(), "metadata"), rep.job())};
    return std::nullopt;
}

// kueue.x-k8s.io/max-exec-time-seconds: the webhook refuses non-integers and
// values <= 0; values past int32 pass it but are then ignored (utils.go
// MaximumExecutionTimeSecondsForObject).
bool max_exec(const Reporter& rep, WorkloadHead& head) {
    const Node* l = label(rep.doc(), kMaxExecLabel);
    if (!l) return true;
    const std::string path = "metadata.labels[" + std::string(kMaxExecLabel) + "]";
    auto v = parse_int(text(l));
    if (!v) {
        rep.invalid(l, path, "Invalid value: \"" + text(l) + "\": not an integer");
        return false;
    }
    if (*v <= 0) {
        rep.invalid(l, path, "Invalid value: " + std::to_string(*v) + ": should be greater than 0");
        return false;
    }
    if (*v > kInt32Max) {
        rep.report(Severity::Warning, "jobs.max-exec-time-ignored", l, path,
                   "maximum execution time " + std::to_string(*v) + " does not fit int32; Kueue ignores it");
        return true;
    }
    head.max_exec_seconds = *v;
    head.max_exec_mark = l->mark();
    return true;
}

std::string job_name(const Reporter& rep, std::size_t index) {
    if (!rep.job().ref.name.empty()) return rep.job().ref.name;
    const Node* meta = present(&rep.doc(), "metadata");
    if (const std::string g = text(present(meta, "generateName")); !g.empty()) return g + std::to_string(index + 1);
    rep.invalid(meta ? meta : &rep.doc(), "metadata.name", "Required value: name or generateName is required");
    return {};
}

std::string workload_name(const std::string& kind, const std::string& job) {
    std::string n = lower(kind) + "-" + job;
    if (n.size() > kMaxWorkloadName) n.resize(kMaxWorkloadName);
    while (!n.empty() && (n.back() == '-' || n.back() == '.')) n.pop_back();
    return n;
}

void convert_one(const Resource& job, std::size_t index, const std::vector<const Resource*>* group,
                 const ClusterContext& ctx, Diagnostics& diags, const JobOptions& opts, std::vector<Resource>& out) {
    const Reporter rep(job, diags);
    const Integration* integ = find_integration(job);
    const std::string name = job_name(rep, index);
    if (name.empty()) return;

    bool invalid = false;
    auto queue = resolve_queue(ctx, rep, invalid);
    if (invalid) return;
    if (!queue) {
        const std::string ns = namespace_of(job);
        rep.report(Severity::Warning, "jobs.no-queue", present(&job.doc, "metadata"), "metadata.labels",
                   "no " + std::string(kQueueLabel) + " label and no LocalQueue \"default\" in namespace \"" + ns +
                       "\": Kueue ignores the job, so it runs without quota");
        return;
    }

    WorkloadHead head{.namespace_ = namespace_of(job), .queue = queue->name, .queue_mark = queue->mark};
    if (!max_exec(rep, head)) return;
    if (elastic(job.doc) && !integ->elastic) {
        rep.invalid(annotation(job.doc, kElasticAnnotation), "metadata.annotations[" + std::string(kElasticAnnotation) + "]",
                    "Forbidden: elastic job is not supported for " + job.ref.api_version + ", Kind=" + job.ref.kind);
        return;
    }
    Built built;
    built.cluster = &ctx;
    if (!(group ? build_pod_group(*group, rep, built) : integ->build(rep, built))) return;

    // The podSets' topology requests, and Kueue's webhook checks of the
    // annotations they come from (topology_request.cpp).
    if (!apply_topology_requests(rep, built)) return;
    const Node* wpc_at = label(job.doc, kPriorityLabel);
    if (text(wpc_at).empty() && built.pod_priority_label && !find_wpc(ctx, std::string(kDefaultName)))
        wpc_at = built.pod_priority_label;
    auto priority = resolve_priority(ctx, rep, text(wpc_at), wpc_at, built);
    if (!priority) return;
    head.priority = *priority;

    if (!opts.fallback_epoch.empty())
        if (auto ts = timestamp_plus(opts.fallback_epoch, static_cast<std::int64_t>(index))) {
            head.creation_timestamp = *ts;
            head.creation_mark = mark_of(present(&job.doc, "metadata"), job);
        }
    // One Workload, or one per component, all with the same podSets.
    const std::int64_t n = built.components.value_or(1);
    for (std::int64_t i = 0; i < n; ++i) {
        if (built.components && built.component_kind.empty()) head.component = i;
        const std::string kind = built.component_kind.empty() ? job.ref.kind.str() : built.component_kind;
        head.name = built.components ? workload_name(kind, name + "-" + std::to_string(i))
                    : built.workload_name.empty() ? workload_name(job.ref.kind, name)
                                                  : built.workload_name;
        if (auto why = check_dns1123_subdomain(head.name); !why.empty()) {
            rep.invalid(present(&job.doc, "metadata"), "metadata.name", "Workload name \"" + head.name + "\" is not valid: " + why);
            return;
        }
        if (i + 1 < n) out.push_back(make_workload(job, head, built));
        else out.push_back(make_workload(job, head, std::move(built)));
    }
}

}  // namespace

std::vector<Resource> workloads_from_jobs(const std::vector<Resource>& jobs, const ClusterContext& ctx,
                                          Diagnostics& diags) {
    return workloads_from_jobs(jobs, ctx, diags, JobOptions{});
}

std::vector<Resource> workloads_from_jobs(const std::vector<Resource>& jobs, const ClusterContext& ctx,
                                          Diagnostics& diags, const JobOptions& opts) {
    // Pods of one group become one Workload, placed where the group's first
    // pod is.
    std::map<std::pair<std::string, std::string>, std::vector<const Resource*>> groups;
    struct Item {
        std::size_t index;
        const std::vector<const Resource*>* group;
    };
    std::vector<Item> order;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const Resource& r = jobs[i];
        if (opts.check && (is_job(r) || unsupported_job_reason(r)) && !opts.check(r, diags)) continue;
        if (!is_job(r)) {
            if (auto why = unsupported_job_reason(r))
                Reporter(r, diags).report(Severity::Warning, "jobs.unsupported", &r.doc, "",
                                          r.ref.api_version + " " + r.ref.kind + " is not converted: " + *why);
            continue;
        }
        if (r.ref.kind == "Pod" && r.ref.api_version == "v1") {
            if (const std::string g = pod_group_name(r); !g.empty()) {
                auto& members = groups[{namespace_of(r), g}];
                if (members.empty()) order.push_back({i, &members});
                members.push_back(&r);
                continue;
            }
        }
        order.push_back({i, nullptr});
    }
    // The documented order of jobs without a creationTimestamp (and of the
    // generateName suffixes): file path, then document index in the file,
    // then position inside the document (List items) -- never the order the
    // paths were given in.
    std::vector<std::size_t> by_source(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) by_source[i] = i;
    std::stable_sort(by_source.begin(), by_source.end(), [&](std::size_t a, std::size_t b) {
        if (jobs[a].file != jobs[b].file) return jobs[a].file < jobs[b].file;
        return jobs[a].doc_index < jobs[b].doc_index;
    });
    std::vector<std::size_t> rank(jobs.size());
    for (std::size_t r = 0; r < by_source.size(); ++r) rank[by_source[r]] = r;
    std::stable_sort(order.begin(), order.end(), [&](const Item& a, const Item& b) { return rank[a.index] < rank[b.index]; });
    std::vector<Resource> out;
    for (const auto& item : order) convert_one(jobs[item.index], rank[item.index], item.group, ctx, diags, opts, out);
    return out;
}

}  // namespace queueforge::workloads
