#!/usr/bin/env bash
# Checks a container image archive from scripts/oci_image.py as a container runtime would run it,
# where none can start containers: unpacks it (skopeo, umoci), then in fresh mount, PID and
# network namespaces (only loopback, so the image's fixed ports 9090/9091/9095/8080 clash with nothing
# on the machine) runs its Entrypoint + Cmd chrooted into the image as its User (scripts/oci_run.py),
# and checks:
#   - the server comes up on 0.0.0.0:9090/9091/9095/8080, logging exactly one no-authentication warning;
#   - the image's HEALTHCHECK command, run in the image, exits 0 (and 1 once the server stopped);
#   - python-compat/smoke passes against it, its shell test and pytest plugin test running the
#     image's own /hbase-shell and /hbase-emulator;
#   - the server wrote its data into the /data volume as the image's user and stops cleanly on
#     SIGTERM.
# Usage: scripts/check_image.sh ARCHIVE [--qemu aarch64]   (as root)
#   ARCHIVE: hbase-emulator-V-image-linux-ARCH.tar or hbase-emulator-V-oci.tar (the platform of
#   this machine, or of --qemu). --qemu runs the image's binaries through a static qemu-user
#   (qemu-user-static) copied into the unpacked root file system, so no binfmt_misc is needed.
# Exits non-zero on any failure; leaves nothing behind.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fail() { echo "check_image: $*" >&2; exit 1; }

