#pragma once
// Built-in objects as the API server holds them when validating admission
// runs on a CREATE: decoded with the defaulting of their types and prepared
// by their registry strategy, then serialised field by field (a struct that
// is present in the Go type, such as a container's `resources`, is `{}` even
// when the manifest leaves it out). ValidatingAdmissionPolicies see this
// form, never the manifest as written: `has(c.resources)` is true for every
// container, `object.spec.suspend` is false for a Job that does not say.
//
// Modelled, from kubernetes/kubernetes (1.30 and later; files read at these
// commits where known):
//   pkg/apis/core/v1/defaults.go (023f88a32c95, a 1.32-or-later tree: it has
//   PodLevelResources) and the generated zz_generated.defaults.go walk of
//   pkg/apis/batch/v1 (01bfd658f45d), which applies them to pod templates:
//     PodSpec: dnsPolicy ClusterFirst, restartPolicy Always, securityContext
//       {}, terminationGracePeriodSeconds 30, schedulerName default-scheduler;
//     containers, initContainers, ephemeralContainers: imagePullPolicy
//       (Always for the tag "latest" or no tag, else IfNotPresent),
//       terminationMessagePath /dev/termination-log, terminationMessagePolicy
//       File, resources {} (requests and limits rounded up to milli units and
//       spelled canonically, as strings), ports[].protocol TCP, probe
//       timings (1/10/1/3), httpGet path / and scheme HTTP,
//       env[].valueFrom.fieldRef.apiVersion v1;
//     volumes: emptyDir {} when no source is given, defaultMode 420 for
//       secret/configMap/downwardAPI/projected, hostPath type "";
//     Pod only (SetDefaults_Pod): requests default to limits, enableServiceLinks
//       true, hostNetwork copies containerPort to hostPort;
//     Namespace: the kubernetes.io/metadata.name label, status.phase Active,
//       spec.finalizers [kubernetes] (namespace strategy PrepareForCreate).
//   pkg/apis/batch/v1/defaults.go (the 1.30-and-later version: ptr.To,
//   ManualSelector defaulted, JobPodReplacementPolicy beta and on by default):
//     Job: completions and parallelism 1 when neither is set, parallelism 1,
//       backoffLimit 6 (2147483647 with backoffLimitPerIndex), labels copied
//       from the pod template when the Job has none, completionMode
//       NonIndexed, suspend false, podReplacementPolicy TerminatingOrFailed
//       (Failed with a podFailurePolicy), manualSelector false,
//       onPodConditions[].status True; registry strategy PrepareForCreate:
//       status {} and metadata.generation 1.
//     CronJob: concurrencyPolicy Allow, suspend false, history limits 3 and 1.
//   pkg/apis/apps/v1/defaults.go (04791b490660): Deployment, StatefulSet,
//     DaemonSet and ReplicaSet replicas, strategies and revisionHistoryLimit
//     (StatefulSet's PVC retention policy with StatefulSetAutoDeletePVC on).
//   The registry strategies' PrepareForCreate (pkg/registry/batch/job,
//   batch/cronjob, apps/*): metadata.generation 1; a Job's and a CronJob's
//   status reset to {}.
// Every pod template (and a CronJob's jobTemplate) has `metadata` ({} at least).
//
// Not modelled: what needs a live server or is random (uid,
// creationTimestamp, resourceVersion, managedFields, a Job's generated
// selector and controller-uid labels), mutating admission plugins
// (ServiceAccount, Priority, DefaultTolerationSeconds, LimitRanger), Pod
// status and QoS class, and the status of the apps kinds.
#include <queueforge/base/node.hpp>

#include <string_view>

namespace queueforge::k8s {

// Whether apply_server_defaults changes objects of this apiVersion and kind.
bool has_server_defaults(std::string_view api_version, std::string_view kind);

// Applies the defaults above to a whole manifest (apiVersion, kind, metadata,
// spec, ...) in place. Other kinds, and parts that are not of the expected
// shape (a `spec` that is a string), are left as they are. New nodes carry
// the position of the map they are added to.
void apply_server_defaults(Node& object);

}  // namespace queueforge::k8s
