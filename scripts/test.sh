#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test:
#  1. GoogleTest through CTest and bounded libFuzzer runs (the wire: detection, framing, HTTP,
#     Thrift decoding and the handler; and the filter parser) on this machine's glibc build;
#  2. the fully static x86_64 build that the packages ship (scripts/static_build.sh: musl, every
#     library linked in), packed as tarball and wheel (scripts/package.sh), then the Python
#     compatibility suite against that static server: happybase in all four transport x protocol
#     modes and raw Thrift over a socket and over HTTP, all against one server without mode flags;
#     HBase's own Java clients from tests/java, built with Maven; 1,000 connections, crash
#     recovery with SIGKILL, hostile input, soak; then the wheel in a fresh venv, and the
#     container image unpacked and run under chroot with the smoke suite;
#  3. the GoogleTest and Python suites again on an AddressSanitizer + UBSan build (glibc), and
#     the hostile Python cases once more there with --test-controls on;
#  4. the concurrency tests (CTest label `concurrency`) on a ThreadSanitizer build.
# The aarch64 build and its qemu smoke run in scripts/release.sh, not here (CI time).
# HBEMU_SANITIZERS=0 skips 3 and 4 (quicker local runs; CI runs everything).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
start=$(date +%s)
"$repo/scripts/setup.sh"
echo "== GoogleTest (ctest)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
echo "== Fuzzing (libFuzzer, bounded)"
"$repo/scripts/fuzz.sh" "${FUZZ_SECONDS:-30}"
arch="$(uname -m)"
version="$(sed -n 's/^project(hbase_emulator VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")"
echo "== Static package ($arch): server and shell with no dynamic loader; tarball and wheel"
"$repo/scripts/package.sh" "$arch"
static_dir="$repo/build-static-$arch"
echo "== Python compatibility suite, against the static server"
HBASE_EMULATOR_BIN="$static_dir/hbase-emulator" "$repo/python-compat/run.sh"
echo "== The wheel in a fresh venv: the pytest plugin starts the bundled server, no environment"
"$repo/scripts/check_wheel.sh" "$repo"/dist/hbase_emulator-"$version"-py3-none-*_"$arch".whl
echo "== The container image: built from the static binaries, unpacked, its entrypoint run under chroot"
image_dist="$(mktemp -d)"
trap 'rm -rf "$image_dist"' EXIT
oci_arch="$([ "$arch" = aarch64 ] && echo arm64 || echo amd64)"
"$repo/scripts/oci_image.py" --version "$version" --commit "$(git -C "$repo" rev-parse --short=12 HEAD)" \
  --out "$image_dist" --arch "$oci_arch=$static_dir/package-bin"
as_root=()  # unshare and chroot: root, as CI runs; through sudo otherwise
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" "$repo/scripts/check_image.sh" "$image_dist/hbase-emulator-$version-image-linux-$oci_arch.tar"

if [ "${HBEMU_SANITIZERS:-1}" != 0 ]; then
  sanitizer_env=(
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$repo/tests/sanitizers/ubsan.supp"
    "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$repo/tests/sanitizers/tsan.supp"
    "HBEMU_UNDER_SANITIZER=1")
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer build"
  BUILD_DIR="$repo/build-asan" BUILD_TYPE=Debug CMAKE_EXTRA_ARGS="-DENABLE_ASAN=ON" "$repo/scripts/setup.sh"
  env "${sanitizer_env[@]}" ctest --test-dir "$repo/build-asan" --output-on-failure -j "$(nproc)"
  env "${sanitizer_env[@]}" HBEMU_SOAK_SECONDS=8 HBASE_EMULATOR_BIN="$repo/build-asan/hbase-emulator" \
    "$repo/python-compat/run.sh"
  # The hostile cases again with the test controls on, as the pytest plugin starts its servers:
  # the call log's decoder then reads every hostile message.
  env "${sanitizer_env[@]}" HBEMU_EXTRA_FLAGS=--test-controls \
    HBASE_EMULATOR_BIN="$repo/build-asan/hbase-emulator" \
    "$repo/python-compat/run.sh" "$repo"/python-compat/test_hostile_*.py
  echo "== ThreadSanitizer build (concurrency tests)"
  BUILD_DIR="$repo/build-tsan" BUILD_TYPE=Debug CMAKE_EXTRA_ARGS="-DENABLE_TSAN=ON" \
    BUILD_TARGETS="storage_tests server_tests" "$repo/scripts/setup.sh"
  # Every test in a test file that starts threads carries the label (cmake/ConcurrencyLabel.cmake).
  env "${sanitizer_env[@]}" ctest --test-dir "$repo/build-tsan" --output-on-failure -j "$(nproc)" \
    -L concurrency
fi
echo "== all tests passed in $(( $(date +%s) - start )) s"