# ---- inside the namespaces (PID 1 of the new PID namespace; its exit ends every process in it)
inside() {
  local work="$1" qemu_in="$2"
  local rootfs="$work/bundle/rootfs"
  ip link set lo up
  # What a runtime adds to every container: /proc, a small /dev, /etc/hosts.
  mkdir -p "$rootfs/proc" "$rootfs/dev"
  mount -t proc proc "$rootfs/proc"
  mount -t tmpfs -o mode=755,nosuid tmpfs "$rootfs/dev"
  for node in null zero random urandom; do
    touch "$rootfs/dev/$node"
    mount --bind "/dev/$node" "$rootfs/dev/$node"
  done
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$work/hosts"
  touch "$rootfs/etc/hosts"
  mount --bind -o ro "$work/hosts" "$rootfs/etc/hosts"

  local run=(python3 "$repo/scripts/oci_run.py" "$work/config.json" "$rootfs")
  [ -z "$qemu_in" ] || run+=(--qemu "$qemu_in")
  local wait_s=30 health_timeout_s=3
  if [ -n "$qemu_in" ]; then
    wait_s=180
    health_timeout_s=30  # the image's 3 s is for native speed
    export HBEMU_SMOKE_TIMEOUT_S="${HBEMU_SMOKE_TIMEOUT_S:-900}"
  fi

  "${run[@]}" -- >"$work/server.out" 2>"$work/server.err" &
  local server_pid=$! ready=""
  for _ in $(seq 1 $((wait_s * 10))); do
    ready="$(grep -m1 '^hbase-emulator ready on ' "$work/server.out" || true)"
    [ -n "$ready" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$ready" ]; then
    tail -n 30 "$work/server.err" >&2
    fail "the entrypoint printed no readiness line within $wait_s s"
  fi
  echo "check_image: $ready"
  local failures=0
  check() {  # check DESCRIPTION COMMAND...: runs it, counts a failure
    local what="$1"
    shift
    if "$@"; then echo "check_image: ok: $what"; else echo "check_image: FAILED: $what" >&2; failures=$((failures + 1)); fi
  }
  check "serves Thrift1, Thrift2, the console and REST on 0.0.0.0:9090/9091/9095/8080" \
    test "$ready" = "hbase-emulator ready on 0.0.0.0:9090 thrift2=0.0.0.0:9091 admin=0.0.0.0:9095 rest=0.0.0.0:8080"

  local warnings
  warnings="$(grep -c 'no authentication' "$work/server.err" || true)"
  check "one no-authentication warning (found $warnings)" test "$warnings" -eq 1
  check "the warning names every door" grep -q '^W.*Thrift and REST ports and admin console on 0.0.0.0: there is no authentication' "$work/server.err"

  local health
  mapfile -t health < <(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["config"]["Healthcheck"]["Test"]; assert t[0]=="CMD", t; print("\n".join(t[1:]))' "$work/config.json")
  healthy() { timeout "$health_timeout_s" "${run[@]}" -- "${health[@]}"; }
  check "HEALTHCHECK (${health[*]}) exits 0 in the image" healthy

  local emulator_bin="$work/hbase-emulator"
  printf '#!/bin/sh\nexec %s -- /hbase-emulator "$@"\n' "$(printf '%q ' "${run[@]}")" >"$emulator_bin"
  chmod +x "$emulator_bin"
  local status=0
  HBEMU_SMOKE_HOST=127.0.0.1 HBEMU_SMOKE_THRIFT1_PORT=9090 HBEMU_SMOKE_THRIFT2_PORT=9091 \
    HBEMU_SMOKE_ADMIN_PORT=9095 HBEMU_SMOKE_SHELL="$(printf '%q ' "${run[@]}") -- /hbase-shell" \
    HBEMU_SMOKE_EMULATOR_BIN="$emulator_bin" "$repo/python-compat/run.sh" smoke || status=$?
  check "the smoke suite passes (pytest status $status)" test "$status" -eq 0

  check "LevelDB's files are in the /data volume, owned by the image's user" \
    test "$(stat -c %u "$rootfs/data/CURRENT" 2>/dev/null)" = "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["User"].split(":")[0])' "$work/config.json")"

  kill -TERM "$server_pid"
  local stopped=1
  for _ in $(seq 1 "$wait_s"); do
    kill -0 "$server_pid" 2>/dev/null || { stopped=0; break; }
    sleep 1
  done
  local rc=0
  if [ "$stopped" -ne 0 ]; then kill -KILL "$server_pid"; fi
  wait "$server_pid" || rc=$?
  check "stops cleanly on SIGTERM (exit status $rc)" test "$rc" -eq 0
  check "the health check fails once the server is gone" bash -c '! "$@" >/dev/null' _ timeout "$health_timeout_s" "${run[@]}" -- "${health[@]}"
  if [ "$failures" -ne 0 ]; then
    echo "check_image: server stderr (tail):" >&2
    tail -n 20 "$work/server.err" >&2
    fail "$failures check(s) failed"
  fi
}

if [ "${1:-}" = --inside ]; then
  inside "$2" "${3:-}"
  exit 0
fi

# ---- outside: unpack, read the config, prepare the venv (pip needs the network the namespace lacks)
[ $# -ge 1 ] || fail "usage: scripts/check_image.sh ARCHIVE [--qemu aarch64]"
archive="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
qemu=""
if [ "${1:-}" = --qemu ]; then
  [ $# -ge 2 ] || fail "--qemu needs an architecture (aarch64)"
  qemu="$2"
  shift 2
fi
[ $# -eq 0 ] || fail "unexpected arguments: $*"
[ "$(id -u)" -eq 0 ] || fail "needs root (namespaces, chroot, the image's user)"
for tool in skopeo umoci unshare ip python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done
case "${qemu:-$(uname -m)}" in
  x86_64) arch=amd64 ;;
  aarch64) arch=arm64 ;;
  *) fail "no OCI architecture known for ${qemu:-$(uname -m)}" ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# skopeo checks every digest and size on the way, and picks this platform from a multi-arch index.
skopeo copy -q --override-os linux --override-arch "$arch" "oci-archive:$archive" "oci:$work/layout:image"
skopeo inspect --config --raw "oci:$work/layout:image" >"$work/config.json"
got_arch="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["architecture"])' "$work/config.json")"
[ "$got_arch" = "$arch" ] || fail "the image is for $got_arch, not $arch"
umoci unpack --image "$work/layout:image" "$work/bundle" >/dev/null
echo "check_image: $(basename "$archive") ($arch) unpacked; entrypoint $(python3 "$repo/scripts/oci_run.py" "$work/config.json" "$work/bundle/rootfs" --print Entrypoint --), cmd $(python3 "$repo/scripts/oci_run.py" "$work/config.json" "$work/bundle/rootfs" --print Cmd --)"
qemu_in=""
if [ -n "$qemu" ]; then
  qemu_static="$(command -v "qemu-$qemu-static" || true)"
  [ -n "$qemu_static" ] || fail "qemu-$qemu-static is not installed (apt-get install qemu-user-static)"
  qemu_in="/qemu-$qemu-static"
  cp "$qemu_static" "$work/bundle/rootfs$qemu_in"
fi
"$repo/python-compat/run.sh" --collect-only -q smoke >/dev/null

# --kill-child: if this script is interrupted, everything inside goes with it.
unshare --mount --pid --net --fork --mount-proc --kill-child -- "$0" --inside "$work" "$qemu_in"
echo "check_image: $(basename "$archive") ($arch) passed"
