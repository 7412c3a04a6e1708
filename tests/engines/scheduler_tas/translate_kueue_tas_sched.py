#!/usr/bin/env python3
"""Translate Kueue's scheduler-level TAS test tables into data.

Reads pkg/scheduler/scheduler_tas_test.go of kubernetes-sigs/kueue (the commit
is given on the command line and recorded in the output) and writes, for one of
the tables TestScheduleForTAS, TestScheduleForTASPreemption,
TestScheduleForTASCohorts, every case as the objects the test builds (as
Kubernetes manifests) and what the test asserts after one scheduling cycle, or
the reason the case cannot be expressed. Only the data of the table is read: Go
composite literals and the calls of Kueue's test builders are interpreted as
values (the tokenizer and expression reader are those of
../topology/translate_kueue_tas.py); no Kueue code is reproduced.

    python3 translate_kueue_tas_sched.py <kueue checkout or scheduler_tas_test.go> <commit> <table> > <file>.yaml

Known-failing marks (cases the simulator does not yet agree on) are kept in
known_failing.yaml next to this script and copied into the output.
"""
import datetime
import os
import sys

import yaml

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'topology'))
import translate_kueue_tas as tk  # noqa: E402

Untranslatable = tk.Untranslatable
Builder = tk.Builder

# `now` of the tests is time.Now().Truncate(time.Second); a fixed instant here
# (the one ../shared/kueue-conformance uses).
NOW = datetime.datetime(2025, 6, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)
KUEUE = 'kueue.x-k8s.io/v1beta2'

# Fields of the tables' case structs.
tk.FIELDS.update({'resourceTransformations', 'topologies', 'admissionChecks', 'resourceFlavors', 'clusterQueues',
                  'workloads', 'patchStatusErr', 'wantNewAssignments', 'wantLeft', 'wantInadmissibleLeft',
                  'wantEvents', 'eventCmpOpts', 'cohorts', 'wantWorkloads'})

CONSTS = {
    'kueue.WorkloadQuotaReserved': 'QuotaReserved', 'kueue.WorkloadAdmitted': 'Admitted',
    'kueue.WorkloadEvicted': 'Evicted', 'kueue.WorkloadPreempted': 'Preempted',
    'kueue.WorkloadAdmittedReasonNoReservation': 'NoReservation',
    'kueue.WorkloadQuotaReservedReasonWaitingForPreemptedWorkloads': 'WaitingForPreemptedWorkloads',
    'kueue.WorkloadQuotaReservedReasonWaitingForQuota': 'WaitingForQuota',
    'kueue.WorkloadQuotaReservedReasonTopologyPlacementFailed': 'TopologyPlacementFailed',
    'kueue.WorkloadQuotaReservedReasonNoMatchingFlavor': 'NoMatchingFlavor',
    'kueue.WorkloadQuotaReservedReasonExceedsMaxQuota': 'ExceedsMaxQuota',
    'kueue.PreemptionPolicyLowerPriority': 'LowerPriority', 'kueue.PreemptionPolicyAny': 'Any',
    'kueue.PreemptionPolicyNever': 'Never', 'kueue.BorrowWithinCohortPolicyLowerPriority': 'LowerPriority',
    'kueue.DelayedTopologyRequestStatePending': 'Pending', 'kueue.DelayedTopologyRequestStateReady': 'Ready',
    'kueue.CheckStateReady': 'Ready', 'kueue.CheckStatePending': 'Pending',
    'kueue.AdmissionCheckActive': 'Active',
    'kueue.ProvisioningRequestControllerName': 'kueue.x-k8s.io/provisioning-request',
    'metav1.ConditionTrue': 'True', 'metav1.ConditionFalse': 'False', 'metav1.NamespaceDefault': 'default',
    'config.Retain': 'Retain', 'config.Replace': 'Replace',
    'corev1.EventTypeNormal': 'Normal', 'corev1.EventTypeWarning': 'Warning',
}

# Gates and their defaults at the commit (pkg/features/kube_features.go).
GATE_DEFAULTS = {
    'TASRecomputeAssignmentWithinSchedulingCycle': True, 'RecomputeAssignmentUponPreemptionTargetsOverlap': True,
    'TASMultiLayerTopology': True, 'TopologyAwareScheduling': True, 'VectorizedResourceRequests': True,
    'SchedulerLibraryIntegration': False, 'TASFailedNodeReplacementFailFast': True,
    'TASCacheNodeMatchResults': True, 'TASCachingRemainingResources': True,
}


class Time:
    def __init__(self, t):
        self.t = t


class Duration:
    def __init__(self, d):
        self.d = d

    def __neg__(self):
        return Duration(-self.d)


