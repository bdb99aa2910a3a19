"""What the plugin started, with no HBASE_EMULATOR_BIN and no hbase-emulator on PATH: the server
carried by the installed wheel, fully static (no dynamic loader)."""

import struct
import subprocess
import sys
from pathlib import Path

from hbase_emulator import bundled


def test_the_server_is_the_bundled_static_one(hbase_emulator):
    started = Path(hbase_emulator.process.binary).resolve()
    assert started == bundled.binary("hbase-emulator").resolve()
    # Inside this venv's site-packages, not a checkout's build/ folder.
    assert Path(sys.prefix).resolve() in started.parents
    version = subprocess.run([str(started), "--version"], capture_output=True, text=True,
                             check=True).stdout
    assert "-linux-musl (musl, libc++; no dynamic loader)" in version
    assert PT_INTERP not in program_header_types(started)


PT_INTERP = 3  # the program header naming a dynamic loader


def program_header_types(path):
    """The p_type of every program header of a 64-bit little-endian ELF file."""
    with open(path, "rb") as f:
        header = f.read(64)
        assert header[:4] == b"\x7fELF" and header[4] == 2 and header[5] == 1, header[:6]
        phoff, = struct.unpack_from("<Q", header, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", header, 0x36)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return [struct.unpack_from("<I", table, i * phentsize)[0] for i in range(phnum)]


def test_the_commands_run_the_bundled_binaries():
    scripts = Path(sys.executable).parent
    for command in ("hbase-emulator", "hbase-shell"):
        out = subprocess.run([str(scripts / command), "--version"], capture_output=True, text=True,
                             check=True).stdout
        assert out.startswith(command + " "), out
        assert "follows Apache HBase 2.6.1" in out
