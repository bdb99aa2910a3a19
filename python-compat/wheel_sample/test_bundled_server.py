"""What the plugin started, with no HBASE_EMULATOR_BIN and no hbase-emulator on PATH: the server
carried by the installed wheel, linked statically but for glibc."""

import subprocess
import sys
from pathlib import Path

from hbase_emulator import bundled


def test_the_server_is_the_bundled_portable_one(hbase_emulator):
    started = Path(hbase_emulator.process.binary).resolve()
    assert started == bundled.binary("hbase-emulator").resolve()
    # Inside this venv's site-packages, not a checkout's build/ folder.
    assert Path(sys.prefix).resolve() in started.parents
    version = subprocess.run([str(started), "--version"], capture_output=True, text=True,
                             check=True).stdout
    assert "portable: every library static except glibc" in version


def test_the_commands_run_the_bundled_binaries():
    scripts = Path(sys.executable).parent
    for command in ("hbase-emulator", "hbase-shell"):
        out = subprocess.run([str(scripts / command), "--version"], capture_output=True, text=True,
                             check=True).stdout
        assert out.startswith(command + " "), out
        assert "follows Apache HBase 2.6.1" in out