def ts(v):
    if isinstance(v, Time):
        return v.t.strftime('%Y-%m-%dT%H:%M:%SZ')
    raise Untranslatable("time value %r" % (v,))


def quantity(q):
    return tk.quantity(q)


def level_list(topo):
    return [lv['nodeLabel'] for lv in topo['spec']['levels']]


def podset(name, count):
    return {'name': name, 'count': count,
            'template': {'spec': {'restartPolicy': 'Never',
                                  'containers': [{'name': 'c', 'resources': {'requests': {}}}]}}}


def set_condition(conds, c):
    for i, x in enumerate(conds):
        if x['type'] == c['type']:
            # apimeta.SetStatusCondition keeps the transition time when the status is unchanged
            keep = x.get('lastTransitionTime') if x['status'] == c['status'] else None
            conds[i] = dict(c)
            if keep:
                conds[i]['lastTransitionTime'] = keep
            return
    conds.append(dict(c))


def condition(c):
    out = {'type': c['Type'], 'status': c['Status']}
    if c.get('Reason'):
        out['reason'] = c['Reason']
    if c.get('Message') is not None:
        out['message'] = c['Message']
    if c.get('LastTransitionTime') is not None:
        out['lastTransitionTime'] = c['LastTransitionTime']
    return out


def resources(m):
    return {k: quantity(v) for k, v in m.items()}


class SParser(tk.Parser):
    def unary(self):
        if self.at('-'):
            self.take()
            v = self.unary()
            return -v
        return super().unary()

    def ident(self, name):
        if name in self.env and not name.startswith('__'):
            return self.env[name]
        head, _, rest = name.partition('.')
        if rest and head in self.env and not head.startswith('__'):
            v = self.env[head]
            for f in rest.split('.'):
                v = field(v, f)
            return v
        if name in CONSTS:
            return CONSTS[name]
        if name == 'time.Second':
            return Duration(datetime.timedelta(seconds=1))
        if name == 'time.Minute':
            return Duration(datetime.timedelta(minutes=1))
        return super().ident(name)

    def postfix(self, v):
        while self.at('.') or self.at('['):
            if self.at('['):
                raise Untranslatable("indexing in the table")
            self.take('.')
            name = self.take()[1]
            if self.at('('):
                v = method(v, name, self.args())
            else:
                v = field(v, name)
        return v


    def call(self, name, args):
        head, _, rest = name.partition('.')
        if rest and head in self.env and not head.startswith('__'):
            # a method called on a variable (singleNode.DeepCopy(), now.Add(...))
            v = self.env[head]
            parts = rest.split('.')
            for f in parts[:-1]:
                v = field(v, f)
            return method(v, parts[-1], args)
        short = name.split('.')[-1]
        if name == 'time.Now':
            return Time(NOW)
        if name == 'metav1.NewTime':
            return ts(args[0])
        if name in ('kueue.ClusterQueueReference', 'kueue.ResourceFlavorReference', 'kueue.TopologyReference',
                    'kueue.AdmissionCheckReference', 'kueue.LocalQueueName', 'workload.Reference'):
            return args[0]
        if name == 'utiltas.Levels':
            return level_list(args[0])
        if name == 'cmpopts.IgnoreFields':
            if args[1:] != ['Message']:
                raise Untranslatable('cmp option IgnoreFields%r' % (args[1:],))
            return 'IgnoreMessage'
        if name == 'errors.New' or name.startswith('apierrors.'):
            return {'error': True}
        if short == 'MakeWorkload':
            return Builder('swl', {'apiVersion': KUEUE, 'kind': 'Workload',
                                   'metadata': {'name': args[0], 'namespace': args[1]},
                                   'spec': {'podSets': [podset('main', 1)]}, 'status': {}})
        if short == 'MakePodSet':
            return Builder('ps', podset(args[0], args[1]))
        if short == 'MakeAdmission':
            names = args[1:] or ['main']
            return Builder('sadm', {'clusterQueue': args[0],
                                    'podSetAssignments': [psa_default(n) for n in names]})
        if short == 'MakePodSetAssignment':
            return Builder('spsa', psa_default(args[0]))
        if short == 'MakeTopologyAssignment':
            return Builder('sta', {'levels': list(args[0]), 'domains': []})
        if short == 'MakeTopologyDomainAssignment':
            return Builder('tda', {'values': list(args[0]), 'count': args[1]})
        if short == 'MakeDefaultOneLevelTopology':
            return {'apiVersion': KUEUE, 'kind': 'Topology', 'metadata': {'name': args[0]},
                    'spec': {'levels': [{'nodeLabel': 'kubernetes.io/hostname'}]}}
        if short == 'MakeTopology':
            return Builder('topo', {'apiVersion': KUEUE, 'kind': 'Topology', 'metadata': {'name': args[0]},
                                    'spec': {'levels': []}})
        if short == 'MakeResourceFlavor':
            return Builder('rf', {'apiVersion': KUEUE, 'kind': 'ResourceFlavor', 'metadata': {'name': args[0]},
                                  'spec': {'nodeLabels': {}}})
        if short == 'MakeClusterQueue':
            return Builder('cq', {'apiVersion': KUEUE, 'kind': 'ClusterQueue', 'metadata': {'name': args[0]},
                                  'spec': {'namespaceSelector': {}, 'queueingStrategy': 'BestEffortFIFO',
                                           'flavorFungibility': {'whenCanBorrow': 'MayStopSearch',
                                                                 'whenCanPreempt': 'TryNextFlavor'},
                                           'resourceGroups': []}})
        if short == 'MakeCohort':
            return Builder('cohort', {'apiVersion': KUEUE, 'kind': 'Cohort', 'metadata': {'name': args[0]},
                                      'spec': {}})
        if short == 'MakeFlavorQuotas':
            return Builder('fq', {'name': args[0], 'resources': []})
        if short == 'MakeLocalQueue':
            return Builder('lq', {'apiVersion': KUEUE, 'kind': 'LocalQueue',
                                  'metadata': {'name': args[0], 'namespace': args[1]}, 'spec': {}})
        if short == 'MakeAdmissionCheck':
            return Builder('ac', {'apiVersion': KUEUE, 'kind': 'AdmissionCheck', 'metadata': {'name': args[0]},
                                  'spec': {}, 'status': {'conditions': []}})
        if short == 'MakeEventRecord':
            return Builder('event', {'namespace': args[0], 'name': args[1], 'reason': args[2], 'type': args[3]})
        return super().call(name, args)


