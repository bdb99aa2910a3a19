#!/usr/bin/env bash
# Smoke-tests a pair of built binaries: starts BIN_DIR/hbase-emulator in memory on free ports,
# waits until its own --health-check passes, runs python-compat/smoke (happybase, Thrift2,
# hbase-shell, the pytest plugin) against it with python-compat's venv, then stops it and checks
# it stopped cleanly. With --qemu ARCH both binaries run under qemu-ARCH (user mode), so an
# aarch64 build is tested on an x86_64 machine.
# Usage: scripts/smoke.sh [--qemu aarch64] BIN_DIR [pytest args...]
# Exits with pytest's status, or 2 when the server does not start or stop as it should.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
qemu=()
if [ "${1:-}" = --qemu ]; then
  [ $# -ge 2 ] || { echo "usage: scripts/smoke.sh [--qemu ARCH] BIN_DIR [pytest args...]" >&2; exit 2; }
  qemu=("qemu-$2")
  shift 2
fi
[ $# -ge 1 ] || { echo "usage: scripts/smoke.sh [--qemu ARCH] BIN_DIR [pytest args...]" >&2; exit 2; }
bin_dir="$(cd "$1" 2>/dev/null && pwd)" || { echo "smoke: no folder $1" >&2; exit 2; }
shift
for b in hbase-emulator hbase-shell; do
  [ -x "$bin_dir/$b" ] || { echo "smoke: $bin_dir/$b is missing or not executable" >&2; exit 2; }
done
if ((${#qemu[@]})); then
  command -v "${qemu[0]}" >/dev/null || { echo "smoke: ${qemu[0]} is not installed (apt-get install qemu-user)" >&2; exit 2; }
  # Emulation is some ten times slower: every wait gets that much more room.
  ready_wait_s=180
  export HBEMU_SMOKE_TIMEOUT_S="${HBEMU_SMOKE_TIMEOUT_S:-900}"
else
  ready_wait_s=30
fi

work="$(mktemp -d)"
server_pid=""
stop_server() {
  # SIGTERM asks for the clean shutdown a container stop gives; SIGKILL only if that hangs.
  [ -n "$server_pid" ] || return 0
  local pid="$server_pid" status=0
  server_pid=""
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 "$ready_wait_s"); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "smoke: the server ignored SIGTERM for ${ready_wait_s} s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" || status=$?
  return "$status"
}
trap 'stop_server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "smoke: $("${qemu[@]}" "$bin_dir/hbase-emulator" --version | head -n1)${qemu:+ (under ${qemu[0]})}"
"${qemu[@]}" "$bin_dir/hbase-emulator" --in-memory --port 0 >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
ready=""
for _ in $(seq 1 $((ready_wait_s * 10))); do
  ready="$(grep -m1 '^hbase-emulator ready on ' "$work/stdout" || true)"
  [ -n "$ready" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "smoke: no readiness line within ${ready_wait_s} s; stderr:" >&2
  tail -n 30 "$work/stderr" >&2
  exit 2
fi
echo "smoke: $ready"
port_of() { sed -n "s/.*$1[^ ]*:\([0-9][0-9]*\)\( .*\)\{0,1\}\$/\1/p" <<<"$ready"; }
thrift1="$(port_of 'ready on ')"
thrift2="$(port_of ' thrift2=')"
admin="$(port_of ' admin=')"

# The readiness line comes after the console listens; the binary's own health check confirms it
# (and is itself under test: it is what the container image's HEALTHCHECK runs).
healthy=""
for _ in $(seq 1 "$ready_wait_s"); do
  if "${qemu[@]}" "$bin_dir/hbase-emulator" --health-check --admin-port "$admin" >"$work/health"; then
    healthy=yes
    break
  fi
  sleep 1
done
if [ -z "$healthy" ]; then
  echo "smoke: --health-check never passed: $(cat "$work/health")" >&2
  exit 2
fi
echo "smoke: $(cat "$work/health")"

# The plugin starts servers of its own: under qemu it needs one executable that runs the emulated
# binary, since it takes a path, not a command line.
emulator_bin="$bin_dir/hbase-emulator"
if ((${#qemu[@]})); then
  emulator_bin="$work/hbase-emulator"
  printf '#!/bin/sh\nexec %q %q "$@"\n' "$(command -v "${qemu[0]}")" "$bin_dir/hbase-emulator" >"$emulator_bin"
  chmod +x "$emulator_bin"
fi
shell_command="$(printf '%q ' "${qemu[@]}" "$bin_dir/hbase-shell")"

set +e
HBEMU_SMOKE_HOST=127.0.0.1 HBEMU_SMOKE_THRIFT1_PORT="$thrift1" HBEMU_SMOKE_THRIFT2_PORT="$thrift2" \
  HBEMU_SMOKE_ADMIN_PORT="$admin" HBEMU_SMOKE_SHELL="$shell_command" \
  HBEMU_SMOKE_EMULATOR_BIN="$emulator_bin" "$repo/python-compat/run.sh" smoke "$@"
status=$?
set -e

stop_status=0
stop_server || stop_status=$?
if [ "$stop_status" -ne 0 ]; then
  echo "smoke: the server exited with status $stop_status after SIGTERM; stderr:" >&2
  tail -n 30 "$work/stderr" >&2
  [ "$status" -ne 0 ] || status=2
fi
exit "$status"
