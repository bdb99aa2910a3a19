#!/usr/bin/env bash
# Runs the Python compatibility suite against the built server.
#   python-compat/run.sh [pytest args...]
# Environment: HBASE_EMULATOR_BIN (default: <repo>/build/hbase-emulator),
#              HBASE_THRIFT_TARGET=host:port (use a running server, e.g. real HBase, instead),
#              HBASE_REST_TARGET=host:port (the REST tests use that gateway, e.g. HBase's own,
#              instead of the server's rest port),
#              PYTHON (interpreter for the venv, default python3).
# Exits with pytest's status.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
export HBASE_EMULATOR_BIN="${HBASE_EMULATOR_BIN:-$repo/build/hbase-emulator}"
# pytest runs from python-compat/, so a path relative to the caller's directory must be fixed now.
case "$HBASE_EMULATOR_BIN" in /*) ;; *) HBASE_EMULATOR_BIN="$PWD/$HBASE_EMULATOR_BIN" ;; esac
venv="$here/.venv"
python="${PYTHON:-python3}"

# Reuse the venv; rebuild it if its interpreter is gone, reinstall only when requirements change.
if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(cat "$here/requirements.txt" <("$venv/bin/python" -V 2>&1) | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  echo "python-compat: installing requirements into $venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$here/requirements.txt"
  echo "$want" > "$stamp"
fi
# The package hbase_emulator (pytest plugin, reset, export/import) as a user gets it from
# `pip install ./python-compat`: a real wheel build, so the tests see the installed entry points
# and package data. Rebuilt only when its sources change.
pkg_stamp="$venv/.hbase_emulator.sha256"
pkg_want="$(cat "$here/pyproject.toml" "$here/CMakeLists.txt" "$here"/hbase_emulator/*.py "$here/hbase_emulator/THBaseService.thrift" \
  | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$pkg_stamp" 2>/dev/null || true)" != "$pkg_want" ]; then
  echo "python-compat: installing ./python-compat (hbase_emulator) into $venv"
  rm -rf "$here/build" "$here"/*.egg-info
  # The package's name before it carried the binaries.
  "$venv/bin/python" -m pip uninstall --disable-pip-version-check -q -y hbase-emulator-tools \
    >/dev/null 2>&1 || true
  # wheel.cmake=false: no binaries in it, since the suite names the server under test itself
  # (the wheel with the static binaries is built and tested by scripts/package.sh and test.sh).
  "$venv/bin/python" -m pip install --disable-pip-version-check -q --no-deps --no-build-isolation \
    -C wheel.cmake=false --force-reinstall "$here"
  rm -rf "$here/build" "$here"/*.egg-info
  echo "$pkg_want" > "$pkg_stamp"
fi

# Raw Apache Thrift clients generated from our IDLs (packages `hbase` and `hbase2`), fresh every run,
# not committed.
if ! command -v "${THRIFT:-thrift}" >/dev/null 2>&1; then
  echo "python-compat: the Thrift compiler (thrift) is not installed; run scripts/setup.sh" >&2
  exit 2
fi
gen="$venv/gen-py"
rm -rf "$gen"
mkdir -p "$gen"
"${THRIFT:-thrift}" --gen py -out "$gen" "$repo/thrift/Hbase.thrift"
"${THRIFT:-thrift}" --gen py -out "$gen" "$repo/thrift/THBaseService.thrift"
export HBASE_COMPAT_GEN_PY="$gen"

cd "$here"
set +e
"$venv/bin/python" -m pytest -q -rfEs "$@"
status=$?
set -e
exit "$status"
