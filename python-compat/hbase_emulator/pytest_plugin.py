"""pytest plugin: a session-wide hbase-emulator for the tests of any project.

Installed with `pip install ./python-compat` (entry point `pytest11: hbase_emulator`).

Fixtures
  hbase_emulator   (session) the running server: .host, .port (Thrift1), .thrift2_port,
                   .connection(**kw) -> happybase.Connection, .thrift2() -> THBaseService client,
                   .reset(drop=False). Started lazily by the first test that asks for it, in memory
                   on free ports; under pytest-xdist every worker starts its own.
  hbase_connection (function) a happybase.Connection to it, closed after the test.
  hbase_reset      (function) empties every user table before the test (schemas and splits kept).
Marker
  @pytest.mark.hbase_reset            same as the hbase_reset fixture;
  @pytest.mark.hbase_reset(drop=True) drops every user table and namespace before the test.
Configuration (ini file; paths relative to it)
  hbase_emulator_bin  = path        server binary (else --hbase-emulator-bin, $HBASE_EMULATOR_BIN,
                                    hbase-emulator on PATH, build/hbase-emulator above rootdir)
  hbase_emulator_init = file ...    schema scripts run by the server before it is ready (--init)
  hbase_emulator_args = flag ...    more server flags
"""

import os
from pathlib import Path

import pytest

from . import reset as reset_module
from . import server as server_module
from . import thrift2

# Snapshot fixture and marker (snapshot_plugin.py).
pytest_plugins = ["hbase_emulator.snapshot_plugin"]


def pytest_addoption(parser):
    group = parser.getgroup("hbase_emulator", "hbase-emulator server for tests")
    group.addoption("--hbase-emulator-bin", dest="hbase_emulator_bin", default=None,
                    help="hbase-emulator binary for the hbase_emulator fixture")
    parser.addini("hbase_emulator_bin", "hbase-emulator binary (relative to the ini file)",
                  default="")
    parser.addini("hbase_emulator_init", "shell scripts the server runs at start (--init), "
                  "relative to the ini file", type="args", default=[])
    parser.addini("hbase_emulator_args", "more hbase-emulator flags", type="args", default=[])


def pytest_configure(config):
    config.addinivalue_line("markers", "hbase_reset(drop=False): empty every user table of the "
                            "hbase_emulator server before this test (drop=True: drop them all, "
                            "and every user namespace)")


def _config_dir(config):
    return Path(config.inipath).parent if config.inipath else Path(config.rootpath)


class HBaseEmulator:
    """The server a test session talks to, and ways to reach it."""

    def __init__(self, process):
        self.process = process
        self._connections = []
        self._admin = None

    @property
    def host(self):
        return self.process.host

    @property
    def port(self):
        """Thrift1 port (happybase)."""
        return self.process.port

    @property
    def thrift2_port(self):
        return self.process.thrift2_port

    def connection(self, **kwargs):
        """A happybase.Connection to the server (closed at the end of the session at the latest)."""
        import happybase

        conn = happybase.Connection(self.host, self.port, **kwargs)
        self._connections.append(conn)
        return conn

    def thrift2(self, timeout_ms=thrift2.DEFAULT_TIMEOUT_MS):
        """A new THBaseService client (thriftpy2); close it with .close()."""
        return thrift2.connect(self.host, self.thrift2_port, timeout_ms)

    def reset(self, drop=False):
        """Empties every user table (drop=True: drops every user table and namespace).

        Reuses one admin connection; the server closes idle connections, so one retry reconnects.
        """
        for attempt in (1, 2):
            if self._admin is None:
                self._admin = self.thrift2()
            try:
                return reset_module.reset(self._admin, drop=drop)
            except (OSError, thrift2.TTransportException):
                self._admin.close()
                self._admin = None
                if attempt == 2:
                    raise

    def close(self):
        for conn in self._connections:
            conn.close()
        self._connections = []
        if self._admin is not None:
            self._admin.close()
            self._admin = None


@pytest.fixture(scope="session")
def hbase_emulator(request):
    config = request.config
    base = _config_dir(config)
    explicit = config.getoption("hbase_emulator_bin") or config.getini("hbase_emulator_bin")
    if explicit and not os.path.isabs(explicit) and config.getoption("hbase_emulator_bin") is None:
        explicit = str(base / explicit)
    binary = server_module.find_binary(explicit, search_from=config.rootpath)
    args = ["--in-memory", "--port", "0"]
    for script in config.getini("hbase_emulator_init"):
        args += ["--init", str(base / script)]
    args += config.getini("hbase_emulator_args")
    process = server_module.EmulatorServer(binary, args).start()
    emulator = HBaseEmulator(process)
    try:
        yield emulator
    finally:
        emulator.close()
        rc = process.stop()
        if rc not in (0, None):
            print("\nhbase-emulator exited with %s; stderr tail:\n%s" % (rc, process.stderr_text()))


@pytest.fixture
def hbase_connection(hbase_emulator):
    conn = hbase_emulator.connection()
    yield conn
    conn.close()


@pytest.fixture
def hbase_reset(hbase_emulator):
    hbase_emulator.reset()
    return hbase_emulator


@pytest.fixture(autouse=True)
def _hbase_reset_marker(request):
    marker = request.node.get_closest_marker("hbase_reset")
    if marker is not None:
        request.getfixturevalue("hbase_emulator").reset(drop=bool(marker.kwargs.get("drop", False)))
