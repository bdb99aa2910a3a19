#!/usr/bin/env bash
# README command 2: install what is missing, build, and run every test:
# GoogleTest through CTest, a bounded libFuzzer run of the filter parser (when clang is
# installed), then the Python compatibility suite against the built server.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
start=$(date +%s)
"$repo/scripts/setup.sh"
echo "== GoogleTest (ctest)"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
echo "== Filter-parser fuzzing (libFuzzer, bounded)"
"$repo/scripts/fuzz_filter_parser.sh" "${FUZZ_SECONDS:-30}"
echo "== Python compatibility suite"
HBASE_EMULATOR_BIN="$build_dir/hbase-emulator" "$repo/python-compat/run.sh"
echo "== all tests passed in $(( $(date +%s) - start )) s"
