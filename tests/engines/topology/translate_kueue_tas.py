#!/usr/bin/env python3
"""Translate the table of Kueue's TestFindTopologyAssignments into data.

Reads pkg/cache/scheduler/tas_cache_test.go of kubernetes-sigs/kueue (the
commit is given on the command line and recorded in the output) and writes
find_topology_assignments.yaml: one entry per table case with the nodes, the
non-TAS pods, the levels, the flavor's node labels, the podsets and the
expected assignment or failure reason, or the reason the case cannot be
expressed. Only the data of the table is read (Go composite literals and the
test builders' calls are interpreted as values); no Kueue code is reproduced.

    python3 translate_kueue_tas.py <kueue checkout or tas_cache_test.go> <commit> [table] > <table>.yaml

with table TestFindTopologyAssignments (the default, written to
find_topology_assignments.yaml) or TestFindTopologyAssignmentsMultiLayerReplacement
(find_topology_assignments_multilayer_replacement.yaml).
"""
import re
import sys

import yaml


# ---------------------------------------------------------------- tokens
TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\])*"|`[^`]*`)
  | (?P<num>-?\d+(?:\.\d+)?)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>:=|\.\.\.|==|!=|&&|\|\||[^\sA-Za-z0-9_"`])
''', re.S | re.X)


def tokenize(text):
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SyntaxError("bad character %r at %d" % (text[pos], pos))
        pos = m.end()
        if m.lastgroup == 'ws':
            continue
        v = m.group(m.lastgroup)
        if m.lastgroup == 'str':
            v = ('s', yaml.safe_load(v) if v.startswith('"') else v[1:-1])
        elif m.lastgroup == 'num':
            v = ('n', int(v) if '.' not in v else float(v))
        elif m.lastgroup == 'id':
            v = ('i', v)
        else:
            v = ('o', v)
        out.append(v)
    return out


# Field names of the tables' case structs (never evaluated as variables).
FIELDS = {'featureGates', 'nodes', 'pods', 'levels', 'nodeLabels', 'aggregatedDomainUsages', 'priorFlavorUsage',
          'priorOwnUsage', 'workload', 'podSets', 'podSetName', 'topologyRequest', 'requests', 'count', 'tolerations',
          'nodeSelector', 'nodeAffinity', 'podSetGroupName', 'previousAssignment', 'wantAssignment', 'wantReason',
          'existingTA', 'admissionCount', 'unhealthyNode'}


class Untranslatable(Exception):
    pass


# ---------------------------------------------------------------- values
class Call:
    def __init__(self, name, args):
        self.name, self.args = name, args


class Builder:
    """A test builder (MakeNode, MakePod, ...) being configured."""

    def __init__(self, kind, obj):
        self.kind, self.obj = kind, obj


CONSTS = {
    'corev1.LabelHostname': 'kubernetes.io/hostname',
    'corev1.ResourceCPU': 'cpu', 'corev1.ResourceMemory': 'memory', 'corev1.ResourcePods': 'pods',
    'corev1.TaintEffectNoSchedule': 'NoSchedule', 'corev1.TaintEffectNoExecute': 'NoExecute',
    'corev1.TaintEffectPreferNoSchedule': 'PreferNoSchedule',
    'corev1.TolerationOpEqual': 'Equal', 'corev1.TolerationOpExists': 'Exists',
    'corev1.NodeSelectorOpIn': 'In', 'corev1.NodeSelectorOpNotIn': 'NotIn',
    'corev1.NodeSelectorOpExists': 'Exists', 'corev1.NodeSelectorOpDoesNotExist': 'DoesNotExist',
    'corev1.NodeSelectorOpGt': 'Gt', 'corev1.NodeSelectorOpLt': 'Lt',
    'corev1.PodRunning': 'Running', 'corev1.PodPending': 'Pending', 'corev1.PodSucceeded': 'Succeeded',
    'corev1.PodFailed': 'Failed', 'corev1.NodeNetworkUnavailable': 'NetworkUnavailable',
    'corev1.NodeReady': 'Ready', 'corev1.ConditionTrue': 'True', 'corev1.ConditionFalse': 'False',
    'true': True, 'false': False, 'nil': None,
    'podconstants.IsGroupWorkloadAnnotationKey': 'kueue.x-k8s.io/is-group-workload',
    'podconstants.IsGroupWorkloadAnnotationValue': 'true',
}


class Parser:
    def __init__(self, toks, env):
        self.t, self.i, self.env = toks, 0, env

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ('o', '<eof>')

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok != ('o', want):
            raise SyntaxError("expected %r, got %r" % (want, tok))
        self.i += 1
        return tok

    def at(self, op):
        return self.peek() == ('o', op)

    # A type in front of a composite literal: []T, map[K]V, pkg.T, T
    def parse_type(self):
        parts = []
        while True:
            tok = self.peek()
            if tok in (('o', '['), ('o', ']'), ('o', '*'), ('o', '.')) or tok[0] == 'i':
                parts.append(tok[1])
                self.i += 1
                if tok == ('o', '['):
                    # map[key] or []
                    continue
            else:
                break
            if self.at('{'):
                break
        return ''.join(parts)

    def composite(self, typ):
        self.take('{')
        keyed, items = {}, []
        while not self.at('}'):
            tok = self.peek()
            if tok[0] == 'i' and self.peek(1) == ('o', ':') and (tok[1] in FIELDS or (
                    tok[1] not in self.env and tok[1] not in CONSTS)):
                self.i += 1
                v = tok[1]  # a struct field name
            elif self.at('{'):
                v = self.composite('')
            else:
                v = self.expr()
            if self.at(':'):
                self.take(':')
                val = self.composite('') if self.at('{') else self.expr()
                key = v
                keyed[key if not isinstance(key, list) else tuple(key)] = val
            else:
                items.append(v)
            if self.at(','):
                self.take(',')
        self.take('}')
        if keyed and items:
            raise SyntaxError("mixed composite")
        return keyed if keyed else items if items or typ.startswith('[]') else {}

    def expr(self):
        v = self.unary()
        while self.at('+') or self.at('*'):
            op = self.take()[1]
            w = self.unary()
            v = v + w if op == '+' else v * w
        return v

    def unary(self):
        if self.at('&') or self.at('*'):
            self.take()
            return self.unary()
        return self.postfix(self.primary())

    def primary(self):
        tok = self.peek()
        if tok[0] in ('s', 'n'):
            self.i += 1
            return tok[1]
        if tok == ('o', '['):
            typ = self.parse_type()
            return self.composite(typ)
        if tok == ('o', '('):
            self.take('(')
            v = self.expr()
            self.take(')')
            return v
        if tok[0] == 'i':
            if tok[1] == 'func':
                if self.env.get('__hand__') is None:
                    raise Untranslatable("built by a Go function literal (computed in code)")
                # func() T { ... }(): replaced by the hand translation of the case
                j = self.i
                while self.t[j] != ('o', '{'):
                    j += 1
                j = block_end(self.t, j)
                if self.t[j:j + 2] != [('o', '('), ('o', ')')]:
                    raise Untranslatable("function literal not called in place")
                self.i = j + 2
                return self.env['__hand__']
            if tok[1] == 'map':
                typ = self.parse_type()
                return self.composite(typ)
            name = tok[1]
            self.i += 1
            while self.at('.') and self.peek(1)[0] == 'i':
                self.take('.')
                name += '.' + self.take()[1]
            if self.at('{'):
                return self.composite(name)
            if self.at('('):
                args = self.args()
                return self.call(name, args)
            return self.ident(name)
        raise SyntaxError("unexpected %r" % (tok,))

    def args(self):
        self.take('(')
        out = []
        while not self.at(')'):
            out.append(self.composite('') if self.at('{') else self.expr())
            if self.at('...'):
                self.take('...')
            if self.at(','):
                self.take(',')
        self.take(')')
        return out

    def ident(self, name):
        if name in self.env and not name.startswith('__'):
            return self.env[name]
        if name == 'corev1.SchemeGroupVersion':
            return Builder('gv', {'apiVersion': 'v1'})
        if name in CONSTS:
            return CONSTS[name]
        if name.startswith('features.'):
            return name[len('features.'):]
        raise Untranslatable("unknown identifier " + name)

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
        short = name.split('.')[-1]
        if name in ('new', 'ptr.To', 'tas.V1Beta2From'):
            return args[0]
        if name in ('int32', 'int64', 'string', 'corev1.ResourceName', 'kueue.PodSetReference', 'tas.TopologyDomainID'):
            return args[0]
        if name == 'resource.MustParse':
            return {'quantity': args[0]}
        if short == 'MakeNode':
            return Builder('node', {'name': args[0], 'labels': {}, 'ready': False})
        if short == 'MakePod':
            return Builder('pod', {'name': args[0], 'requests': {}})
        if name == 'corev1.SchemeGroupVersion.WithKind':
            return {'apiVersion': 'v1', 'kind': args[0]}
        if short == 'MakeWorkload':
            return Builder('wl', {'owners': [], 'annotations': {}, 'unhealthy': [], 'admission': None})
        if short == 'MakeAdmission':
            return Builder('adm', {'podSets': []})
        if short == 'MakePodSetAssignment':
            return Builder('psa', {'name': args[0]})
        if short == 'MakeTopologyAssignment':
            return Builder('ta', {'levels': list(args[0]), 'domains': []})
        if name == 'append':
            return list(args[0]) + [x for a in args[1:] for x in (a if isinstance(a, list) else [a])]
        if short == 'MakeNodeSelectorTerms':
            return Builder('terms', [])
        if short == 'MakePreferredSchedulingTerms':
            return Builder('preferred', [])
        if name in ('resources.NewRequestsFromMap', 'resources.MapRequests'):
            return args[0]
        raise Untranslatable("calls " + name)


def field(v, name):
    if isinstance(v, Builder) and v.kind == 'ta' and name == 'TopologyAssignment':
        return {'Levels': v.obj['levels'], 'Domains': v.obj['domains']}
    raise Untranslatable("field access ." + name)


def quantity(q):
    if isinstance(q, dict) and 'quantity' in q:
        return q['quantity']
    if isinstance(q, str):
        return q
    raise Untranslatable("quantity %r" % (q,))


def method(v, name, args):
    if not isinstance(v, Builder):
        raise Untranslatable("method ." + name)
    o = v.obj
    if v.kind == 'node':
        if name == 'Label':
            o['labels'][args[0]] = args[1]
        elif name == 'StatusAllocatable':
            o['allocatable'] = {k: quantity(q) for k, q in args[0].items()}
        elif name == 'Ready':
            o['ready'] = True
        elif name == 'NotReady':
            o['ready'] = False
        elif name == 'Unschedulable':
            o['unschedulable'] = True
        elif name == 'Taints':
            o.setdefault('taints', [])
            for t in args:
                o['taints'].append({'key': t.get('Key', ''), 'value': t.get('Value', ''), 'effect': t.get('Effect', '')})
        elif name == 'StatusConditions':
            for c in args:
                if c.get('Type') == 'Ready':
                    o['ready'] = c.get('Status') == 'True'
        elif name == 'Obj':
            return dict(o)
        else:
            raise Untranslatable("node builder ." + name)
        return v
    if v.kind == 'pod':
        if name == 'NodeName':
            o['node'] = args[0]
        elif name == 'Request':
            o['requests'][args[0]] = args[1]
        elif name == 'StatusPhase':
            o['phase'] = args[0]
        elif name == 'Obj':
            return dict(o)
        else:
            raise Untranslatable("pod builder ." + name)
        return v
    if v.kind == 'ta':
        if name == 'Domain':
            o['domains'].append(args[0])
        elif name == 'Obj':
            return {'Levels': o['levels'], 'Domains': o['domains']}
        else:
            raise Untranslatable("assignment builder ." + name)
        return v
    if v.kind == 'gv':
        if name == 'WithKind':
            return {'apiVersion': o['apiVersion'], 'kind': args[0]}
        raise Untranslatable("group version ." + name)
    if v.kind == 'wl':
        if name == 'OwnerReference':
            gvk = args[0]
            if 'Kind' in gvk:  # schema.GroupVersionKind{Group, Version, Kind}
                gvk = {'apiVersion': (gvk['Group'] + '/' if gvk.get('Group') else '') + gvk['Version'],
                       'kind': gvk['Kind']}
            o['owners'].append(gvk)
        elif name == 'Admission':
            o['admission'] = args[0]
        elif name == 'UnhealthyNodes':
            o['unhealthy'].extend(args)
        elif name == 'Annotations':
            o['annotations'].update(args[0])
        elif name == 'Obj':
            return dict(o)
        else:
            raise Untranslatable("workload builder ." + name)
        return v
    if v.kind == 'adm':
        if name == 'PodSets':
            o['podSets'].extend(args)
        elif name == 'Obj':
            return dict(o)
        else:
            raise Untranslatable("admission builder ." + name)
        return v
    if v.kind == 'psa':
        if name == 'Count':
            o['count'] = args[0]
        elif name == 'TopologyAssignment':
            o['ta'] = args[0]
        elif name == 'Obj':
            return dict(o)
        else:
            raise Untranslatable("podset assignment builder ." + name)
        return v
    if v.kind == 'terms':
        if name == 'Term':
            o.append({'MatchExpressions': [{'Key': args[0], 'Operator': args[1], 'Values': list(args[2:])}]})
        elif name == 'Obj':
            return list(o)
        else:
            raise Untranslatable("node selector terms builder ." + name)
        return v
    if v.kind == 'preferred':
        if name == 'Term':
            o.append({'Weight': args[0], 'Preference': {
                'MatchExpressions': [{'Key': args[1], 'Operator': args[2], 'Values': list(args[3:])}]}})
        elif name == 'Obj':
            return list(o)
        else:
            raise Untranslatable("preferred scheduling terms builder ." + name)
        return v
    raise Untranslatable("builder " + v.kind)


# ---------------------------------------------------------------- cases
def block_end(toks, i):
    """Index just after the balanced {...} starting at toks[i]."""
    depth = 0
    while True:
        if toks[i] == ('o', '{'):
            depth += 1
        elif toks[i] == ('o', '}'):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def kueue_amount(resource, v):
    """int64 of a MapRequests (cpu in milli) as a quantity string."""
    if resource == 'cpu':
        return '%dm' % v
    return str(v)


MODELLED_GATES = {
    # gate: (default at the commit, how the case expresses a non-default)
    'TASProfileMixed': True,
    'TASMultiLayerTopology': True,
    'TASCacheNodeMatchResults': True,
}


def translate_case(name, tc):
    out = {'name': name}
    gates = tc.get('featureGates', {})
    options = {}
    for g, v in gates.items():
        if g == 'TASProfileMixed':
            if not v:
                options['profileMixed'] = False
        elif g in ('TASCacheNodeMatchResults',):
            pass  # an optimisation: same placements either way
        elif g == 'TASMultiLayerTopology' and v:
            pass  # the default
        elif g == 'ElasticJobsViaWorkloadSlicesWithTAS':
            if v:
                options['elasticWorkloadSlices'] = True
        elif g == 'SkipReassignmentForPodOwnedWorkloads':
            if not v:
                options['skipReassignmentForPodOwned'] = False
        elif g == 'ElasticJobsViaWorkloadSlices':
            pass  # the job-level gate; the TAS behaviour follows the one above
        elif g == 'TASBalancedPlacement':
            if v:
                options['balancedPlacement'] = True
        elif g == 'TASRespectNodeAffinityPreferred':
            if v:
                options['respectPreferredAffinity'] = True
        else:
            raise Untranslatable("feature gate %s=%s (not modelled)" % (g, str(v).lower()))
    current = {}
    wl = tc.get('workload')
    if wl is not None:
        if not wl['unhealthy']:
            raise Untranslatable("a workload without unhealthy nodes: not translated")
        owners = wl['owners']
        # workload.OwnedBySinglePod: one owner, a v1 Pod, not a pod group
        single = (len(owners) == 1 and owners[0] == {'apiVersion': 'v1', 'kind': 'Pod'} and
                  wl['annotations'].get('kueue.x-k8s.io/is-group-workload') != 'true')
        out['replacement'] = {'unhealthyNode': wl['unhealthy'][0], 'ownedBySinglePod': single}
        for psa in (wl['admission'] or {}).get('podSets', []):
            if psa.get('ta') is not None:
                current[psa['name']] = psa['ta']
    if tc.get('aggregatedDomainUsages'):
        raise Untranslatable("aggregatedDomainUsages given directly: not modelled")
    prior = []
    # priorOwnUsage: TAS workloads already admitted in this flavor.
    # priorFlavorUsage: TAS workloads of another flavor on the same nodes,
    # which the harness applies (TASHandleOverlappingFlavors) only when the
    # hostname is the lowest level.
    for u in tc.get('priorOwnUsage') or []:
        prior.append(u)
    if tc.get('priorFlavorUsage'):
        if tc['levels'][-1] != 'kubernetes.io/hostname':
            raise Untranslatable("priorFlavorUsage on a topology without hostname (ignored by Kueue): not translated")
        prior.extend(tc['priorFlavorUsage'])
    if options:
        out['options'] = options
    out['levels'] = list(tc['levels'])
    if tc.get('nodeLabels'):
        out['flavorNodeLabels'] = dict(tc['nodeLabels'])
    out['nodes'] = []
    for n in tc.get('nodes', []):
        node = {'name': n['name'], 'labels': n['labels'], 'allocatable': n.get('allocatable', {})}
        if not n.get('ready'):
            node['ready'] = False
        if n.get('unschedulable'):
            node['unschedulable'] = True
        if n.get('taints'):
            node['taints'] = n['taints']
        out['nodes'].append(node)
    if tc.get('pods'):
        out['pods'] = []
        for p in tc['pods']:
            pod = {'name': p['name'], 'node': p.get('node', ''), 'requests': p['requests']}
            if 'phase' in p:
                pod['phase'] = p['phase']
            out['pods'].append(pod)
    if prior:
        out['priorTasUsage'] = [{'values': list(u['Values']), 'count': u['Count'],
                                 'requests': {r: kueue_amount(r, v) for r, v in u['SinglePodRequests'].items()}}
                                for u in prior]
    out['podSets'] = []
    for ps in tc['podSets']:
        aff = ps.get('nodeAffinity')
        p = {'name': ps.get('podSetName', 'main'), 'count': ps.get('count', 0)}
        p['requests'] = {r: kueue_amount(r, v) for r, v in ps.get('requests', {}).items()}
        tr = ps.get('topologyRequest')
        if tr is not None:
            req = {}
            for k, v in tr.items():
                if k == 'Required':
                    req['required'] = v
                elif k == 'Preferred':
                    req['preferred'] = v
                elif k == 'Unconstrained':
                    req['unconstrained'] = v
                elif k == 'PodSetSliceRequiredTopology':
                    req['sliceRequiredTopology'] = v
                elif k == 'PodSetSliceSize':
                    req['sliceSize'] = v
                elif k == 'PodsetSliceRequiredTopologyConstraints':
                    req['sliceConstraints'] = [{'topology': c['Topology'], 'size': c['Size']} for c in v]
                elif k in ('PodIndexLabel', 'SubGroupIndexLabel', 'SubGroupCount'):
                    pass  # not read by the placement
                else:
                    raise Untranslatable("topology request field " + k)
            p['topologyRequest'] = req
        if ps.get('tolerations'):
            p['tolerations'] = [{'key': t.get('Key', ''), 'operator': t.get('Operator', 'Equal'),
                                 'value': t.get('Value', ''), 'effect': t.get('Effect', '')}
                                for t in ps['tolerations']]
        if ps.get('nodeSelector'):
            p['nodeSelector'] = dict(ps['nodeSelector'])
        if aff:
            affinity = {}

            def requirements(term):
                if term.get('MatchFields'):
                    raise Untranslatable("node affinity matchFields")
                return [{'key': e['Key'], 'operator': e['Operator'], 'values': list(e.get('Values', []))}
                        for e in term.get('MatchExpressions', [])]
            req = aff.get('RequiredDuringSchedulingIgnoredDuringExecution')
            if req:
                affinity['required'] = [requirements(t) for t in req.get('NodeSelectorTerms', [])]
            pref = aff.get('PreferredDuringSchedulingIgnoredDuringExecution')
            if pref:
                affinity['preferred'] = [{'weight': t['Weight'], 'preference': requirements(t.get('Preference', {}))}
                                         for t in pref]
            p['nodeAffinity'] = affinity
        cur = current.get(p['name'])
        if cur is not None:
            p['currentAssignment'] = {
                'levels': list(cur['Levels']),
                'domains': [{'values': list(d['Values']), 'count': d['Count']} for d in cur.get('Domains', [])],
            }
        prev = ps.get('previousAssignment')
        if prev is not None:
            p['previousAssignment'] = {
                'levels': list(prev['Levels']),
                'domains': [{'values': list(d['Values']), 'count': d['Count']} for d in prev.get('Domains', [])],
            }
        if ps.get('podSetGroupName') is not None:
            p['groupName'] = ps['podSetGroupName']
        if ps.get('wantReason'):
            p['wantReason'] = ps['wantReason']
        wa = ps.get('wantAssignment')
        if wa is not None:
            p['wantAssignment'] = {
                'levels': list(wa['Levels']),
                'domains': [{'values': list(d['Values']), 'count': d['Count']} for d in wa.get('Domains', [])],
            }
        out['podSets'].append(p)
    return out


# Builders met while reading a case, and what their presence means.
EXPLAIN = {
    'built by a Go function literal (computed in code)': 'nodes generated by a Go loop in the case (not a literal table entry); not translated',
}


def gb200_nodes(env):
    # "multi-layer topology: mimic a real-world GB200 cluster ...": the case
    # builds its nodes in a Go loop over 8 racks (dc, aizone, block, rack) x 18
    # nodes, named block-rack-aizone-n<i>, each with 2 nvidia.com/gpu and 110
    # pods, Ready. Written out here from that loop's literal data.
    racks = [('dc0', 'aizone0', 'block0', 'r0'), ('dc0', 'aizone0', 'block0', 'r1'),
             ('dc0', 'aizone0', 'block1', 'r2'), ('dc0', 'aizone0', 'block1', 'r3'),
             ('dc0', 'aizone1', 'block2', 'r4'), ('dc0', 'aizone1', 'block2', 'r5'),
             ('dc0', 'aizone1', 'block3', 'r6'), ('dc0', 'aizone1', 'block3', 'r7')]
    nodes = []
    for dc, az, block, rack in racks:
        for i in range(18):
            nodes.append({'name': '%s-%s-%s-n%d' % (block, rack, az, i), 'ready': True,
                          'labels': {env['tasDataCenterLabel']: dc, env['tasAIZoneLabel']: az,
                                     env['tasBlockLabel']: block, env['tasRackLabel']: rack},
                          'allocatable': {'nvidia.com/gpu': '2', 'pods': '110'}})
    return nodes


# Cases whose inputs are computed by Go code, translated by hand (see above).
HAND = {
    'multi-layer topology: mimic a real-world GB200 cluster, with NVL36 arch (2GPUs/node); dc required; '
    'aizone slices of 48; rack slices of 16; TASMultiLayerTopology': gb200_nodes,
}


def translate_replacement_case(name, tc, env):
    # TestFindTopologyAssignmentsMultiLayerReplacement: one podset "main"
    # (1 cpu per pod) admitted with existingTA, one unhealthy node; gates
    # TASMultiLayerTopology and TASCacheNodeMatchResults on (the defaults).
    podset = {'podSetName': 'main', 'topologyRequest': tc.get('topologyRequest'), 'count': tc['count'],
              'requests': {'cpu': 1000}}
    if tc.get('wantReason'):
        podset['wantReason'] = tc['wantReason']
    if tc.get('wantAssignment') is not None:
        podset['wantAssignment'] = tc['wantAssignment']
    full = {
        'featureGates': tc.get('featureGates', {}),
        'nodes': tc.get('nodes', []),
        'pods': tc.get('pods', []),
        'levels': tc.get('levels') or env['defaultLevels'],
        'priorFlavorUsage': tc.get('priorFlavorUsage'),
        'aggregatedDomainUsages': tc.get('aggregatedDomainUsages'),
        'workload': {'owners': [], 'annotations': {}, 'unhealthy': [tc['unhealthyNode']],
                     'admission': {'podSets': [{'name': 'main', 'count': tc.get('admissionCount'),
                                                'ta': tc['existingTA']}]}},
        'podSets': [podset],
    }
    return translate_case(name, full)


def read_table(body, env, translate):
    toks = tokenize(body)
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
            p = Parser(toks, env)
            p.i = i + 2
            env[toks[i][1]] = p.expr()
            i = p.i
            continue
        i += 1
    i = table_at
    while toks[i] != ('i', 'struct'):
        i += 1
    i = block_end(toks, i + 1)
    assert toks[i] == ('o', '{')
    i += 1
    cases, skipped = [], []
    while toks[i] != ('o', '}'):
        name = toks[i][1]
        assert toks[i + 1] == ('o', ':')
        j = block_end(toks, i + 2)
        try:
            case_env = dict(env)
            case_env['__hand__'] = HAND[name](env) if name in HAND else None
            p = Parser(toks[i + 2:j], case_env)
            tc = p.composite('')
            cases.append(translate(name, tc))
        except (Untranslatable, SyntaxError) as e:
            skipped.append({'name': name, 'reason': EXPLAIN.get(str(e), str(e))})
        i = j
        if toks[i] == ('o', ','):
            i += 1
    return cases, skipped


TABLES = {
    'TestFindTopologyAssignments': lambda name, tc, env: translate_case(name, tc),
    'TestFindTopologyAssignmentsMultiLayerReplacement': translate_replacement_case,
}


def main():
    path, commit = sys.argv[1], sys.argv[2]
    table = sys.argv[3] if len(sys.argv) > 3 else 'TestFindTopologyAssignments'
    if not path.endswith('.go'):
        path += '/pkg/cache/scheduler/tas_cache_test.go'
    text = open(path).read()
    start = text.index('func %s(t *testing.T)' % table)
    end = text.index('\nfunc ', start + 10)
    env = {}
    translate = TABLES[table]
    cases, skipped = read_table(text[start:end], env, lambda name, tc: translate(name, tc, env))
    doc = {
        'source': 'kubernetes-sigs/kueue pkg/cache/scheduler/tas_cache_test.go ' + table,
        'commit': commit,
        'tableCases': len(cases) + len(skipped),
        'translated': len(cases),
        'cases': cases,
        'inexpressible': skipped,
    }
    print('# Generated by translate_kueue_tas.py from Kueue\'s test table (data only); see README.md.')
    yaml.safe_dump(doc, sys.stdout, sort_keys=False, width=120, allow_unicode=True)


if __name__ == '__main__':
    main()
