#!/usr/bin/env bash
# README command 1: install what is missing, build, and run the server in the foreground.
# Defaults: 127.0.0.1:9090, data in ./data. Extra arguments go to the server
# (for example --in-memory, --port 9091, --framed, --compact).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/setup.sh"
args=("$@")
has_data_flag=0
for a in "${args[@]}"; do
  case "$a" in --data-dir|--data-dir=*|--in-memory) has_data_flag=1 ;; esac
done
if [ "$has_data_flag" -eq 0 ]; then args+=(--data-dir "$repo/data"); fi
exec "${BUILD_DIR:-$repo/build}/hbase-emulator" "${args[@]}"
