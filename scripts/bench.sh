#!/usr/bin/env bash
# docs/benchmarks.md's command: build (via setup.sh) and run the benchmark; prints one table of ratios
# against references measured in the same run.
# Usage: scripts/bench.sh [--quick] [--no-growth] [--no-disk]   (environment: BUILD_DIR)
#        scripts/bench.sh --static [--quick]: getRow and mutateRow at 1 and 4 connections and the
#        full scan, the static release build (build-static-<arch>, scripts/static_build.sh)
#        against this machine's glibc build, alternated
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
"$repo/scripts/setup.sh"
# The many-connections workload holds ~1,000 sockets on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true
if [ "${1:-}" = --static ]; then
  shift
  static_dir="$("$repo/scripts/static_build.sh" "$(uname -m)")"
  exec "$build_dir/hbase_bench" --server "$static_dir/hbase-emulator" \
    --against "$build_dir/hbase-emulator" "$@"
fi
"$build_dir/hbase_bench" "$@"

# What users feel: the same calls through happybase (Python), against this server and against a
# do-nothing server written with happybase's own Thrift library (thriftpy2).
happybase_args=(--seconds 3 --repeat 3)
for a in "$@"; do [ "$a" = --quick ] && happybase_args=(--seconds 1 --repeat 2); done
echo
echo "What users feel (python-compat/bench_tools.py happybase; ratio = this server / do-nothing):"
"$repo/python-compat/run.sh" --collect-only -q >/dev/null  # sets up the venv with happybase
cd "$repo/python-compat"
HBASE_EMULATOR_BIN="$build_dir/hbase-emulator" .venv/bin/python bench_tools.py happybase "${happybase_args[@]}"
