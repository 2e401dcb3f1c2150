#!/usr/bin/env bash
# Lays out a real kube-apiserver and etcd the way controller-runtime's envtest expects (a folder
# named by KUBEBUILDER_ASSETS holding `kube-apiserver` and `etcd`) and prints the export line.
# Usage: eval "$(scripts/envtest-assets.sh)"
#
# kube-apiserver: test-assets/envtest/kube-apiserver.xz (v1.34.9, Apache-2.0, see its README),
# checked against test-assets/envtest/SHA256SUMS. etcd: Debian's `etcd-server` package, installed
# when missing (the package may start a system etcd on 2379; the suites never use that port).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=test-assets/envtest
DEST="${KUBEBUILDER_ASSETS_DIR:-${TMPDIR:-/tmp}/model-manager-envtest}"

if ! command -v etcd >/dev/null 2>&1; then
  echo "etcd not found; installing Debian's etcd-server" >&2
  scripts/apt-install.sh etcd-server
  # The package's own service is not needed; the suites start their own etcd on free ports.
  if command -v systemctl >/dev/null 2>&1; then systemctl disable --now etcd >&2 || true; fi
fi

mkdir -p "$DEST"
WANT=$(awk '$2 == "kube-apiserver" { print $1 }' "$SRC/SHA256SUMS")
HAVE=""
[ -x "$DEST/kube-apiserver" ] && HAVE=$(sha256sum "$DEST/kube-apiserver" | awk '{ print $1 }')
if [ "$HAVE" != "$WANT" ]; then
  xz -dc "$SRC/kube-apiserver.xz" > "$DEST/kube-apiserver.tmp"
  HAVE=$(sha256sum "$DEST/kube-apiserver.tmp" | awk '{ print $1 }')
  if [ "$HAVE" != "$WANT" ]; then
    echo "kube-apiserver checksum mismatch: got $HAVE, $SRC/SHA256SUMS says $WANT" >&2
    rm -f "$DEST/kube-apiserver.tmp"
    exit 1
  fi
  chmod +x "$DEST/kube-apiserver.tmp"
  mv "$DEST/kube-apiserver.tmp" "$DEST/kube-apiserver"
fi
ln -sf "$(command -v etcd)" "$DEST/etcd"
echo "export KUBEBUILDER_ASSETS=$DEST"
