#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan, coverage on our code) and runs each for a
# bounded time, starting from the seeds in tests/fuzz/:
#   wire_fuzzer           client bytes through detection, framing, HTTP, Thrift decoding and the
#                         real handler over an in-memory store (tests/fuzz/wire_fuzzer.cc)
#   filter_parser_fuzzer  the HBase filter language parser
# Usage: scripts/fuzz.sh [seconds per target]   (default 30; environment: FUZZ_BUILD_DIR)
# Prints each target's execution count; exits non-zero on the first crash, leak or UB report,
# leaving the input that caused it in the build folder.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${FUZZ_BUILD_DIR:-$repo/build-fuzz}"
seconds="${1:-30}"
BUILD_DIR="$build_dir" BUILD_TYPE=RelWithDebInfo \
  CMAKE_EXTRA_ARGS="-DCMAKE_CXX_COMPILER=clang++ -DENABLE_FUZZING=ON" \
  BUILD_TARGETS="wire_fuzzer filter_parser_fuzzer" "$repo/scripts/setup.sh"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$repo/tests/sanitizers/ubsan.supp"

run() {
  local name="$1" seeds="$2"
  shift 2
  local out="$build_dir/fuzz/$name.out"
  mkdir -p "$out/corpus"
  local log="$out/last_run.log"
  set +e
  "$build_dir/fuzz/$name" -artifact_prefix="$out/" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 "$@" "$out/corpus" "$seeds" >"$log" 2>&1
  local rc=$?
  set -e
  local runs cov
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  if [ $rc -ne 0 ]; then
    tail -60 "$log"
    echo "fuzz: $name FAILED (exit $rc); the input is in $out"
    exit $rc
  fi
  echo "fuzz: $name survived ${runs:-?} executions in ${seconds} s" \
       "(coverage ${cov:-?} edges, corpus $(ls "$out/corpus" | wc -l) inputs + $(ls "$seeds" | wc -l) seeds)"
}

# The wire target's store keeps what inputs write (that is its job), so libFuzzer's per-input leak
# check would fire a full LeakSanitizer scan on most inputs and cut throughput 20-fold; leaks are
# covered by the ASan build's CTest and Python runs instead.
run wire_fuzzer "$repo/tests/fuzz/wire_seeds" -max_len=16384 -detect_leaks=0
run filter_parser_fuzzer "$repo/tests/fuzz/filter_parser_seeds"
