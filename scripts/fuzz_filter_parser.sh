#!/usr/bin/env bash
# Builds the filter-parser libFuzzer target with clang++ and runs it for a bounded time.
#   scripts/fuzz_filter_parser.sh [seconds]      (default 30; environment: BUILD_DIR)
# Prints libFuzzer's execution count. Skips (exit 0) when clang++ or libFuzzer is missing.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
seconds="${1:-30}"
cxx="${FUZZ_CXX:-clang++}"
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: $cxx not installed; skipping the filter-parser fuzz run"
  exit 0
fi
out="$build_dir/fuzz"
mkdir -p "$out"
bin="$out/filter_parser_fuzzer"
sources=(storage/filter_parser.cc storage/filters.cc storage/filter.cc storage/comparators.cc
         storage/status.cc tests/fuzz/filter_parser_fuzzer.cc)
newest=$(cd "$repo" && ls -t "${sources[@]}" storage/*.h | head -1)
if [ ! -x "$bin" ] || [ "$repo/$newest" -nt "$bin" ]; then
  echo "fuzz: building $bin"
  (cd "$repo" && "$cxx" -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined \
      -fno-sanitize-recover=undefined -I. "${sources[@]}" \
      $(pkg-config --cflags --libs libpcre2-8) -o "$bin") || {
    echo "fuzz: cannot build with $cxx -fsanitize=fuzzer (libclang-rt-dev missing?); skipping"
    exit 0
  }
fi
corpus="$out/corpus"
mkdir -p "$corpus"
cp -n "$repo"/tests/fuzz/seeds/* "$corpus"/ 2>/dev/null || true
log="$out/last_run.log"
set +e
"$bin" -artifact_prefix="$out/" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "$corpus" >"$log" 2>&1
rc=$?
set -e
runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
if [ $rc -ne 0 ]; then
  tail -40 "$log"
  echo "fuzz: the filter-parser fuzzer FAILED (exit $rc); crash input is in $out"
  exit $rc
fi
echo "fuzz: filter parser survived ${runs:-?} executions in ${seconds} s (corpus $(ls "$corpus" | wc -l) inputs)"