def field(v, name):
    if isinstance(v, dict) and name == 'Name' and 'metadata' in v:
        return v['metadata']['name']
    return tk.field(v, name)


def psa_default(name):
    return {'name': name, 'flavors': {}, 'resourceUsage': {}, 'count': 1}


def method(v, name, args):
    if isinstance(v, Time):
        if name == 'Truncate':
            return v
        if name == 'Add':
            return Time(v.t + args[0].d)
        raise Untranslatable("time ." + name)
    if name == 'Clone' and isinstance(v, Builder) and v.kind == 'node':
        import copy
        return Builder('node', copy.deepcopy(v.obj))
    if name == 'DeepCopy':
        import copy
        if isinstance(v, Builder) and v.kind == 'node':
            return copy.deepcopy(dict(v.obj))
        if isinstance(v, (dict, list)):
            return copy.deepcopy(v)
    if isinstance(v, Builder) and v.kind == 'node' and name == 'StatusAllocatable':
        # testingnode's StatusAllocatable merges into the node's allocatable
        # (maps.Copy); a cloned node keeps what it had
        v.obj.setdefault('allocatable', {}).update({r: tk.quantity(q) for r, q in args[0].items()})
        return v
    if not isinstance(v, Builder) or v.kind in ('node', 'pod', 'terms', 'preferred', 'gv'):
        return tk.method(v, name, args)
    o = v.obj
    k = v.kind
    if name == 'Obj':
        return o
    if k == 'swl':
        meta, spec, status = o['metadata'], o['spec'], o['status']
        if name == 'Queue':
            spec['queueName'] = args[0]
        elif name == 'Priority':
            spec['priority'] = args[0]
        elif name == 'UID':
            meta['uid'] = args[0]
        elif name == 'JobUID':
            meta.setdefault('labels', {})['kueue.x-k8s.io/job-uid'] = args[0]
        elif name == 'PodSets':
            spec['podSets'] = list(args)
        elif name == 'Request':
            spec['podSets'][0]['template']['spec']['containers'][0]['resources']['requests'][args[0]] = args[1]
        elif name == 'Creation':
            meta['creationTimestamp'] = ts(args[0])
        elif name == 'ReserveQuotaAt':
            status['admission'] = args[0]
            status['conditions'] = [{'type': 'QuotaReserved', 'status': 'True', 'reason': 'AdmittedByTest',
                                     'message': 'Admitted by ClusterQueue ' + args[0]['clusterQueue'],
                                     'lastTransitionTime': ts(args[1])}]
        elif name == 'Admission':
            status['admission'] = args[0]
        elif name == 'AdmittedAt':
            set_condition(status.setdefault('conditions', []), {
                'type': 'Admitted', 'status': 'True' if args[0] else 'False', 'reason': 'ByTest',
                'message': 'Admitted by ClusterQueue ' + status['admission']['clusterQueue'],
                'lastTransitionTime': ts(args[1])})
        elif name == 'Condition':
            set_condition(status.setdefault('conditions', []), condition(args[0]))
        elif name == 'ResourceRequests':
            status['resourceRequests'] = [{'name': r['Name'], 'resources': resources(r['Resources'])} for r in args]
        elif name == 'SchedulingStatsEviction':
            status.setdefault('schedulingStats', {}).setdefault('evictions', []).append(
                {'reason': args[0].get('Reason', ''), 'underlyingCause': args[0].get('UnderlyingCause', ''),
                 'count': args[0].get('Count', 0)})
        elif name == 'UnhealthyNodes':
            status.setdefault('unhealthyNodes', []).extend({'name': n} for n in args)
        elif name == 'AdmissionCheck':
            a = args[0]
            st = {'name': a['Name'], 'state': a['State']}
            if a.get('Message'):
                st['message'] = a['Message']
            if a.get('LastTransitionTime') is not None:
                st['lastTransitionTime'] = a['LastTransitionTime']
            if a.get('PodSetUpdates'):
                raise Untranslatable("admission check podSetUpdates")
            status.setdefault('admissionChecks', []).append(st)
        elif name == 'ResourceVersion':
            pass  # ignored by the comparison (ObjectMeta.ResourceVersion)
        else:
            raise Untranslatable("workload builder ." + name)
        return v
    if k == 'ps':
        tspec = o['template']['spec']
        if name == 'Request':
            tspec['containers'][0]['resources']['requests'][args[0]] = args[1]
        elif name in ('RequiredTopologyRequest', 'PreferredTopologyRequest', 'SliceRequiredTopologyRequest',
                      'SliceSizeTopologyRequest', 'UnconstrainedTopologyRequest', 'SliceRequiredTopologyConstraints',
                      'PodSetGroup'):
            tr = o.setdefault('topologyRequest', {})
            if name == 'RequiredTopologyRequest':
                tr['required'] = args[0]
            elif name == 'PreferredTopologyRequest':
                tr['preferred'] = args[0]
            elif name == 'SliceRequiredTopologyRequest':
                tr['podSetSliceRequiredTopology'] = args[0]
            elif name == 'SliceSizeTopologyRequest':
                tr['podSetSliceSize'] = args[0]
            elif name == 'UnconstrainedTopologyRequest':
                tr['unconstrained'] = True
            elif name == 'PodSetGroup':
                tr['podSetGroupName'] = args[0]
            else:
                tr['podsetSliceRequiredTopologyConstraints'] = [
                    {'topology': c['Topology'], 'size': c['Size']} for c in args]
        elif name == 'SetMinimumCount':
            o['minCount'] = args[0]
        elif name == 'Toleration':
            t = args[0]
            tol = {}
            for gk, yk in (('Key', 'key'), ('Operator', 'operator'), ('Value', 'value'), ('Effect', 'effect')):
                if t.get(gk):
                    tol[yk] = t[gk]
            tspec.setdefault('tolerations', []).append(tol)
        elif name == 'NodeSelector':
            tspec['nodeSelector'] = dict(args[0])
        elif name == 'RequiredDuringSchedulingIgnoredDuringExecution':
            terms = tspec.setdefault('affinity', {}).setdefault('nodeAffinity', {}).setdefault(
                'requiredDuringSchedulingIgnoredDuringExecution', {}).setdefault('nodeSelectorTerms', [])
            for t in args[0]:
                if t.get('MatchFields'):
                    raise Untranslatable("node affinity matchFields")
                terms.append({'matchExpressions': [
                    {'key': e['Key'], 'operator': e['Operator'], 'values': list(e.get('Values', []))}
                    for e in t.get('MatchExpressions', [])]})
        else:
            raise Untranslatable("podset builder ." + name)
        return v
    if k == 'sadm':
        if name == 'PodSets':
            o['podSetAssignments'] = list(args)
        else:
            raise Untranslatable("admission builder ." + name)
        return v
    if k == 'spsa':
        if name == 'Assignment':
            o['flavors'][args[0]] = args[1]
            o['resourceUsage'][args[0]] = args[2]
        elif name == 'Flavor':
            o['flavors'][args[0]] = args[1]
        elif name == 'ResourceUsage':
            o['resourceUsage'][args[0]] = args[1]
        elif name == 'Count':
            o['count'] = args[0]
        elif name == 'TopologyAssignment':
            o['topologyAssignment'] = args[0]
        elif name == 'DelayedTopologyRequest':
            o['delayedTopologyRequest'] = args[0]
        else:
            raise Untranslatable("podset assignment builder ." + name)
        return v
    if k == 'sta':
        if name == 'Domain':
            o['domains'].append(args[0])
        elif name == 'Domains':
            o['domains'].extend(args)
        else:
            raise Untranslatable("topology assignment builder ." + name)
        return v
    if k == 'tda':
        raise Untranslatable("topology domain builder ." + name)
    if k == 'topo':
        if name == 'Levels':
            o['spec']['levels'] = [{'nodeLabel': lv} for lv in args]
        else:
            raise Untranslatable("topology builder ." + name)
        return v
    if k == 'rf':
        if name == 'NodeLabel':
            o['spec']['nodeLabels'][args[0]] = args[1]
        elif name == 'TopologyName':
            o['spec']['topologyName'] = args[0]
        elif name == 'Taint':
            t = args[0]
            o['spec'].setdefault('nodeTaints', []).append(
                {'key': t.get('Key', ''), 'value': t.get('Value', ''), 'effect': t.get('Effect', '')})
        elif name == 'Toleration':
            t = args[0]
            o['spec'].setdefault('tolerations', []).append(
                {yk: t[gk] for gk, yk in (('Key', 'key'), ('Operator', 'operator'), ('Value', 'value'),
                                          ('Effect', 'effect')) if t.get(gk)})
        else:
            raise Untranslatable("resource flavor builder ." + name)
        return v
    if k == 'cq' or k == 'cohort':
        spec = o['spec']
        if name == 'ResourceGroup':
            flavors = list(args)
            covered = [r['name'] for r in flavors[0]['resources']] if flavors else []
            spec.setdefault('resourceGroups', []).append({'coveredResources': covered, 'flavors': flavors})
        elif name == 'Cohort' and k == 'cq':
            spec['cohortName'] = args[0]
        elif name == 'Parent' and k == 'cohort':
            spec['parentName'] = args[0]
        elif name == 'Preemption' and k == 'cq':
            p = args[0]
            pre = {}
            if p.get('WithinClusterQueue'):
                pre['withinClusterQueue'] = p['WithinClusterQueue']
            if p.get('ReclaimWithinCohort'):
                pre['reclaimWithinCohort'] = p['ReclaimWithinCohort']
            if p.get('BorrowWithinCohort'):
                b = p['BorrowWithinCohort']
                bw = {'policy': b.get('Policy', 'Never')}
                if b.get('MaxPriorityThreshold') is not None:
                    bw['maxPriorityThreshold'] = b['MaxPriorityThreshold']
                pre['borrowWithinCohort'] = bw
            extra = set(p) - {'WithinClusterQueue', 'ReclaimWithinCohort', 'BorrowWithinCohort'}
            if extra:
                raise Untranslatable("preemption fields %s" % sorted(extra))
            spec['preemption'] = pre
        elif name == 'AdmissionChecks' and k == 'cq':
            spec['admissionChecksStrategy'] = {'admissionChecks': [{'name': a} for a in args]}
        elif name == 'AdmissionCheckStrategy' and k == 'cq':
            rules = []
            for a in args:
                rule = {'name': a['Name']}
                if a.get('OnFlavors'):
                    rule['onFlavors'] = list(a['OnFlavors'])
                rules.append(rule)
            spec['admissionChecksStrategy'] = {'admissionChecks': rules}
        else:
            raise Untranslatable("%s builder .%s" % ('cluster queue' if k == 'cq' else 'cohort', name))
        return v
    if k == 'fq':
        if name == 'Resource':
            rq = {'name': args[0]}
            qs = args[1:]
            if len(qs) > 0:
                rq['nominalQuota'] = qs[0]
            if len(qs) > 1 and qs[1]:
                rq['borrowingLimit'] = qs[1]
            if len(qs) > 2 and qs[2]:
                rq['lendingLimit'] = qs[2]
            o['resources'].append(rq)
        elif name == 'ResourceQuotaWrapper':
            return Builder('rq', {'parent': o, 'rq': {'name': args[0]}})
        else:
            raise Untranslatable("flavor quotas builder ." + name)
        return v
    if k == 'rq':
        if name == 'NominalQuota':
            o['rq']['nominalQuota'] = args[0]
        elif name == 'BorrowingLimit':
            o['rq']['borrowingLimit'] = args[0]
        elif name == 'LendingLimit':
            o['rq']['lendingLimit'] = args[0]
        elif name == 'Append':
            o['parent']['resources'].append(o['rq'])
            return Builder('fq', o['parent'])
        else:
            raise Untranslatable("resource quota builder ." + name)
        return v
    if k == 'lq':
        if name == 'ClusterQueue':
            o['spec']['clusterQueue'] = args[0]
        else:
            raise Untranslatable("local queue builder ." + name)
        return v
    if k == 'ac':
        if name == 'ControllerName':
            o['spec']['controllerName'] = args[0]
        elif name == 'Condition':
            o['status']['conditions'].append(condition(args[0]))
        else:
            raise Untranslatable("admission check builder ." + name)
        return v
    if k == 'event':
        if name == 'Message':
            o['message'] = args[0]
        else:
            raise Untranslatable("event builder ." + name)
        return v
    raise Untranslatable("builder %s .%s" % (k, name))


