#!/usr/bin/env bash
# Builds the fully static hbase-emulator and hbase-shell for one architecture (x86_64 or
# aarch64) into build-static-ARCH/, with the libraries of scripts/static_deps.sh (cached by
# version) and ccache, and checks that they are static. Prints the build folder.
# Usage: scripts/static_build.sh ARCH   (environment: STATIC_BUILD_DIR, BUILD_TYPE)
# The binaries are built as the tested glibc ones are (RelWithDebInfo: -O2 -g); scripts/package.sh
# strips them when it packs them.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arch="${1:?usage: static_build.sh x86_64|aarch64}"
build_dir="${STATIC_BUILD_DIR:-$repo/build-static-$arch}"
# ccache (when installed) shares compiled objects between build trees and checkouts: paths under
# the checkout are hashed relative to it, and the working directory is left out.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$repo}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
# The host tools: CMake, Ninja, the code generators, Boost's and nlohmann/json's headers, ccache.
SETUP_PROFILE=package SETUP_INSTALL_ONLY=1 "$repo/scripts/setup.sh" >&2
prefix="$("$repo/scripts/static_deps.sh" "$arch-linux-musl")"
toolchain="$prefix/toolchain.cmake"
# A tree configured against another prefix (older library versions) starts again.
if [ -f "$build_dir/CMakeCache.txt" ] &&
   [ "$(sed -n 's/^CMAKE_TOOLCHAIN_FILE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")" != "$toolchain" ]; then
  rm -rf "$build_dir"
fi
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DHBEMU_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)" --target hbase-emulator hbase-shell >&2
"$repo/scripts/check_static.sh" "$build_dir/hbase-emulator" "$build_dir/hbase-shell" >&2
# One allocator for the program: each C allocation entry point must be mimalloc's (its code lies
# among mimalloc's own functions), or a block from musl's allocator freed by mimalloc's free would
# corrupt memory. musl keeps its own allocator for a few internal blocks (locale, atexit, time
# zone) that only it frees.
for b in hbase-emulator hbase-shell; do
  foreign="$(nm -n "$build_dir/$b" | awk '
    $2 ~ /^[Tt]$/ && $3 ~ /^_?mi_/ { if (!lo) lo = NR; hi = NR }
    $2 ~ /^[TW]$/ && $3 ~ /^(malloc|free|calloc|realloc|aligned_alloc|posix_memalign|memalign|malloc_usable_size)$/ {
      entry[$3] = NR }
    END { for (f in entry) if (entry[f] < lo || entry[f] > hi) printf "%s ", f }')"
  if [ -n "$foreign" ]; then
    echo "static_build: in $b these allocation functions are not mimalloc's: $foreign" >&2
    exit 1
  fi
done
echo "$build_dir"
