#!/usr/bin/env bash
# README command 3: build (via setup.sh) and run the benchmark; prints one table of ratios
# against references measured in the same run.
# Usage: scripts/bench.sh [--quick] [--no-growth] [--no-disk]   (environment: BUILD_DIR)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
"$repo/scripts/setup.sh"
# The many-connections workload holds ~1,000 sockets on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true
exec "$build_dir/hbase_bench" "$@"
