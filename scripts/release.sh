#!/usr/bin/env bash
# The release command: writes into dist/ everything a user can download, each checked here first:
#   hbase-emulator-<v>-linux-x86_64.tar.gz, hbase-emulator-<v>-linux-aarch64.tar.gz
#       fully static server and shell (scripts/package.sh)
#   hbase_emulator-<v>-py3-none-manylinux_2_17_<arch>.manylinux2014_<arch>.musllinux_1_1_<arch>.whl
#       one wheel per architecture, for glibc and musl systems alike
#   hbase-emulator-<v>-oci.tar
#       the container image for linux/amd64 and linux/arm64 (an OCI image layout: push it with
#       `skopeo copy --all oci-archive:... docker://REGISTRY/hbase-emulator:<v>`)
#   hbase-emulator-<v>-image-linux-amd64.tar, hbase-emulator-<v>-image-linux-arm64.tar
#       the same images one by one, for `docker load -i`
#   SHA256SUMS
# Checks: every binary is static; the x86_64 binaries serve the smoke suite and the x86_64 wheel
# passes the fresh-venv check; the aarch64 binaries serve the smoke suite under qemu-user; the
# images of both architectures, unpacked, serve the smoke suite from their entrypoint under chroot
# (arm64 through qemu-user).
# Usage: scripts/release.sh   (environment: DIST_DIR, default dist/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="${DIST_DIR:-$repo/dist}"
version="$(sed -n 's/^project(hbase_emulator VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")"
commit="$(git -C "$repo" rev-parse --short=12 HEAD)"
git -C "$repo" diff --quiet HEAD -- || commit="$commit-dirty"
start=$(date +%s)

# What building, packing and checking need (python-compat/run.sh sets up the smoke suite's venv).
SETUP_PROFILE=package SETUP_INSTALL_ONLY=1 "$repo/scripts/setup.sh"
[ "$(id -u)" -eq 0 ] || sudo -n true ||
  { echo "release: checking the images needs root (unshare, chroot): run as root or with sudo" >&2; exit 2; }
# The images' creation time: the commit's, so the same commit gives the same image.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}"
rm -rf "$dist"
mkdir -p "$dist"
DIST_DIR="$dist" "$repo/scripts/package.sh" x86_64 aarch64

echo "== release: smoke suite, x86_64 binaries"
"$repo/scripts/smoke.sh" "$repo/build-static-x86_64/package-bin"
echo "== release: smoke suite, aarch64 binaries under qemu-user (timings not judged)"
"$repo/scripts/smoke.sh" --qemu aarch64 "$repo/build-static-aarch64/package-bin"
echo "== release: the x86_64 wheel in a fresh venv"
"$repo/scripts/check_wheel.sh" "$dist"/hbase_emulator-"$version"-py3-none-*_x86_64.whl

echo "== release: container images"
"$repo/scripts/oci_image.py" --version "$version" --commit "$commit" --out "$dist" \
  --arch "amd64=$repo/build-static-x86_64/package-bin" \
  --arch "arm64=$repo/build-static-aarch64/package-bin"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" "$repo/scripts/check_image.sh" "$dist/hbase-emulator-$version-image-linux-amd64.tar"
"${as_root[@]}" "$repo/scripts/check_image.sh" "$dist/hbase-emulator-$version-image-linux-arm64.tar" --qemu aarch64

(cd "$dist" && sha256sum -- *.tar.gz *.whl *.tar > SHA256SUMS)
echo "== release: dist/ in $(( $(date +%s) - start )) s"
(cd "$dist" && ls -l --block-size=K -- * | awk '{print "  " $5 "  " $9}')
