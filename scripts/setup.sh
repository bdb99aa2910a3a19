#!/usr/bin/env bash
# Installs what the build needs (Debian packages) and builds into build/.
# Safe to run again: it installs only missing packages and rebuilds only what changed.
# Usage: scripts/setup.sh   (environment: BUILD_DIR, BUILD_TYPE, CMAKE_EXTRA_ARGS, BUILD_TARGETS,
#                           SETUP_PROFILE=serve|package|full, default full; SETUP_INSTALL_ONLY=1
#                           installs and builds nothing)
# The serve profile installs and configures only what the server and the shell need (no tests in
# the build tree); a later full run installs the rest and turns the tests back on.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
build_type="${BUILD_TYPE:-RelWithDebInfo}"
# ccache (when installed) shares compiled objects between build trees and checkouts: paths under
# the checkout are hashed relative to it, and the working directory is left out.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$repo}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

# What building and serving need (SETUP_PROFILE=serve: scripts/serve.sh).
packages=(build-essential cmake ninja-build pkg-config thrift-compiler libthrift-dev
          libleveldb-dev libsnappy-dev libpcre2-dev libboost-dev nlohmann-json3-dev libgoogle-glog-dev
          libedit-dev  # hbase-shell: line editing and history
          libprotobuf-dev protobuf-compiler)  # Thrift2 filterBytes: HBase's protobuf-serialized filters
profile="${SETUP_PROFILE:-full}"
if [ "$profile" != serve ]; then
  # The release packages (SETUP_PROFILE=package: scripts/static_build.sh, package.sh, release.sh):
  # the static builds' host tools (their libraries come from scripts/static_deps.sh), the
  # checks of their binaries, the arm64 emulator and the image tools.
  packages+=(ccache binutils file python3 python3-venv qemu-user qemu-user-static umoci skopeo iproute2)
fi
if [ "$profile" = full ]; then
  # Everything the tests, benchmarks and fuzzers need (scripts/test.sh, bench.sh, fuzz.sh).
  packages+=(libgtest-dev libgmock-dev
             chromium  # headless, for the admin console's browser test (python-compat)
             default-jdk-headless maven  # python-compat/test_java_clients.py builds tests/java (HBase's Java clients)
             clang libclang-rt-14-dev)  # clang builds the libFuzzer targets (scripts/fuzz.sh)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${SETUP_INSTALL_ONLY:-0}" = 1 ] && exit 0

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
tests_flag=()
if [ "$profile" = serve ]; then
  # A fresh tree leaves the tests out; an existing one keeps what it has.
  [ -f "$build_dir/build.ninja" ] || tests_flag=(-DHBEMU_BUILD_TESTS=OFF)
elif [[ "${CMAKE_EXTRA_ARGS:-}" != *HBEMU_BUILD_TESTS* ]] &&
     grep -q '^HBEMU_BUILD_TESTS:BOOL=OFF' "$build_dir/CMakeCache.txt" 2>/dev/null; then
  tests_flag=(-DHBEMU_BUILD_TESTS=ON)  # a tree configured by serve.sh: the tests come back
fi
if [ ! -f "$build_dir/build.ninja" ] || ((${#tests_flag[@]})); then
  cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "${tests_flag[@]}" "${launcher[@]}" \
    ${CMAKE_EXTRA_ARGS:-} >/dev/null
fi
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
