#!/usr/bin/env bash
# Installs the Debian packages queueforge needs to build and test, skipping
# what is already there. Safe to run again.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libgit2-dev libre2-dev
  libjemalloc-dev  # the CLI's allocator (CMakeLists.txt, QUEUEFORGE_JEMALLOC)
  catch2 libbenchmark-dev json-schema-test-suite
  git pre-commit
  lua5.4  # runs the Argo CD health checks of deploy/argocd in tests/integrations/argocd_health_test.cpp
  clang libclang-rt-dev  # libFuzzer and the sanitizer runtimes: fuzz/, scripts/fuzz.sh
  chromium  # headless: renders the HTML report in tests/backends/html_report_test.cpp
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  as_root=(sudo)
fi
echo "installing: ${missing[*]}" >&2
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
