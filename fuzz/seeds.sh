#!/usr/bin/env bash
# Builds the seed corpus of each fuzz target in OUT/<target>/ from the
# repository's examples, test fixtures and golden files, the built-in
# policies, and ../shared/upstream when it is there. Nothing is committed:
# the seeds are copied at run time (../shared's files stay where they are).
#
#   fuzz/seeds.sh OUT_DIR
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="${QF_SHARED_DIR:-$repo/../shared}"
out="${1:?usage: fuzz/seeds.sh OUT_DIR}"
max_bytes=$((64 * 1024))  # larger seeds slow every execution and add little

n=0  # seeds are numbered: libFuzzer ignores names and merges duplicates itself

# copy TARGET FILE...: each regular file up to max_bytes.
copy() {
  local target="$1"; shift
  mkdir -p "$out/$target"
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le "$max_bytes" ] || continue
    n=$((n + 1))
    cp "$f" "$out/$target/seed-$n"
  done
}

# seed TARGET TEXT: one seed written from a string.
seed() {
  mkdir -p "$out/$1"
  n=$((n + 1))
  printf '%s' "$2" > "$out/$1/seed-$n"
}

# find_yaml DIR...: YAML and JSON files below the folders that exist.
find_yaml() {
  local d
  for d in "$@"; do
    [ -d "$d" ] && find "$d" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort
  done
  return 0
}

have_shared=0
[ -d "$shared/upstream" ] && have_shared=1
[ "$have_shared" = 1 ] || echo "seeds: $shared/upstream not found; seeding from the repository only" >&2

mapfile -t repo_yaml < <(find_yaml "$repo/examples" "$repo/tests/fixtures" "$repo/tests/golden" "$repo/policies")
mapfile -t upstream_yaml < <(find_yaml "$shared/upstream")
mapfile -t sites < <(grep -rlE '^kind: Site' "$repo/examples" "$repo/tests/fixtures" "$repo/templates" 2>/dev/null | sort)
mapfile -t job_yaml < <(find_yaml "$repo/examples/multi-team/jobs" "$repo/examples/rhoai-3/jobs" \
  "$shared/upstream/jobs" "$shared/upstream/kueue-examples")
mapfile -t policy_yaml < <(find_yaml "$repo/policies" "$repo/tests/fixtures/policies" "$repo/tests/fixtures/vap")
mapfile -t upstream_policy < <(find "$shared/upstream" -type f -name '*polic*.yaml' 2>/dev/null | sort)

copy yaml_load "${repo_yaml[@]}" "${upstream_yaml[@]}"
for t in yaml_fast yaml_diff openapi validate; do
  rm -rf "${out:?}/$t" && cp -r "$out/yaml_load" "$out/$t"
done
copy site "${sites[@]}"
copy jobs "${job_yaml[@]}"
copy policy "${policy_yaml[@]}" "${upstream_policy[@]}"
copy runai "$repo"/examples/runai/*.yaml
copy scenario "$repo"/examples/timeline/*.yaml "$shared"/upstream/kueue-perf/*/generator.yaml
copy thresholds "$shared"/upstream/kueue-perf/*/rangespec.yaml
seed thresholds $'cmd:\n  maxWallMs: 425_000\nclusterQueueClassesMinUsage:\n  cq: 50\nwlClassesMaxAvgTimeToAdmissionMs:\n  large: 23_000\n'

# Quantities: every suffix and spelling Kubernetes accepts, and near misses.
for q in 0 1 -1 +1 1.5 .5 5. 100m 1500m 1k 1Ki 1M 1Mi 1G 1Gi 1T 1Ti 1P 1Pi 1E 1Ei 1e3 1E3 1e-3 1n 1u \
         36Gi 9 0.1 123456789012345678 9223372036854775807 1e18 1Kb 1.1.1 '' ' 1' '1 ' 0x10; do
  seed quantity "$q"
done

# CEL: the expressions of the built-in policies, the VAP fixtures and
# upstream samples (one line each), the CEL conformance suite's `expr`s, and
# a few written here.
{
  grep -rhoE '(expression|messageExpression|rule): .+' "$repo/policies" "$repo/tests/fixtures" \
    "$shared/upstream/kueue-examples" "$shared/upstream/kueue" 2>/dev/null \
    | sed -E 's/^[a-zA-Z]+: //; s/^["'\'']//; s/["'\'']$//' | grep -v '^[>|]' || true
  grep -rhoE "^  expr: '.+'$" "$shared/cel-conformance" 2>/dev/null | sed -E "s/^  expr: '//; s/'$//" || true
} | sort -u | head -n 3000 > "$out/.cel-lines"
mkdir -p "$out/cel"
while IFS= read -r line; do
  [ -n "$line" ] && seed cel "$line"
done < "$out/.cel-lines"
rm -f "$out/.cel-lines"
for e in 'object.spec.resourceGroups.all(g, g.flavors.size() > 0)' 'quantity("36Gi").isGreaterThan(quantity("1"))' \
         'x * 2 + size(s) == 26' 'has(object.spec.cohortName) ? object.spec.cohortName : "none"' \
         '[1, 2, 3].map(i, i * x).filter(j, j > 10).exists_one(k, k == 14)' \
         '{"a": 1}.?b.orValue(2)' 'timestamp("2026-01-01T00:00:00Z") + duration("1h")' \
         's.matches("^h.*d$") && s.split(", ").size() == 2' 'params.flavors[0].resources.map(r, r.name)'; do
  seed cel "$e"
done

# Argo CD: environments, one NAME=value per line.
seed argocd $'ARGOCD_APP_PARAMETERS=[{"name":"teams","array":["team-a","team-b"]},{"name":"site","string":"queueforge-site.yaml"}]'
seed argocd $'ARGOCD_APP_PARAMETERS=[{"name":"teams","string":"team-b,team-a,"}]\nARGOCD_ENV_QUEUEFORGE_TARGET=kueue-0.13'
seed argocd $'PARAM_TEAMS_0=team-a\nPARAM_TARGET=rhoai-2.10\nPARAM_SITE=site.yaml'
seed argocd $'ARGOCD_APP_PARAMETERS=[{"name":"target","string":"rhoai-3.3"},{"name":"teams","map":{"a":"b"}}]'

# .queueforge.yaml
seed gate_config $'rules:\n  xref.missing-clusterqueue: off\n  V24: warning\n  sim.never-admitted: note\noverrides:\n  - files: ["clusters/dev/**"]\n    rules:\n      sim.never-admitted: "off"\n      V24: error\n'
seed gate_config $'apiVersion: queueforge.io/v1alpha1\nkind: Config\nrules:\n  schema.unknown-field: error\noverrides:\n  - files: ["*.job.yaml", "tenant/", "site-?.yaml"]\n    rules: {jobs.no-queue: "off"}\n'

for d in "$out"/*/; do
  echo "seeds: $(basename "$d"): $(find "$d" -type f | wc -l) files" >&2
done
