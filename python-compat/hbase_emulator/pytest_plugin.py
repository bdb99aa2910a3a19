"""pytest plugin: a session-wide hbase-emulator for the tests of any project.

Installed with the hbase-emulator package (entry point `pytest11: hbase_emulator`), whose wheel
carries the server: no configuration is needed.

Fixtures (`pytest --fixtures` shows each one's docstring)
  hbase_emulator   (session) the running server: .host, .port (Thrift1), .thrift2_port,
                   .connection(**kw) -> happybase.Connection, .thrift2() -> THBaseService client,
                   .reset(drop=False). Started lazily by the first test that asks for it, in memory
                   on free ports; under pytest-xdist every worker starts its own.
  hbase_emulator_seed (session) override it to load the data every test starts from.
  hbase_connection (function) a happybase.Connection to it, closed after the test.
  hbase_reset      (function) empties every user table before the test (schemas and splits kept).
  hbase_controls, hbase_clock, hbase_faults, hbase_calls: the test controls
                   (docs/test-controls.md); the server runs with --test-controls unless hbase_emulator_args
                   binds other addresses or has --no-admin.
  hbase_snapshots  (session) the server's snapshots (snapshot_plugin.py).
  A failing test that used the server gets the server-side errors seen during it appended to
  its report (section "hbase-emulator server-side errors").
Isolation (snapshot_plugin.py): every test that uses the server starts from the session's seed
  state (what --init and hbase_emulator_seed made); @pytest.mark.hbase_shared or
  `hbase_emulator_isolation = false` opts out.
Markers
  @pytest.mark.hbase_reset            same as the hbase_reset fixture;
  @pytest.mark.hbase_reset(drop=True) drops every user table and namespace before the test.
  @pytest.mark.hbase_shared, @pytest.mark.hbase_snapshot(name): snapshot_plugin.py.
Configuration (ini file; paths relative to it)
  hbase_emulator_bin  = path        server binary (else --hbase-emulator-bin, $HBASE_EMULATOR_BIN,
                                    the package's own, hbase-emulator on PATH,
                                    build/hbase-emulator above rootdir)
  hbase_emulator_init = file ...    schema scripts run by the server before it is ready (--init)
  hbase_emulator_args = flag ...    more server flags
  hbase_emulator_idle_timeout_ms = N  close client connections idle this long (default 0: never,
                                    so a session-wide connection survives a slow test; HBase's
                                    own default is 60000; an --idle-timeout-ms among
                                    hbase_emulator_args wins)
  hbase_emulator_isolation = true   restore the seed state before each test (snapshot_plugin.py)
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
    parser.addini("hbase_emulator_idle_timeout_ms", "close client connections idle this long "
                  "(0, the default: never)", default="0")


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
# The server's idle-timeout flags: one among hbase_emulator_args wins over the ini option.
_IDLE_TIMEOUT_FLAGS = {"-t", "--readTimeout", "--idle-timeout-ms"}


def _flag_names(args):
    return {a.split("=")[0] for a in args}


def _idle_timeout_ms(config):
    value = config.getini("hbase_emulator_idle_timeout_ms").strip() or "0"
    if not value.isdigit():
        raise pytest.UsageError("hbase_emulator_idle_timeout_ms must be a whole number of "
                                "milliseconds (0: never), not %r" % value)
    return value


@pytest.fixture(scope="session")
def hbase_emulator_server(request):
    """The session's server before hbase_emulator_seed ran: for a seed fixture to load data
    through (tests use hbase_emulator). Same object and attributes as hbase_emulator."""
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
    if not _flag_names(extra) & _NO_AUTO_CONTROLS:
        args.append("--test-controls")
    # HBase closes a connection idle for 60 s; a test session's connection may sit idle longer
    # (a session-wide connection between slow tests), and must not die of it.
    if not _flag_names(extra) & _IDLE_TIMEOUT_FLAGS:
        args += ["--idle-timeout-ms", _idle_timeout_ms(config)]
    args += extra
    try:
        process = server_module.EmulatorServer(binary, args).start()
        failed = None
    except server_module.StartError as e:
        failed = str(e)
    if failed is not None:
        # The reason first (a failing --init line), not a traceback through the plugin.
        pytest.fail(failed, pytrace=False)
    emulator = HBaseEmulator(process)
    try:
        yield emulator
    finally:
        emulator.close()
        rc = process.stop()
        if rc not in (0, None):
            print("\nhbase-emulator exited with %s; stderr tail:\n%s" % (rc, process.stderr_text()))


@pytest.fixture(scope="session")
def hbase_emulator(hbase_emulator_server, hbase_emulator_seed, request):
    """The session's hbase-emulator (started by the first test that needs it): .host, .port
    (Thrift1), .thrift2_port, .connection(**kw) -> happybase.Connection (kept open for the
    session), .thrift2() -> THBaseService client, .reset(drop=False), .controls. Every test that
    uses it starts from the seed state (--init scripts, then hbase_emulator_seed), restored
    from a snapshot, unless marked hbase_shared. One server per pytest-xdist worker."""
    from .snapshot_plugin import take_seed

    take_seed(request.config, hbase_emulator_server)
    return hbase_emulator_server


@pytest.fixture
def hbase_connection(hbase_emulator):
    """A happybase.Connection to the session's server, closed after the test."""
    conn = hbase_emulator.connection()
    yield conn
    conn.close()


