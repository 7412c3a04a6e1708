// The API server's defaulting of built-in kinds on CREATE; see
// server_defaults.hpp for what is modelled and where each rule comes from.
#include "base/k8s/server_defaults.hpp"

#include <queueforge/base/quantity.hpp>

#include <array>
#include <limits>

namespace queueforge::k8s {

namespace {

// Go's zero tests on decoded fields: a pointer is nil when the key is absent
// or null; a string is "" when absent, null or empty; a number 0 likewise.
bool nil(const Node& map, std::string_view key) {
    const Node* n = map.find(key);
    return !n || n->is_null();
}
bool empty_string(const Node& map, std::string_view key) {
    const Node* n = map.find(key);
    return !n || n->is_null() || (n->is_scalar() && n->text().empty());
}
bool zero_int(const Node& map, std::string_view key) {
    const Node* n = map.find(key);
    return !n || n->is_null() || (n->kind() == Node::Kind::Int && n->as_int() == 0);
}

void put(Node& map, std::string_view key, Node value) {
    value.set_mark(map.mark());
    map.set(std::string(key), std::move(value));
}
void default_string(Node& map, std::string_view key, std::string_view value) {
    if (empty_string(map, key)) put(map, key, Node::string(std::string(value)));
}
void default_int(Node& map, std::string_view key, std::int64_t value) {
    if (nil(map, key)) put(map, key, Node::integer(value));
}
void default_bool(Node& map, std::string_view key, bool value) {
    if (nil(map, key)) put(map, key, Node::boolean(value));
}

// The map at map[key], created ({}) when absent or null; nullptr when the
// value is something else (left for validation to report).
Node* struct_at(Node& map, std::string_view key) {
    Node* n = map.find(key);
    if (!n || n->is_null()) {
        put(map, key, Node::mapping());
        n = map.find(key);
    }
    return n->is_map() ? n : nullptr;
}
// The map at map[key] when there is one.
Node* map_at(Node& map, std::string_view key) {
    Node* n = map.find(key);
    return n && n->is_map() ? n : nullptr;
}
// Each map item of the list at map[key].
template <typename F>
void each_item(Node& map, std::string_view key, F&& f) {
    Node* n = map.find(key);
    if (!n || !n->is_seq()) return;
    for (auto& item : n->items())
        if (item.is_map()) f(item);
}

// ---- core/v1 ---------------------------------------------------------------

// parsers.ParseImageName: the tag of a reference, "latest" when it has
// neither tag nor digest, "" when it has only a digest or cannot be parsed.
// (Reference syntax beyond that is not checked here.)
std::string image_tag(const Node& container) {
    const Node* image = container.find("image");
    if (!image || !image->is_scalar() || image->is_null() || image->text().empty()) return {};
    const std::string& ref = image->text();
    const std::size_t at = ref.find('@');
    const std::string name = ref.substr(0, at);
    const std::size_t slash = name.rfind('/'), colon = name.rfind(':');
    std::string tag;
    if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) tag = name.substr(colon + 1);
    if (tag.empty() && at == std::string::npos) tag = "latest";
    return tag;
}

// SetDefaults_ResourceList (rounded up to milli units, away from zero) and
// the canonical string the API server serialises a Quantity as. Values that
// are not quantities are left: the API server refuses them before admission.
void canonical_quantities(Node& resources, std::string_view key) {
    Node* list = map_at(resources, key);
    if (!list) return;
    constexpr int128 kMilli = 1'000'000;  // nanos
    for (auto& e : list->entries()) {
        if (!e.value.is_scalar() || e.value.is_null()) continue;
        auto q = Quantity::parse(e.value.text());
        if (!q) continue;
        if (q->nanos() % kMilli != 0) {
            int128 milli = q->nanos() / kMilli + (q->nanos() > 0 ? 1 : -1);
            if (milli > std::numeric_limits<std::int64_t>::max() || milli < std::numeric_limits<std::int64_t>::min())
                continue;
            q = Quantity::from_milli(static_cast<std::int64_t>(milli), q->format());
        }
        e.value = Node::string(q->to_string(), e.value.mark());
    }
}

void default_resources(Node& owner, std::string_view key) {
    if (Node* res = struct_at(owner, key)) {
        canonical_quantities(*res, "limits");
        canonical_quantities(*res, "requests");
    }
}

void default_field_ref(Node& holder) {
    if (Node* ref = map_at(holder, "fieldRef")) default_string(*ref, "apiVersion", "v1");  // SetDefaults_ObjectFieldSelector
}

void default_http_get(Node& handler) {
    if (Node* get = map_at(handler, "httpGet")) {  // SetDefaults_HTTPGetAction
        default_string(*get, "path", "/");
        default_string(*get, "scheme", "HTTP");
    }
}

void default_probe(Node& container, std::string_view key) {
    Node* probe = map_at(container, key);
    if (!probe) return;
    // SetDefaults_Probe tests for 0, so an explicit 0 is replaced too.
    for (auto [field, value] : std::array<std::pair<std::string_view, int>, 4>{
             {{"timeoutSeconds", 1}, {"periodSeconds", 10}, {"successThreshold", 1}, {"failureThreshold", 3}}})
        if (zero_int(*probe, field)) put(*probe, field, Node::integer(value));
    default_http_get(*probe);
}

void default_container(Node& c) {
    if (empty_string(c, "imagePullPolicy"))  // SetDefaults_Container
        put(c, "imagePullPolicy", Node::string(image_tag(c) == "latest" ? "Always" : "IfNotPresent"));
    default_string(c, "terminationMessagePath", "/dev/termination-log");
    default_string(c, "terminationMessagePolicy", "File");
    default_resources(c, "resources");  // a struct in the Go type: always serialised
    each_item(c, "ports", [](Node& p) { default_string(p, "protocol", "TCP"); });
    each_item(c, "env", [](Node& e) {
        if (Node* from = map_at(e, "valueFrom")) default_field_ref(*from);
    });
    for (auto probe : {"livenessProbe", "readinessProbe", "startupProbe"}) default_probe(c, probe);
    if (Node* lifecycle = map_at(c, "lifecycle"))
        for (auto hook : {"postStart", "preStop"})
            if (Node* h = map_at(*lifecycle, hook)) default_http_get(*h);
}

void default_volume(Node& v) {
    bool has_source = false;  // SetDefaults_Volume: ptr.AllPtrFieldsNil(&VolumeSource)
    for (const auto& e : v.entries()) has_source = has_source || (e.key != "name" && !e.value.is_null());
    if (!has_source) put(v, "emptyDir", Node::mapping());
    for (auto source : {"secret", "configMap", "downwardAPI", "projected"})
        if (Node* s = map_at(v, source)) default_int(*s, "defaultMode", 420);  // 0644
    if (Node* host = map_at(v, "hostPath"); host && nil(*host, "type"))
        put(*host, "type", Node::string(""));  // HostPathUnset
    if (Node* d = map_at(v, "downwardAPI")) each_item(*d, "items", default_field_ref);
    if (Node* p = map_at(v, "projected"))
        each_item(*p, "sources", [](Node& s) {
            if (Node* d = map_at(s, "downwardAPI")) each_item(*d, "items", default_field_ref);
        });
}

// SetDefaults_PodSpec and the walk of the generated defaulters below it.
void default_pod_spec(Node& spec) {
    default_string(spec, "dnsPolicy", "ClusterFirst");
    default_string(spec, "restartPolicy", "Always");
    if (nil(spec, "securityContext")) put(spec, "securityContext", Node::mapping());
    default_int(spec, "terminationGracePeriodSeconds", 30);
    default_string(spec, "schedulerName", "default-scheduler");
    each_item(spec, "volumes", default_volume);
    for (auto list : {"initContainers", "containers", "ephemeralContainers"}) each_item(spec, list, default_container);
    if (Node* res = map_at(spec, "resources")) {
        canonical_quantities(*res, "limits");
        canonical_quantities(*res, "requests");
    }
}

// A PodTemplateSpec: its metadata is a struct (always serialised), its spec a PodSpec.
void default_pod_template(Node& owner, std::string_view key) {
    Node* t = map_at(owner, key);
    if (!t) return;
    struct_at(*t, "metadata");
    if (Node* spec = struct_at(*t, "spec")) default_pod_spec(*spec);
}

// SetDefaults_Pod, then the PodSpec defaults.
void default_pod(Node& pod) {
    Node* spec = map_at(pod, "spec");
    if (!spec) return;
    const Node* host_network = spec->find("hostNetwork");
    const bool host = host_network && host_network->kind() == Node::Kind::Bool && host_network->as_bool();
    for (auto list : {"containers", "initContainers"})
        each_item(*spec, list, [host](Node& c) {
            if (Node* res = map_at(c, "resources")) {
                const Node* limits = map_at(*res, "limits");
                if (limits && limits->size() > 0) {
                    const Node limits_copy = *limits;
                    if (Node* requests = struct_at(*res, "requests"))
                        for (const auto& e : limits_copy.entries())
                            if (!requests->find(e.key)) requests->set(e.key, e.value);
                }
            }
            if (host)  // defaultHostNetworkPorts
                each_item(c, "ports", [](Node& p) {
                    const Node* port = p.find("containerPort");
                    if (zero_int(p, "hostPort") && port) put(p, "hostPort", *port);
                });
        });
    default_bool(*spec, "enableServiceLinks", true);
    default_pod_spec(*spec);
}

void default_namespace(Node& ns) {
    Node* meta = map_at(ns, "metadata");
    const Node* name_node = meta ? meta->find("name") : nullptr;
    const std::string name = name_node && name_node->is_scalar() && !name_node->is_null() ? name_node->text() : "";
    if (!name.empty())  // SetDefaults_Namespace
        if (Node* labels = struct_at(*meta, "labels")) put(*labels, "kubernetes.io/metadata.name", Node::string(name));
    if (Node* spec = struct_at(ns, "spec")) {  // namespace strategy PrepareForCreate: the "kubernetes" finalizer
        Node* fin = spec->find("finalizers");
        if (!fin || fin->is_null()) {
            put(*spec, "finalizers", Node::sequence());
            fin = spec->find("finalizers");
        }
        if (fin->is_seq()) {
            bool has = false;
            for (const auto& f : fin->items()) has = has || (f.is_scalar() && f.text() == "kubernetes");
            if (!has) fin->push(Node::string("kubernetes", fin->mark()));
        }
    }
    Node status = Node::mapping(ns.mark());  // status is reset on create
    put(status, "phase", Node::string("Active"));
    put(ns, "status", std::move(status));
}

// ---- batch/v1, apps/v1 ------------------------------------------------------

// What a registry strategy's PrepareForCreate does to every kind below.
void prepare_for_create(Node& object, bool reset_status) {
    if (Node* meta = struct_at(object, "metadata")) put(*meta, "generation", Node::integer(1));
    if (reset_status) put(object, "status", Node::mapping());
}

void default_job(Node& job) {
    Node* spec = struct_at(job, "spec");
    if (!spec) return;
    if (nil(*spec, "completions") && nil(*spec, "parallelism")) put(*spec, "completions", Node::integer(1));
    default_int(*spec, "parallelism", 1);
    default_int(*spec, "backoffLimit", nil(*spec, "backoffLimitPerIndex") ? 6 : std::numeric_limits<std::int32_t>::max());
    if (Node* t = map_at(*spec, "template")) {  // the Job's labels from its template's, when it has none
        const Node* tmeta = map_at(*t, "metadata");
        const Node* tlabels = tmeta ? tmeta->find("labels") : nullptr;
        if (tlabels && tlabels->is_map() && tlabels->size() > 0)
            if (Node* meta = map_at(job, "metadata")) {
                const Node* labels = meta->find("labels");
                if (!labels || labels->is_null() || (labels->is_map() && labels->size() == 0)) put(*meta, "labels", Node(*tlabels));
            }
    }
    default_string(*spec, "completionMode", "NonIndexed");
    default_bool(*spec, "suspend", false);
    if (nil(*spec, "podReplacementPolicy"))
        put(*spec, "podReplacementPolicy", Node::string(nil(*spec, "podFailurePolicy") ? "TerminatingOrFailed" : "Failed"));
    default_bool(*spec, "manualSelector", false);
    if (Node* pfp = map_at(*spec, "podFailurePolicy"))
        each_item(*pfp, "rules", [](Node& rule) {
            each_item(rule, "onPodConditions", [](Node& c) { default_string(c, "status", "True"); });
        });
    default_pod_template(*spec, "template");
    prepare_for_create(job, true);
}

void default_cron_job(Node& cron) {
    Node* spec = struct_at(cron, "spec");
    if (!spec) return;
    default_string(*spec, "concurrencyPolicy", "Allow");
    default_bool(*spec, "suspend", false);
    default_int(*spec, "successfulJobsHistoryLimit", 3);
    default_int(*spec, "failedJobsHistoryLimit", 1);
    if (Node* jt = map_at(*spec, "jobTemplate")) {
        struct_at(*jt, "metadata");
        if (Node* jspec = map_at(*jt, "spec")) default_pod_template(*jspec, "template");
    }
    prepare_for_create(cron, true);
}

Node int_or_string(std::string_view s) { return Node::string(std::string(s)); }

void default_apps(Node& object, std::string_view kind) {
    Node* spec = struct_at(object, "spec");
    if (!spec) return;
    if (kind == "Deployment") {
        default_int(*spec, "replicas", 1);
        if (Node* strategy = struct_at(*spec, "strategy")) {
            default_string(*strategy, "type", "RollingUpdate");
            const Node* type = strategy->find("type");
            if (type->is_scalar() && type->text() == "RollingUpdate")
                if (Node* ru = struct_at(*strategy, "rollingUpdate")) {
                    if (nil(*ru, "maxUnavailable")) put(*ru, "maxUnavailable", int_or_string("25%"));
                    if (nil(*ru, "maxSurge")) put(*ru, "maxSurge", int_or_string("25%"));
                }
        }
        default_int(*spec, "revisionHistoryLimit", 10);
        default_int(*spec, "progressDeadlineSeconds", 600);
    } else if (kind == "DaemonSet") {
        if (Node* strategy = struct_at(*spec, "updateStrategy")) {
            default_string(*strategy, "type", "RollingUpdate");
            const Node* type = strategy->find("type");
            if (type->is_scalar() && type->text() == "RollingUpdate")
                if (Node* ru = struct_at(*strategy, "rollingUpdate")) {
                    default_int(*ru, "maxUnavailable", 1);
                    default_int(*ru, "maxSurge", 0);
                }
        }
        default_int(*spec, "revisionHistoryLimit", 10);
    } else if (kind == "StatefulSet") {
        default_string(*spec, "podManagementPolicy", "OrderedReady");
        if (Node* strategy = struct_at(*spec, "updateStrategy")) {
            if (empty_string(*strategy, "type")) {
                put(*strategy, "type", Node::string("RollingUpdate"));
                struct_at(*strategy, "rollingUpdate");
            }
            const Node* type = strategy->find("type");
            if (Node* ru = map_at(*strategy, "rollingUpdate"); ru && type->is_scalar() && type->text() == "RollingUpdate")
                default_int(*ru, "partition", 0);
        }
        if (Node* retention = struct_at(*spec, "persistentVolumeClaimRetentionPolicy")) {  // StatefulSetAutoDeletePVC (GA)
            default_string(*retention, "whenDeleted", "Retain");
            default_string(*retention, "whenScaled", "Retain");
        }
        default_int(*spec, "replicas", 1);
        default_int(*spec, "revisionHistoryLimit", 10);
    } else if (kind == "ReplicaSet") {
        default_int(*spec, "replicas", 1);
    }
    default_pod_template(*spec, "template");
    prepare_for_create(object, false);
}

}  // namespace

bool has_server_defaults(std::string_view api_version, std::string_view kind) {
    if (api_version == "v1") return kind == "Pod" || kind == "Namespace" || kind == "PodTemplate";
    if (api_version == "batch/v1") return kind == "Job" || kind == "CronJob";
    if (api_version == "apps/v1")
        return kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "ReplicaSet";
    return false;
}

void apply_server_defaults(Node& object) {
    if (!object.is_map()) return;
    const Node* api = object.find("apiVersion");
    const Node* kind_node = object.find("kind");
    if (!api || !kind_node || !api->is_scalar() || !kind_node->is_scalar()) return;
    const std::string api_version = api->text(), kind = kind_node->text();
    if (!has_server_defaults(api_version, kind)) return;
    // ObjectMeta is a struct: always there. Creating it first also keeps the
    // pointers the kinds below hold into the object valid.
    if (!struct_at(object, "metadata")) return;
    if (kind == "Pod") default_pod(object);
    else if (kind == "Namespace") default_namespace(object);
    else if (kind == "PodTemplate") default_pod_template(object, "template");
    else if (kind == "Job") default_job(object);
    else if (kind == "CronJob") default_cron_job(object);
    else default_apps(object, kind);
}

}  // namespace queueforge::k8s