# tda builders end with .Obj() -> dict; fix the generic Obj above for them
# (MakeTopologyDomainAssignment(...).Obj() returns the domain itself).


# ---------------------------------------------------------------- objects
def node_manifest(n):
    meta = {'name': n['name']}
    if n.get('labels'):
        meta['labels'] = dict(n['labels'])
    out = {'apiVersion': 'v1', 'kind': 'Node', 'metadata': meta}
    spec = {}
    if n.get('unschedulable'):
        spec['unschedulable'] = True
    if n.get('taints'):
        spec['taints'] = [{k: t[k] for k in ('key', 'value', 'effect') if t.get(k)} for t in n['taints']]
    if spec:
        out['spec'] = spec
    # testingnode's builder: only .Ready() adds the Ready=True condition; a
    # node without it is not ready for Kueue's TAS cache.
    out['status'] = {'allocatable': dict(n.get('allocatable', {})),
                     'conditions': [{'type': 'Ready', 'status': 'True' if n.get('ready') else 'False'}]}
    return out


def pod_manifest(p):
    out = {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': p['name'], 'namespace': 'default'},
           'spec': {'containers': [{'name': 'c', 'resources': {'requests': dict(p.get('requests', {}))}}]}}
    if p.get('node'):
        out['spec']['nodeName'] = p['node']
    if p.get('phase'):
        out['status'] = {'phase': p['phase']}
    return out


