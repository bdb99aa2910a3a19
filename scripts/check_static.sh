#!/usr/bin/env bash
# Fails unless every binary given is fully static: no program interpreter (dynamic loader) and no
# dynamic section, so it runs on any Linux kernel of its architecture whatever the C library
# (glibc, musl, or none in a container made from scratch). Prints "ARCH BINARY" for each.
# Usage: scripts/check_static.sh BINARY...
set -euo pipefail
status=0
for bin in "$@"; do
  arch="$(readelf -hW "$bin" | sed -n 's/^ *Machine: *//p')"
  if readelf -lW "$bin" | grep -q 'INTERP\|DYNAMIC'; then
    echo "check_static: $bin ($arch) has a dynamic loader or dynamic section:" >&2
    readelf -lW "$bin" | grep -E 'INTERP|DYNAMIC|interpreter' >&2 || true
    status=1
  elif ! file -b "$bin" | grep -q 'statically linked'; then
    echo "check_static: file does not call $bin statically linked: $(file -b "$bin")" >&2
    status=1
  else
    echo "$arch $bin"
  fi
done
exit "$status"
