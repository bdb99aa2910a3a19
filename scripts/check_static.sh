#!/usr/bin/env bash
# Fails unless every binary given is fully static: no program interpreter (dynamic loader) and no
# dynamic section, so it runs on any Linux kernel of its architecture whatever the C library
# (glibc, musl, or none in a container made from scratch). Prints "ARCH BINARY" for each.
# Usage: scripts/check_static.sh BINARY...
set -euo pipefail
status=0
for bin in "$@"; do
  arch="$(readelf -hW "$bin" | sed -n 's/^ *Machine: *//p')"
  # Whole outputs, not pipes into grep -q: under pipefail a writer cut short fails the test.
  headers="$(readelf -lW "$bin")"
  if grep -q 'INTERP\|DYNAMIC' <<<"$headers"; then
    echo "check_static: $bin ($arch) has a dynamic loader or dynamic section:" >&2
    grep -E 'INTERP|DYNAMIC|interpreter' <<<"$headers" >&2 || true
    status=1
  elif ! grep -q 'statically linked' <<<"$(file -b "$bin")"; then
    echo "check_static: file does not call $bin statically linked: $(file -b "$bin")" >&2
    status=1
  else
    echo "$arch $bin"
  fi
done
exit "$status"