def norm_ta(ta):
    return {'levels': list(ta['levels']), 'domains': [{'values': list(d['values']), 'count': d['count']}
                                                       for d in ta['domains']]}


def workload_manifest(w):
    import copy
    w = copy.deepcopy(w)
    if not w['status']:
        del w['status']
    adm = w.get('status', {}).get('admission')
    if adm:
        for psa in adm['podSetAssignments']:
            if psa.get('topologyAssignment'):
                psa['topologyAssignment'] = norm_ta(psa['topologyAssignment'])
    return w


def admission_expect(adm):
    out = {'clusterQueue': adm['clusterQueue'], 'podSets': []}
    for psa in adm['podSetAssignments']:
        p = {'name': psa['name'], 'count': psa['count'], 'flavors': dict(psa['flavors']),
             'resourceUsage': dict(psa['resourceUsage'])}
        if psa.get('topologyAssignment') is not None:
            p['topologyAssignment'] = norm_ta(psa['topologyAssignment'])
        if psa.get('delayedTopologyRequest'):
            p['delayedTopologyRequest'] = psa['delayedTopologyRequest']
        out['podSets'].append(p)
    return out


def key(w):
    return w['metadata']['namespace'] + '/' + w['metadata']['name']


def cond(w, t):
    for c in w.get('status', {}).get('conditions', []):
        if c['type'] == t:
            return c
    return None


