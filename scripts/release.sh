#!/usr/bin/env bash
# Builds the portable release binary: fully static (glibc, libstdc++,
# yaml-cpp, re2 and libgit2 linked in), stripped, -O2 without debug info, in
# its own folder (default build-release/, or $QF_RELEASE_DIR), then checks it
# (scripts/check-release.sh). With --package it also makes the Debian package
# (build-release/queueforge_<version>_amd64.deb).
#   scripts/release.sh [--package]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${QF_RELEASE_DIR:-build-release}"
package=0
for arg in "$@"; do
  case "$arg" in
    --package) package=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "release.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "${launcher[@]}" \
  -DQUEUEFORGE_RELEASE_STATIC=ON -DQUEUEFORGE_TESTS=OFF -DQUEUEFORGE_BENCH=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target queueforge
bash scripts/check-release.sh "$dir/queueforge"
if [ "$package" -eq 1 ]; then
  (cd "$dir" && cpack -G DEB >/dev/null)
  ls "$dir"/queueforge_*.deb
fi
