#!/usr/bin/env bash
# Fails unless every binary given needs nothing but glibc's own shared objects (libc, libm,
# libpthread, libdl, librt, libresolv, the dynamic loader, the vDSO), as a portable build must.
# Prints the newest GLIBC_ symbol version they need: the oldest glibc they run on.
# Usage: scripts/check_portable.sh BINARY...
set -euo pipefail
status=0
newest=""
for bin in "$@"; do
  # ldd prints "name => path (addr)" or "path (addr)"; the first field is the name either way.
  others="$(ldd "$bin" | awk '{print $1}' | grep -v -E \
    '^(linux-vdso\.so\.1|linux-gate\.so\.1|(/.*/)?ld-linux[-a-z0-9_.]*\.so\.[0-9]+|lib(c|m|pthread|dl|rt|resolv)\.so\.[0-9]+)$' || true)"
  if [ -n "$others" ]; then
    echo "check_portable: $bin needs libraries outside glibc:" $others >&2
    status=1
  fi
  v="$(objdump -T "$bin" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)"
  newest="$(printf '%s\n%s\n' "$newest" "$v" | sed '/^$/d' | sort -V | tail -1)"
done
[ "$status" -eq 0 ] && echo "$newest"
exit "$status"