QR_REASONS = {'WaitingForQuota', 'WaitingForPreemptedWorkloads', 'TopologyPlacementFailed', 'NoMatchingFlavor',
              'ExceedsMaxQuota', 'Misconfigured', 'Pending'}


def translate(name, tc, env, table):
    out = {'name': name}
    gates = {}
    for g, val in (tc.get('featureGates') or {}).items():
        if g not in GATE_DEFAULTS:
            raise Untranslatable("feature gate %s=%s (default not recorded)" % (g, str(val).lower()))
        if val != GATE_DEFAULTS[g]:
            gates[g] = val
    if gates:
        out['gates'] = gates
        if set(gates) - {'TASCacheNodeMatchResults', 'TASCachingRemainingResources'}:
            raise Untranslatable("feature gate %s set away from its default; queueforge cannot switch it" %
                                 ', '.join('%s=%s' % (g, str(v).lower()) for g, v in sorted(gates.items())))
    if tc.get('patchStatusErr') is not None:
        raise Untranslatable("patchStatusErr: the API server rejects the status patch (an injected client error)")
    config = None
    if tc.get('resourceTransformations'):
        trs = []
        for t in tc['resourceTransformations']:
            tr = {'input': t['Input'], 'strategy': t.get('Strategy') or 'Retain',
                  'outputs': resources(t.get('Outputs') or {})}
            if set(t) - {'Input', 'Strategy', 'Outputs'}:
                raise Untranslatable("resource transformation fields %s" % sorted(t))
            trs.append(tr)
        # the test gives them to the cache and the queue manager; Kueue's
        # Configuration.resources.transformations does the same
        config = {'apiVersion': 'config.kueue.x-k8s.io/v1beta2', 'kind': 'Configuration',
                  'resources': {'transformations': trs}}

    objects = [{'apiVersion': 'v1', 'kind': 'Namespace', 'metadata': {'name': 'default'}}]
    if config:
        objects.append(config)
    for n in tc.get('nodes') or []:
        objects.append(node_manifest(n))
    for p in tc.get('pods') or []:
        objects.append(pod_manifest(p))
    topologies = {t['metadata']['name']: t for t in tc.get('topologies') or []}
    added_topologies = set()
    for rf in tc.get('resourceFlavors') or []:
        objects.append(rf)
        tn = rf['spec'].get('topologyName')
        # the harness adds the topology of each TAS flavor (and only those)
        if tn and tn in topologies and tn not in added_topologies:
            added_topologies.add(tn)
    for tn in sorted(added_topologies):
        objects.append(topologies[tn])
    for ac in tc.get('admissionChecks') or []:
        objects.append(ac)
    for c in tc.get('cohorts') or []:
        objects.append(c)
    for cq in tc.get('clusterQueues') or []:
        objects.append(cq)
    for lq in env['queues']:
        objects.append(lq)
    wls = tc.get('workloads') or []
    for w in wls:
        objects.append(workload_manifest(w))
    # The objects as the manifest stream they are (read by the runner as a
    # file of manifests).
    out['objects'] = Manifests(yaml.safe_dump_all(objects, sort_keys=False, width=120, allow_unicode=True,
                                                  explicit_start=True))

    exp = {}
    held = {key(w) for w in wls if w.get('status', {}).get('admission') and
            (cond(w, 'QuotaReserved') or {}).get('status') == 'True'}
    admitted = {}
    for k, adm in (tc.get('wantNewAssignments') or {}).items():
        admitted[k] = admission_expect(adm)
    exp['admitted'] = admitted
    # The harness leaves out of its new-assignment summary the workloads that
    # were admitted (Admitted=True) before the cycle; TestScheduleForTAS keeps
    # those with unhealthy nodes in it (their placement may be replaced).
    initially = sorted(key(w) for w in wls if (cond(w, 'Admitted') or {}).get('status') == 'True' and not (
        table == 'TestScheduleForTAS' and w.get('status', {}).get('unhealthyNodes')))
    if initially:
        exp['initiallyAdmitted'] = initially
    events = []
    ignore_message = 'IgnoreMessage' in (tc.get('eventCmpOpts') or [])
    for e in tc.get('wantEvents') or []:
        ev = {'object': e['namespace'] + '/' + e['name'], 'reason': e['reason'], 'type': e['type']}
        if not ignore_message:
            ev['message'] = e.get('message', '')
        events.append(ev)
    # Pending: every workload that holds no quota after the cycle.
    pending = {}
    preempted = {}
    want = {key(w): w for w in tc.get('wantWorkloads') or []}
    for w in wls:
        k = key(w)
        if k in admitted:
            continue
        if k in want:
            ww = want[k]
            qr = cond(ww, 'QuotaReserved')
            ev = cond(ww, 'Evicted')
            pc = cond(ww, 'Preempted')
            if ev and ev['status'] == 'True' and ev.get('reason') == 'Preempted' and k in held:
                preempted[k] = {'reason': (pc or {}).get('reason', ''), 'message': (pc or {}).get('message', '')}
                continue
            if k in held and ww.get('status', {}).get('admission'):
                continue  # still holds quota
            entry = {}
            if qr and qr['status'] == 'False':
                entry = {'reason': qr.get('reason', ''), 'message': qr.get('message', '')}
            pending[k] = entry
            continue
        if k in held:
            # TestScheduleForTAS: a held workload is preempted when the test expects its eviction events
            evs = [e for e in events if e['object'] == k and e['reason'] in ('EvictedDueToPreempted', 'Preempted')]
            if evs:
                p = {}
                for e in evs:
                    if e['reason'] == 'EvictedDueToPreempted' and 'message' in e:
                        p['message'] = e['message']
                preempted[k] = p
            continue
        entry = {}
        for e in events:
            if e['object'] == k and e['type'] == 'Warning' and e['reason'] in QR_REASONS:
                entry['reason'] = e['reason']
                if 'message' in e:
                    entry['message'] = e['message']
        pending[k] = entry
    if table != 'TestScheduleForTAS' and not want and tc.get('wantWorkloads') is None:
        pass
    exp['pending'] = pending
    exp['preempted'] = preempted
    queues = {}
    if tc.get('wantLeft'):
        queues['active'] = {cq: list(v) for cq, v in tc['wantLeft'].items()}
    if tc.get('wantInadmissibleLeft'):
        queues['inadmissible'] = {cq: list(v) for cq, v in tc['wantInadmissibleLeft'].items()}
    if queues:
        exp['queues'] = queues
    if events:
        exp['events'] = events
    out['expect'] = exp
    return out


