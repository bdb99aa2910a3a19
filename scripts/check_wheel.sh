#!/usr/bin/env bash
# Installs a wheel made by scripts/package.sh into a fresh venv, as a user would, and runs
# python-compat/wheel_sample there: the README's first example through the pytest plugin, with no
# HBASE_EMULATOR_BIN, no hbase-emulator on PATH and no checkout around it, asserting the server the
# plugin started is the one the wheel carries. Dependencies come from PyPI at the suite's pins.
# Usage: scripts/check_wheel.sh WHEEL
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --disable-pip-version-check -q \
  -c "$repo/python-compat/requirements.txt" "$wheel" pytest
cp -r "$repo/python-compat/wheel_sample" "$work/project"
cd "$work/project"
env -u HBASE_EMULATOR_BIN PATH=/usr/bin:/bin "$work/venv/bin/python" -m pytest -q
echo "check_wheel: $(basename "$wheel") installs and serves the plugin's tests in a fresh venv"
