#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cpp) with clang in build-fuzz/
# and runs one target or all of them.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]
#
# TARGET is a name from fuzz/ without _fuzz.cpp (yaml_load, cel, site, ...);
# SECONDS is per target (default 60). Seeds come from fuzz/seeds.sh (examples,
# test fixtures, ../shared/upstream); what a run discovers accumulates in
# build-fuzz/corpus/<target>/ and crashes, hangs (a single input running over
# 10 s) and leaks land in build-fuzz/findings/<target>/ (a slow unit or a
# timeout only when it is slow when run alone as well). The exit status is 1
# when any target found something, with the inputs listed; each such input
# belongs in a Catch2 regression test. Environment: FUZZ_JOBS (parallel
# processes per target, default 1), FUZZ_BUILD_DIR (default build-fuzz),
# FUZZ_PARALLEL (targets run side by side, default 1; CI gives the number
# of processors), FUZZ_RUNS (stop a target after this many executions, if
# that comes before SECONDS: a long run by executions, e.g.
# FUZZ_RUNS=10000000),
# FUZZ_SANITIZERS (those of a new build folder, default address,undefined;
# "undefined" alone runs several times faster: give it its own
# FUZZ_BUILD_DIR), FUZZ_FLAGS (more libFuzzer flags: for a long run by
# executions, "-entropic=0 -max_len=4096": the entropic schedule's
# bookkeeping was two thirds of fuzz_runai's time, and a later -max_len wins).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
target="${1:-all}"
seconds="${2:-60}"
build="${FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${FUZZ_JOBS:-1}"
sanitizers="${FUZZ_SANITIZERS:-address,undefined}"
runs_limit=()
[ -n "${FUZZ_RUNS:-}" ] && runs_limit=(-runs="$FUZZ_RUNS")
read -r -a extra_flags <<<"${FUZZ_FLAGS:-}"
job_flags=()
[ "$jobs" -gt 1 ] && job_flags=(-jobs="$jobs" -workers="$jobs")

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ not found (scripts/setup.sh installs it)" >&2
  exit 2
fi
if [ "$target" = all ]; then
  mapfile -t targets < <(cd fuzz && ls ./*_fuzz.cpp | sed -E 's|^\./||; s|_fuzz\.cpp$||')
elif [ -f "fuzz/${target}_fuzz.cpp" ]; then
  targets=("$target")
else
  echo "fuzz.sh: no target '$target'; one of: $(cd fuzz && ls ./*_fuzz.cpp | sed -E 's|^\./||; s|_fuzz\.cpp$||' | tr '\n' ' ')" >&2
  exit 2
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A folder already configured for fuzzing is built as it is: CI's sanitizer
# build (.ci/run) has the fuzz targets beside the tests, with these flags.
# -O1 with line tables is libFuzzer's usual trade-off between build time,
# execution speed and readable stack traces.
if ! grep -qx "QUEUEFORGE_FUZZ:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
    -DQUEUEFORGE_FUZZ=ON -DQUEUEFORGE_FUZZ_SANITIZERS="$sanitizers" -DQUEUEFORGE_TESTS=OFF -DQUEUEFORGE_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

seeds="$build/seeds"
rm -rf "$seeds"
bash fuzz/seeds.sh "$seeds" 2>/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One target's run and what it found; its result lands in
# findings/<target>.status (1: something found), which lets targets run side
# by side.
fuzz_one() {
  local t="$1" corpus findings dict log earlier rc runs timeouts_set_aside unit started f
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  dict=()
  case "$t" in
    cel) dict=(-dict="$repo/fuzz/cel.dict") ;;
    quantity | argocd) ;;
    *) dict=(-dict="$repo/fuzz/yaml.dict") ;;
  esac
  log="$build/findings/$t.log"
  # Inputs left by an earlier run stay until handled (a regression test, then
  # removed); they are reported again, as left over, and still fail the run.
  mapfile -t earlier < <(ls -A "$findings")
  echo "== fuzz_$t: ${seconds}s x ${jobs} job(s)" >&2
  set +e
  "$build/fuzz/fuzz_$t" "$corpus" "$seeds/$t" "${dict[@]}" -max_total_time="$seconds" "${runs_limit[@]}" -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1 \
    "${job_flags[@]}" "${extra_flags[@]}" >"$log" 2>&1
  rc=$?
  set -e
  runs=$( (grep -h "^stat::number_of_executed_units" "$log" fuzz-*.log 2>/dev/null || true) | awk "{s += \$2} END {print s + 0}")
  rm -f fuzz-*.log
  # A "slow unit" is an input that took over 10 s while the machine was busy
  # (libFuzzer notes it without stopping); a "timeout" one that went past
  # -timeout (libFuzzer stops the run). Either is a finding only when it is
  # slow alone too: each is run again by itself, and kept if it still takes
  # 10 s or more (or fails); otherwise it is reported and set aside, and a
  # run that only such a timeout stopped counts as finding nothing.
  timeouts_set_aside=0
  for unit in "$findings"/slow-unit-* "$findings"/timeout-*; do
    [ -e "$unit" ] || continue
    printf '%s\n' "${earlier[@]}" | grep -qxF "$(basename "$unit")" && continue
    started=$(date +%s)
    if timeout 60 "$build/fuzz/fuzz_$t" "$unit" >/dev/null 2>&1 && [ $(($(date +%s) - started)) -lt 10 ]; then
      echo "fuzz_$t: $(basename "$unit") was slow only under load ($(($(date +%s) - started)) s alone); set aside" >&2
      mkdir -p "$build/slow-under-load/$t"
      mv "$unit" "$build/slow-under-load/$t/"
      case "$(basename "$unit")" in timeout-*) timeouts_set_aside=1 ;; esac
    fi
  done
  if [ "$rc" -ne 0 ] && [ "$timeouts_set_aside" = 1 ] && [ -z "$(ls -A "$findings")" ] &&
    grep -q "ERROR: libFuzzer: timeout" "$log"; then
    echo "fuzz_$t: the run stopped at a timeout that was slow only under load, after $runs executions" >&2
    rc=0
  fi
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$findings")" ]; then
    echo "fuzz_$t: FOUND (exit $rc) after $runs executions; inputs in $findings, log $log:" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|contract violated)' "$log" | head -5 >&2 || true
    for f in $(ls -A "$findings"); do
      if printf '%s\n' "${earlier[@]}" | grep -qxF "$f"; then
        echo "$f (left from an earlier run)" >&2
      else
        echo "$f" >&2
      fi
    done
    echo 1 >"$build/findings/$t.status"
    return 0
  else
    echo "fuzz_$t: $runs executions, nothing found" >&2
  fi
  echo 0 >"$build/findings/$t.status"
}

# FUZZ_PARALLEL targets at a time (not with FUZZ_JOBS, whose workers write
# their logs into the working folder).
parallel="${FUZZ_PARALLEL:-1}"
[ "$jobs" -gt 1 ] && parallel=1
for t in "${targets[@]}"; do
  rm -f "$build/findings/$t.status"
  if [ "$parallel" -gt 1 ]; then
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    fuzz_one "$t" &
  else
    fuzz_one "$t"
  fi
done
wait
status=0
for t in "${targets[@]}"; do
  [ "$(cat "$build/findings/$t.status" 2>/dev/null)" = 0 ] || status=1
done
exit "$status"