# ---------------------------------------------------------------- tables
def read_cases(body, env, table):
    toks = tk.tokenize(body)
    i = 0
    table_at = None
    while i < len(toks):
        if toks[i] == ('i', 'const') and toks[i + 1] == ('o', '('):
            i += 2
            while toks[i] != ('o', ')'):
                env[toks[i][1]] = toks[i + 2][1]
                i += 3
            i += 1
            continue
        if toks[i][0] == 'i' and toks[i + 1] == ('o', ':='):
            if toks[i][1] == 'cases':
                table_at = i + 2
                break
            p = SParser(toks, env)
            p.i = i + 2
            try:
                env[toks[i][1]] = p.expr()
            except (Untranslatable, SyntaxError) as e:
                env[toks[i][1]] = Unavailable(str(e))
                depth = 0
                j = i + 2
                # skip the statement: to the end of the line's balanced expression
                while True:
                    if toks[j] in (('o', '{'), ('o', '(')):
                        depth += 1
                    elif toks[j] in (('o', '}'), ('o', ')')):
                        depth -= 1
                    j += 1
                    if depth == 0 and toks[j][0] == 'i' and toks[j + 1] == ('o', ':='):
                        break
                p.i = j
            i = p.i
            continue
        i += 1
    i = table_at
    # map[string]struct{...}{  or  map[string]tasScheduleTestCase{
    while toks[i] != ('o', '{'):
        i += 1
    if toks[i - 1] == ('i', 'struct'):
        i = tk.block_end(toks, i)
    assert toks[i] == ('o', '{'), toks[i]
    i += 1
    cases, skipped = [], []
    while toks[i] != ('o', '}'):
        name = toks[i][1]
        assert toks[i + 1] == ('o', ':')
        j = tk.block_end(toks, i + 2)
        try:
            case_env = dict(env)
            case_env['__hand__'] = None
            p = SParser(toks[i + 2:j], case_env)
            tc = p.composite('')
            check_available(tc)
            cases.append(translate(name, tc, env, table))
        except (Untranslatable, SyntaxError) as e:
            skipped.append({'name': name, 'reason': str(e)})
        i = j
        if toks[i] == ('o', ','):
            i += 1
    return cases, skipped


