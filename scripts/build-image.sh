#!/usr/bin/env bash
# Builds the Argo CD sidecar image of deploy/argocd/Containerfile offline, as
# an OCI image layout archive, from the static release binary, with tar,
# gzip and sha256sum only: no registry, no container engine, no network.
# The layer holds what the Containerfile copies (same paths, modes, owners);
# the config carries its USER, ENV, WORKDIR, ENTRYPOINT and CMD. Same
# binary in, same bytes out (fixed timestamps, sorted entries).
#   scripts/build-image.sh [--binary FILE] [--tag REF] [-o OUT.oci.tar]
# Defaults: build-release/queueforge, registry.example.com/queueforge:<its
# version>, build-release/queueforge-image.oci.tar. Load it with e.g.
#   podman load -i build-release/queueforge-image.oci.tar
#   skopeo copy oci-archive:build-release/queueforge-image.oci.tar docker://REGISTRY/queueforge:TAG
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/build-release/queueforge"
tag=""
out="$root/build-release/queueforge-image.oci.tar"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) bin="${2:?--binary needs a file}"; shift 2 ;;
    --tag) tag="${2:?--tag needs an image reference}"; shift 2 ;;
    -o) out="${2:?-o needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "build-image.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build-image.sh: $bin: no such executable (run scripts/release.sh first)" >&2; exit 2; }
if readelf -d "$bin" 2>/dev/null | grep -q 'Dynamic section'; then
  echo "build-image.sh: $bin is not static; the image has no libc (build it with scripts/release.sh)" >&2
  exit 1
fi
version="$("$bin" version | sed -n '1s/^queueforge \([^ ]*\).*/\1/p')"
[ -n "$tag" ] || tag="registry.example.com/queueforge:$version"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
layout="$work/layout"
mkdir -p "$rootfs/usr/local/bin" "$rootfs/home/argocd/cmp-server/config" "$layout/blobs/sha256"
install -m 0755 "$bin" "$rootfs/usr/local/bin/queueforge"
install -m 0644 "$root/deploy/argocd/plugin.yaml" "$rootfs/home/argocd/cmp-server/config/plugin.yaml"
chmod 0755 "$rootfs/usr" "$rootfs/usr/local" "$rootfs/home" "$rootfs/home/argocd" \
  "$rootfs/home/argocd/cmp-server" "$rootfs/home/argocd/cmp-server/config"

# The layer: root-owned system paths, then the argocd user's home (999:999),
# appended so that owners are set in the archive, not taken from the disk.
epoch=0
tar_opts=(--format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime
          --sort=name --mtime="@$epoch" --numeric-owner -C "$rootfs")
tar -cf "$work/layer.tar" "${tar_opts[@]}" --owner=0 --group=0 --no-recursion \
  home usr usr/local usr/local/bin usr/local/bin/queueforge
tar -rf "$work/layer.tar" "${tar_opts[@]}" --owner=999 --group=999 home/argocd

blob() {  # blob FILE -> prints "sha256:<hex> <size>", moves FILE into the layout
  local hex size
  hex="$(sha256sum "$1" | cut -d' ' -f1)"
  size="$(stat -c %s "$1")"
  mv "$1" "$layout/blobs/sha256/$hex"
  echo "sha256:$hex $size"
}
diff_id="sha256:$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
gzip -n -9 "$work/layer.tar"
read -r layer_digest layer_size < <(blob "$work/layer.tar.gz")

created="1970-01-01T00:00:00Z"
printf '%s' "{\"created\":\"$created\",\"architecture\":\"amd64\",\"os\":\"linux\",\
\"config\":{\"User\":\"999:999\",\"Env\":[\"PATH=/usr/local/bin\",\"HOME=/home/argocd\"],\
\"Entrypoint\":[\"/usr/local/bin/queueforge\"],\"Cmd\":[\"version\"],\"WorkingDir\":\"/home/argocd\",\
\"Labels\":{\"org.opencontainers.image.title\":\"queueforge\",\"org.opencontainers.image.version\":\"$version\"}},\
\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"$diff_id\"]},\
\"history\":[{\"created\":\"$created\",\"created_by\":\"scripts/build-image.sh (deploy/argocd/Containerfile)\"}]}" \
  >"$work/config.json"
read -r config_digest config_size < <(blob "$work/config.json")

printf '%s' "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\
\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"$config_digest\",\"size\":$config_size},\
\"layers\":[{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"$layer_digest\",\"size\":$layer_size}]}" \
  >"$work/manifest.json"
read -r manifest_digest manifest_size < <(blob "$work/manifest.json")

printf '%s' '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
printf '%s' "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\
\"digest\":\"$manifest_digest\",\"size\":$manifest_size,\"platform\":{\"architecture\":\"amd64\",\"os\":\"linux\"},\
\"annotations\":{\"org.opencontainers.image.ref.name\":\"${tag##*:}\",\"io.containerd.image.name\":\"$tag\"}}]}" \
  >"$layout/index.json"

mkdir -p "$(dirname "$out")"
tar -cf "$out.tmp" --format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -C "$layout" oci-layout index.json blobs
mv "$out.tmp" "$out"
echo "build-image.sh: $tag -> $out ($(stat -c %s "$out") bytes, manifest $manifest_digest)"