@pytest.fixture
def hbase_reset(hbase_emulator):
    """Empties every user table before the test (schemas and splits kept); returns the
    hbase_emulator object, whose .reset(drop=False) does it again on demand."""
    hbase_emulator.reset()
    return hbase_emulator


@pytest.fixture(autouse=True)
def _hbase_reset_marker(request, _hbase_isolation):
    """@pytest.mark.hbase_reset: empties (drop=True: drops) the user tables, after isolation."""
    marker = request.node.get_closest_marker("hbase_reset")
    if marker is not None:
        request.getfixturevalue("hbase_emulator").reset(drop=bool(marker.kwargs.get("drop", False)))


@pytest.fixture
def hbase_controls(hbase_emulator):
    """hbase_emulator.controls.Controls of the session's server: .clock, .faults, .calls, and
    .get/.post for any /control/ route."""
    return hbase_emulator.controls


@pytest.fixture
def hbase_clock(hbase_emulator):
    """The server's clock (TTLs, timestamps, scanner leases follow it): .freeze(at=None),
    .advance(days=2), .set_offset(...), .now_ms(); back to the system clock after the test."""
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
    """Fault rules for this test: .inject(**rule) (a context manager), .add(**rule), .list().
    A rule names calls by Thrift method, glob or happybase operation (method="Table.put"), table
    and row_prefix, and fails, delays or closes them. Every rule the test added goes after it."""
    faults = _TestFaults(hbase_emulator.controls.faults)
    yield faults
    faults.remove_all()


@pytest.fixture
def hbase_calls(hbase_emulator):
    """The calls made to the server during this test: .calls(table=, method=, **fields),
    .methods(), .errors(), .assert_called(method, table=, times=, **fields),
    .assert_not_called(...), .assert_no_errors(). A method may be a happybase operation
    ("Table.scan" finds the open, the fetches and the close)."""
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
    from .snapshot_plugin import RESTORED_KEY

    if item.stash.get(RESTORED_KEY, False) and any(
            "TableNotFoundException" in (c.get("reason") or c.get("error", "")) for c in errors):
        # The likeliest cause for a project moving to isolation by default.
        lines.append("(this test started from the seed state: tables made by earlier tests or "
                     "by module- or session-scoped fixtures are gone; load shared data in the "
                     "hbase_emulator_seed fixture, or mark the test hbase_shared)")
    report.sections.append(("hbase-emulator server-side errors", "\n".join(lines)))
