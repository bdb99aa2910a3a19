#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the server in the foreground.
# Installs only what building and serving need and builds only the server and the shell (tests,
# benchmarks and fuzzers are scripts/test.sh's); --help, --version and --limits answer at once when
# a server is already built. Defaults: 127.0.0.1:9090, data in ./data. Extra arguments go to the
# server (for example --in-memory, --port 9091, --framed, --compact).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
server="${BUILD_DIR:-$repo/build}/hbase-emulator"
args=("$@")
for a in "${args[@]}"; do
  case "$a" in -h|--help|--version|--limits) [ -x "$server" ] && exec "$server" "${args[@]}" ;; esac
done
SETUP_PROFILE=serve BUILD_TARGETS="hbase-emulator hbase-shell" "$repo/scripts/setup.sh"
has_data_flag=0
for a in "${args[@]}"; do
  case "$a" in --data-dir|--data-dir=*|--in-memory) has_data_flag=1 ;; esac
done
if [ "$has_data_flag" -eq 0 ]; then args+=(--data-dir "$repo/data"); fi
exec "$server" "${args[@]}"
