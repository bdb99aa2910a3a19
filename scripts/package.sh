#!/usr/bin/env bash
# Packs the fully static binaries (scripts/static_build.sh) for each architecture asked, as
#   dist/hbase-emulator-<version>-linux-<arch>.tar.gz
# with bin/hbase-emulator, bin/hbase-shell (stripped), README.md, COMPATIBILITY.md, docs/,
# PACKAGE.txt (what it is, the --version text) and THIRD_PARTY_LICENSES.txt (the notices of every library linked in), and the
# Python wheel
#   dist/hbase_emulator-<version>-py3-none-manylinux_2_17_<arch>.manylinux2014_<arch>.musllinux_1_1_<arch>.whl
# (python-compat: the same binaries, the pytest plugin and the tools; scikit-build-core, pinned in
# python-compat/requirements.txt, in a venv of its own). A static executable needs no C library,
# so one wheel serves glibc systems (manylinux) and musl ones (musllinux) alike: auditwheel
# checks both tags. Prints the paths, and leaves the stripped binaries with their notices in
# build-static-<arch>/package-bin for the container image (scripts/oci_image.py).
# Usage: scripts/package.sh [ARCH...]   ARCH: x86_64, aarch64 (default: this machine's)
# Environment: DIST_DIR (default dist/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="${DIST_DIR:-$repo/dist}"
version="$(sed -n 's/^project(hbase_emulator VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")"
arches=("$@")
((${#arches[@]})) || arches=("$(uname -m)")

# The wheel builder, in a venv of its own.
wheel_venv="${HBEMU_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hbase-emulator}/wheel-venv"
wheel_venv_ok() {
  "$wheel_venv/bin/python" -c 'import scikit_build_core, auditwheel' >/dev/null 2>&1
}

pack() {
  local arch="$1" build_dir prefix
  build_dir="$("$repo/scripts/static_build.sh" "$arch")"
  # The libraries' prefix holds the toolchain file the tree was configured with.
  prefix="$(dirname "$(sed -n 's/^CMAKE_TOOLCHAIN_FILE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")")"
  local target="$arch-linux-musl"
  local name="hbase-emulator-$version-linux-$arch"
  # Staged inside the build folder, so a failed run leaves nothing elsewhere.
  local stage="$build_dir/package-stage"
  rm -rf "$stage"
  mkdir -p "$stage/$name/bin"
  for b in hbase-emulator hbase-shell; do
    "$prefix/bin/$target-objcopy" --strip-all "$build_dir/$b" "$stage/$name/bin/$b"
  done
  # README's links resolve inside the tarball too.
  cp "$repo/README.md" "$repo/COMPATIBILITY.md" "$stage/$name/"
  cp -r "$repo/docs" "$stage/$name/docs"
  local version_text
  if [ "$arch" = "$(uname -m)" ]; then
    version_text="$("$build_dir/hbase-emulator" --version)"
  else
    version_text="$(qemu-"$arch" "$build_dir/hbase-emulator" --version)"
  fi
  {
    echo "hbase-emulator $version for Linux $arch: fully static binaries (musl libc and every"
    echo "library linked in, no dynamic loader). They run on any Linux kernel 3.2 or newer of this"
    echo "architecture, whatever its C library: Debian, Ubuntu, RHEL, Alpine, or an empty container."
    echo
    echo "$version_text"
    echo
    echo "  bin/hbase-emulator --help      the server (Thrift1 on 9090, Thrift2 on 9091, console on 9095)"
    echo "  bin/hbase-shell --help         HBase's shell commands over Thrift"
  } > "$stage/$name/PACKAGE.txt"

  local licenses="$stage/$name/THIRD_PARTY_LICENSES.txt"
  {
    echo "Libraries whose code is in bin/hbase-emulator and bin/hbase-shell, each with the copyright"
    echo "file of the Debian source package it was built from (scripts/static_deps.sh), and the C and"
    echo "C++ runtimes Zig's toolchain links in (musl, libc++, libc++abi, libunwind, compiler-rt)."
  } > "$licenses"
  local f
  for f in "$prefix"/licenses/*.txt; do
    printf '\n==== %s ====\n\n' "$(basename "$f" .txt)" >> "$licenses"
    cat "$f" >> "$licenses"
  done

  mkdir -p "$dist"
  local tarball="$dist/$name.tar.gz"
  rm -f "$tarball"
  tar -C "$stage" --owner=0 --group=0 --sort=name -czf "$tarball" "$name"
  echo "package: $tarball ($(du -h "$tarball" | cut -f1))"

  # The wheel takes the stripped binaries just packed (HBEMU_PREBUILT_DIR) rather than building
  # them again.
  if ! wheel_venv_ok; then
    rm -rf "$wheel_venv"
    python3 -m venv "$wheel_venv"
    "$wheel_venv/bin/python" -m pip install --disable-pip-version-check -q \
      -c "$repo/python-compat/requirements.txt" scikit-build-core pathspec packaging auditwheel
  fi
  cp "$licenses" "$stage/$name/bin/"
  local tag="py3-none-manylinux_2_17_$arch.manylinux2014_$arch.musllinux_1_1_$arch"
  rm -f "$dist"/hbase_emulator-"$version"-*_"$arch".whl
  "$wheel_venv/bin/python" -m pip wheel --disable-pip-version-check -q --no-deps --no-build-isolation \
    -w "$dist" -C wheel.tags="$tag" -C build-dir="$build_dir/wheel-build" \
    -C cmake.define.HBEMU_PREBUILT_DIR="$stage/$name/bin" "$repo/python-compat"
  local wheel="$dist/hbase_emulator-$version-$tag.whl"
  [ -f "$wheel" ] || { echo "package: expected $wheel" >&2; exit 1; }
  # auditwheel judges a wheel for the C library its file name names, and names the oldest
  # platform its binaries allow; asked about a copy that carries one of our tags alone, it must
  # find no shared library needed and allow that tag.
  mkdir -p "$stage/audit"
  local family audit copy
  for family in manylinux_2_17 musllinux_1_1; do
    copy="$stage/audit/hbase_emulator-$version-py3-none-${family}_$arch.whl"
    cp "$wheel" "$copy"
    audit="$("$wheel_venv/bin/auditwheel" show "$copy" 2>&1 | tr '\n' ' ')"
    local allowed
    allowed="$(sed -n 's/.*platform tag: "\(manylinux_2_[0-9]*\|musllinux_1_[0-9]*\)_.*/\1/p' <<<"$audit")"
    if ! grep -q 'requires no external shared libraries' <<<"$audit" || [ -z "$allowed" ] ||
       { [ "${family%%_*}" = manylinux ] && [ "${allowed#manylinux_2_}" -gt 17 ]; } ||
       [ "${allowed%%_*}" != "${family%%_*}" ]; then
      echo "package: auditwheel does not allow ${family}_$arch for $wheel:" >&2
      echo "$audit" >&2
      exit 1
    fi
  done
  echo "package: $wheel ($(du -h "$wheel" | cut -f1))"
  # What the container image is made of (scripts/oci_image.py): the same stripped binaries.
  rm -rf "$build_dir/package-bin"
  mv "$stage/$name/bin" "$build_dir/package-bin"
  rm -rf "$stage"
}

for arch in "${arches[@]}"; do
  case "$arch" in
    x86_64|aarch64) pack "$arch" ;;
    *) echo "package: unknown architecture $arch (x86_64 or aarch64)" >&2; exit 2 ;;
  esac
done
