"""The server and shell binaries carried by this package (hbase_emulator/bin, put there by the
wheel build) and the `hbase-emulator` / `hbase-shell` commands, which run them."""

import os
import sys
from pathlib import Path

BIN_DIR = Path(__file__).resolve().parent / "bin"


def binary(name="hbase-emulator"):
    """The bundled `name` (hbase-emulator or hbase-shell), or None when this install has none
    (python-compat/run.sh installs the package without binaries)."""
    path = BIN_DIR / name
    return path if path.is_file() and os.access(str(path), os.X_OK) else None


def _run(name):
    path = binary(name)
    if path is None:
        sys.stderr.write("%s: this install of the hbase-emulator package has no binaries in %s; "
                         "install the wheel for this platform, or build from source with "
                         "`pip install ./python-compat`\n" % (name, BIN_DIR))
        sys.exit(127)
    os.execv(str(path), [name] + sys.argv[1:])


def emulator_main():
    _run("hbase-emulator")


def shell_main():
    _run("hbase-shell")
