#!/usr/bin/env bash
# Runs bench/peer_ajv.mjs (ajv + js-yaml on the same objects and CRD
# schemas as `queueforge validate`), installing ajv and js-yaml from npm into
# a cache folder first. Where node, npm or the registry is not available it
# says so and exits 0: the peer is a comparison, not a requirement.
#   bench/peer_ajv.sh OBJECTS.yaml CRD_DIR
# Environment: QF_PEER_CACHE (default ~/.cache/queueforge-peer-ajv).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -ne 2 ]; then
  echo "usage: bench/peer_ajv.sh OBJECTS.yaml CRD_DIR" >&2
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "peer_ajv: SKIPPED: node and npm are not installed"
  exit 0
fi
cache="${QF_PEER_CACHE:-${HOME:-/tmp}/.cache/queueforge-peer-ajv}"
if [ ! -f "$cache/node_modules/ajv/package.json" ] || [ ! -f "$cache/node_modules/js-yaml/package.json" ]; then
  mkdir -p "$cache"
  if ! npm install --prefix "$cache" --no-audit --no-fund --no-save --silent ajv@8 js-yaml@4 >"$cache/install.log" 2>&1; then
    echo "peer_ajv: SKIPPED: npm could not install ajv and js-yaml (see $cache/install.log)"
    exit 0
  fi
fi
QF_PEER_MODULES="$cache/node_modules" exec node "$here/peer_ajv.mjs" "$1" "$2"