class Manifests(str):
    pass


yaml.SafeDumper.add_representer(Manifests, lambda d, v: d.represent_scalar('tag:yaml.org,2002:str', v, style='|'))


class Unavailable:
    def __init__(self, why):
        self.why = why


def check_available(v):
    if isinstance(v, Unavailable):
        raise Untranslatable(v.why)
    if isinstance(v, Builder):
        raise Untranslatable("a builder not finished with .Obj(): " + v.kind)
    if isinstance(v, dict):
        for x in v.values():
            check_available(x)
    elif isinstance(v, list):
        for x in v:
            check_available(x)


def main():
    path, commit, table = sys.argv[1], sys.argv[2], sys.argv[3]
    if not path.endswith('.go'):
        path += '/pkg/scheduler/scheduler_tas_test.go'
    text = open(path).read()
    start = text.index('func %s(t *testing.T)' % table)
    end = text.index('\nfunc ', start + 10)
    env = {}
    cases, skipped = read_cases(text[start:end], env, table)
    here = os.path.dirname(os.path.abspath(__file__))
    known = yaml.safe_load(open(os.path.join(here, 'known_failing.yaml'))) or {}
    known = known.get(table) or {}
    for c in cases:
        if c['name'] in known:
            c['knownFailing'] = known[c['name']]
    doc = {
        'source': 'kubernetes-sigs/kueue pkg/scheduler/scheduler_tas_test.go ' + table,
        'commit': commit,
        'now': ts(Time(NOW)),
        'tableCases': len(cases) + len(skipped),
        'translated': len(cases),
        'cases': cases,
        'inexpressible': skipped,
    }
    print("# Generated by translate_kueue_tas_sched.py from Kueue's test table (data only); see README.md.")
    yaml.safe_dump(doc, sys.stdout, sort_keys=False, width=120, allow_unicode=True)


if __name__ == '__main__':
    main()
