"""pytest plugin: a session-wide hbase-emulator for the tests of any project.

Installed with `pip install ./python-compat` (entry point `pytest11: hbase_emulator`).

Fixtures
  hbase_emulator   (session) the running server: .host, .port (Thrift1), .thrift2_port,
                   .connection(**kw) -> happybase.Connection, .thrift2() -> THBaseService client,
                   .reset(drop=False). Started lazily by the first test that asks for it, in memory
                   on free ports; under pytest-xdist every worker starts its own.
  hbase_connection (function) a happybase.Connection to it, closed after the test.
  hbase_reset      (function) empties every user table before the test (schemas and splits kept).
  The server runs with --test-controls (unless hbase_emulator_args binds other addresses or
  has --no-admin), so these work too (README "Test controls"):
  hbase_controls   (function) hbase_emulator.controls.Controls for it (clock, faults, calls).
  hbase_clock      (function) its clock: .freeze(at=None), .advance(days=2), .set_offset(...),
                   .now_ms(); resumed (back to the system clock) after the test.
  hbase_faults     (function) .inject(**rule) context manager, .add(**rule); every rule the
                   test added is removed after it.
  hbase_calls      (function) the calls made during the test: .calls(table=, method=, ...),
                   .methods(), .errors(), .assert_called(method, table=, times=, **fields),
                   .assert_not_called(...), .assert_no_errors().
  A failing test that used the server gets the server-side errors seen during it appended to
  its report (section "hbase-emulator server-side errors").
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

from . import controls as controls_module
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
        self._controls = None

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

    @property
    def controls(self):
        """hbase_emulator.controls.Controls on the server's admin port."""
        if self._controls is None:
            admin = self.process.ports.get("admin")
            if admin is None:
                raise RuntimeError("the server has no admin port (--no-admin?): no test controls")
            self._controls = controls_module.Controls(self.host, admin)
        return self._controls

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


# Flags after which the plugin does not add --test-controls itself.
_NO_AUTO_CONTROLS = {"--test-controls", "--test-controls-remote", "--no-admin", "--bind", "-b",
                     "--admin-bind"}


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
    extra = config.getini("hbase_emulator_args")
    # A test server: the clock, faults and call log are there for the fixtures below, unless
    # the project binds other addresses (where the server refuses them) or says otherwise.
    if not any(a.split("=")[0] in _NO_AUTO_CONTROLS for a in extra):
        args.append("--test-controls")
    args += extra
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


@pytest.fixture
def hbase_controls(hbase_emulator):
    return hbase_emulator.controls


@pytest.fixture
def hbase_clock(hbase_emulator):
    clock = hbase_emulator.controls.clock
    yield clock
    clock.resume()


class _TestFaults:
    """The faults a test installs, all removed after it."""

    def __init__(self, faults):
        self._faults = faults
        self._added = []

    def add(self, **rule):
        added = self._faults.add(**rule)
        self._added.append(added["id"])
        return added

    def inject(self, **rule):
        return self._faults.inject(**rule)

    def list(self):
        return self._faults.list()

    def rule(self, rule_id):
        return self._faults.rule(rule_id)

    def remove_all(self):
        for rule_id in self._added:
            try:
                self._faults.remove(rule_id)
            except controls_module.ControlError:
                pass
        self._added = []


@pytest.fixture
def hbase_faults(hbase_emulator):
    faults = _TestFaults(hbase_emulator.controls.faults)
    yield faults
    faults.remove_all()


@pytest.fixture
def hbase_calls(hbase_emulator):
    return controls_module.CallRecorder(hbase_emulator.controls.calls)


_MARK_ATTR = "_hbase_emulator_call_mark"


@pytest.fixture(autouse=True)
def _hbase_call_mark(request):
    """Remembers where the call log stood when a test that uses the server started."""
    if "hbase_emulator" not in request.fixturenames:
        return
    emulator = request.getfixturevalue("hbase_emulator")
    try:
        setattr(request.node, _MARK_ATTR, (emulator.controls, emulator.controls.calls.mark()))
    except (RuntimeError, OSError, controls_module.ControlError):
        pass  # no controls (--no-admin among hbase_emulator_args): nothing to report


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.failed or report.when != "call":
        return
    marked = getattr(item, _MARK_ATTR, None)
    if marked is None:
        return
    controls, mark = marked
    try:
        errors = controls.calls.list(since=mark, errors=True)
    except (OSError, controls_module.ControlError):
        return
    if not errors:
        return
    lines = []
    for c in errors[-50:]:
        where = " ".join(x for x in (c.get("table"), c.get("row")) if x)
        lines.append("%s %s %s: %s%s" % (c["service"], c["method"], where,
                                          c.get("reason") or c.get("error", ""),
                                          " [%s]" % c["fault"] if c.get("fault") else ""))
    report.sections.append(("hbase-emulator server-side errors", "\n".join(lines)))
