#!/usr/bin/env bash
# Checks that a queueforge binary runs on glibc >= 2.28 systems (UBI 8/9,
# Ubuntu 22.04, Debian 11/12): either it is static (no dynamic section, so no
# NEEDED library and no versioned symbol), or no symbol it imports requires a
# glibc newer than 2.28. Prints the verdict and the size; exit 1 when it fails.
#   scripts/check-release.sh BINARY
set -euo pipefail
bin="${1:?usage: check-release.sh BINARY}"
[ -x "$bin" ] || { echo "check-release: $bin: not an executable" >&2; exit 2; }
max_glibc="2.28"
size="$(stat -c %s "$bin")"
if ! readelf -d "$bin" 2>/dev/null | grep -q 'Dynamic section'; then
  echo "check-release: $bin is static (no dynamic section), $size bytes"
else
  readelf -d "$bin" | grep NEEDED || true
  # Highest GLIBC_x.y among the imported (undefined) symbols.
  newest="$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)"
  if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$max_glibc" | sort -V | tail -n 1)" != "$max_glibc" ]; then
    echo "check-release: $bin needs GLIBC_$newest, newer than $max_glibc:" >&2
    objdump -T "$bin" | grep -F "(GLIBC_$newest)" | head -n 20 >&2
    exit 1
  fi
  echo "check-release: $bin is dynamic, needs at most GLIBC_${newest:-none} (<= $max_glibc), $size bytes"
fi
if file "$bin" | grep -q 'not stripped'; then
  echo "check-release: $bin is not stripped" >&2
  exit 1
fi
"$bin" version >/dev/null
