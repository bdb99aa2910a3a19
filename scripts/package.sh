#!/usr/bin/env bash
# Builds the portable binaries (every library static except glibc, cmake/Portable.cmake) and packs
#   dist/hbase-emulator-<version>-linux-<arch>.tar.gz
# with bin/hbase-emulator, bin/hbase-shell (stripped), README.md, PACKAGE.txt (versions and the
# oldest glibc needed) and THIRD_PARTY_LICENSES.txt (the Debian copyright file of every library
# whose code is in the binaries), and the Python wheel
#   dist/hbase_emulator-<version>-py3-none-manylinux_2_<glibc minor>_<arch>.whl
# (python-compat: the same binaries, the pytest plugin and the tools; scikit-build-core, pinned in
# python-compat/requirements.txt, in a venv of its own). Prints both paths and the glibc needed.
# Usage: scripts/package.sh   (environment: PORTABLE_BUILD_DIR, default build-portable; DIST_DIR)
# The binaries are built as the tested ones are (RelWithDebInfo: -O2 -g) and stripped when packed,
# so the package runs the code the suite ran; only the linking differs.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${PORTABLE_BUILD_DIR:-$repo/build-portable}"
dist="${DIST_DIR:-$repo/dist}"
version="$(sed -n 's/^project(hbase_emulator VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")"
arch="$(uname -m)"

SETUP_PROFILE="${SETUP_PROFILE:-package}" BUILD_DIR="$build_dir" BUILD_TYPE=RelWithDebInfo \
  BUILD_TARGETS="hbase-emulator hbase-shell" CMAKE_EXTRA_ARGS="-DHBEMU_PORTABLE=ON -DHBEMU_BUILD_TESTS=OFF ${CMAKE_EXTRA_ARGS:-}" \
  "$repo/scripts/setup.sh"
bins=("$build_dir/hbase-emulator" "$build_dir/hbase-shell")
glibc="$("$repo/scripts/check_portable.sh" "${bins[@]}")"

name="hbase-emulator-$version-linux-$arch"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
rm -f "$dist"/hbase-emulator-"$version"-linux-"$arch".tar.gz
mkdir -p "$stage/$name/bin"
for b in "${bins[@]}"; do strip -o "$stage/$name/bin/$(basename "$b")" "$b"; done
cp "$repo/README.md" "$stage/$name/"
{
  echo "hbase-emulator $version for Linux $arch: portable binaries, every library linked"
  echo "statically except glibc. Needs glibc >= $glibc (objdump -T: newest GLIBC_ symbol version)."
  echo
  "$build_dir/hbase-emulator" --version
  echo
  echo "  bin/hbase-emulator --help      the server (Thrift1 on 9090, Thrift2 on 9091)"
  echo "  bin/hbase-shell --help         HBase's shell commands over Thrift"
} > "$stage/$name/PACKAGE.txt"

# A library's notice goes in when its code is in a binary (a symbol only it defines), found
# with nm, so an archive the linker dropped (OpenSSL: Thrift's TSSLSocket is unused) is not named.
gcc_package() { dpkg -S "$(readlink -f "$(g++ -print-file-name="$1")")" | cut -d: -f1; }
symbols="$(nm "${bins[@]}" 2>/dev/null | awk '$2 ~ /^[TtDdBbRrWwVv]$/ {print $3}')"
notices=(
  # Debian package      symbol (extended regex)          library
  "libthrift-dev        ^_ZN6apache6thrift              Apache Thrift"
  "libleveldb-dev       ^_ZN7leveldb                    LevelDB"
  "libsnappy-dev        ^_ZN6snappy                     snappy"
  "libgoogle-glog-dev   ^_ZN6google10LogMessage         glog"
  "libgflags-dev        ^_ZN22gflags_mutex_namespace    gflags"
  "libunwind-dev        ^_UL[a-z0-9_]+_step$            libunwind"
  "liblzma-dev          ^lzma_                          liblzma (xz)"
  "libpcre2-dev         ^pcre2_compile_8$               PCRE2"
  "libprotobuf-dev      ^_ZN6google8protobuf            protobuf"
  "zlib1g-dev           ^(inflate|deflate)$             zlib"
  "libedit-dev          ^el_init$                       libedit"
  "libncurses-dev       ^tgetent$                       ncurses (terminfo)"
  "libbsd-dev           ^strvis$                        libbsd"
  "libmd-dev            ^(MD5|SHA1|SHA256)Init$         libmd"
  "libssl-dev           ^(SSL_CTX_new|EVP_PKEY_free)$   OpenSSL"
  "$(gcc_package libstdc++.a) ^_ZNSt              libstdc++ (GCC runtime library exception)"
  "$(gcc_package libgcc_eh.a) ^_Unwind_Resume$     libgcc (GCC runtime library exception)"
  "nlohmann-json3-dev   ^_ZN8nlohmann                   nlohmann/json (header-only)"
)
licenses="$stage/$name/THIRD_PARTY_LICENSES.txt"
{
  echo "Libraries whose code is in bin/hbase-emulator and bin/hbase-shell, with the copyright"
  echo "files of the Debian packages they were built from. Boost (header-only Asio, Beast) is"
  echo "under the Boost Software License 1.0, which asks no notice for object code."
} > "$licenses"
for row in "${notices[@]}"; do
  read -r pkg pattern label <<<"$row"
  grep -q -E "$pattern" <<<"$symbols" || continue
  file="/usr/share/doc/$pkg/copyright"
  [ -r "$file" ] || { echo "package: no copyright file $file" >&2; exit 1; }
  printf '\n==== %s (Debian package %s) ====\n\n' "$label" "$pkg" >> "$licenses"
  cat "$file" >> "$licenses"
done

mkdir -p "$dist"
tarball="$dist/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 -czf "$tarball" "$name"
echo "package: $tarball ($(du -h "$tarball" | cut -f1)); needs glibc >= $glibc"

# The wheel takes the stripped binaries just packed (HBEMU_PREBUILT_DIR) rather than building
# them again. Its platform tag is the glibc they need: manylinux_2_36 runs on any Linux with glibc >= 2.36.
build_venv="$build_dir/wheel-venv"
if ! "$build_venv/bin/python" -c 'import scikit_build_core' >/dev/null 2>&1; then
  rm -rf "$build_venv"
  python3 -m venv "$build_venv"
  "$build_venv/bin/python" -m pip install --disable-pip-version-check -q \
    -c "$repo/python-compat/requirements.txt" scikit-build-core pathspec packaging
fi
cp "$licenses" "$stage/$name/bin/"
tag="py3-none-manylinux_${glibc/./_}_$arch"
rm -f "$dist"/hbase_emulator-"$version"-*.whl
"$build_venv/bin/python" -m pip wheel --disable-pip-version-check -q --no-deps --no-build-isolation \
  -w "$dist" -C wheel.tags="$tag" -C build-dir="$build_dir/wheel-build" \
  -C cmake.define.HBEMU_PREBUILT_DIR="$stage/$name/bin" "$repo/python-compat"
wheel="$dist/hbase_emulator-$version-$tag.whl"
[ -f "$wheel" ] || { echo "package: expected $wheel" >&2; exit 1; }
echo "package: $wheel ($(du -h "$wheel" | cut -f1))"
