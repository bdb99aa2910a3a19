"""pytest support for the seed state, isolation and snapshots (loaded by the hbase_emulator
plugin).

Seed and isolation
  The session's seed state is what the server holds once it is ready (the --init scripts of
  hbase_emulator_init) and the hbase_emulator_seed fixture has run; the plugin snapshots it
  (a whole-store snapshot named SEED_SNAPSHOT) when hbase_emulator first starts. Before every
  test that uses the server, the seed is restored, so a test sees neither what an earlier test
  wrote nor the order tests ran in; under pytest-xdist every worker builds the same seed on its
  own server. Data a module- or session-scoped fixture writes is gone by the next test: put it
  in hbase_emulator_seed (or a hbase_snapshot fixture).
  Opt out: @pytest.mark.hbase_shared on a test, class or module (pytestmark), or
  `hbase_emulator_isolation = false` in the ini file for the whole project: those tests see
  what the tests before them left.
Fixtures
  hbase_emulator_seed (session) override it to load the seed:
                       @pytest.fixture(scope="session")
                       def hbase_emulator_seed(hbase_emulator_server):
                           conn = hbase_emulator_server.connection()
                           conn.create_table("users", {"f": {}})
  hbase_snapshots  (session) hbase_emulator.snapshots.Snapshots of the session's server (its
                   list leaves out the plugin's seed snapshot).
Marker
  @pytest.mark.hbase_snapshot("seeded")
      Snapshot per session, restore per test. The fixture named "seeded", if there is one (a
      session fixture that loads data), runs on the seed state, then the store is snapshotted
      as "seeded"; every test with the marker starts from that snapshot, whatever tests ran
      before it or where.
"""

import time

import pytest

from . import controls as controls_module
from .snapshots import Snapshots

# The plugin's snapshot of the seed state.
SEED_SNAPSHOT = "pytest-hbase-emulator-seed"
_STATE_KEY = pytest.StashKey()
_SNAPSHOT_NAMES_KEY = pytest.StashKey()  # the names hbase_snapshot markers use


def pytest_addoption(parser):
    parser.addini("hbase_emulator_isolation", "restore the seed state before each test that "
                  "uses the hbase_emulator server (false: tests share the store)", type="bool",
                  default=True)


def pytest_configure(config):
    config.addinivalue_line("markers", "hbase_snapshot(name): take a whole-store snapshot `name` "
                            "once per session (the seed state, then the fixture of that name, "
                            "if any) and restore it before each test with this marker")
    config.addinivalue_line("markers", "hbase_shared: this test shares the hbase_emulator "
                            "store with the tests before it (no restore of the seed state)")


def snapshots_of(emulator):
    """Snapshots for an HBaseEmulator (the hbase_emulator fixture's object)."""
    return Snapshots.of(emulator.controls)


class SessionState:
    """The seed snapshot of one session's server and the hbase_snapshot snapshots taken."""

    def __init__(self, emulator):
        self.emulator = emulator
        self.unavailable = None  # why there is no seed snapshot (no test controls)
        self.taken = set()       # hbase_snapshot names taken this session
        self.restore_ms = []     # each seed restore's cost, seen from the client
        try:
            self.snapshots = snapshots_of(emulator)
            if SEED_SNAPSHOT in self.snapshots.names():  # a --data-dir kept from a last session
                self.snapshots.delete(SEED_SNAPSHOT)
            self.snapshots.take(SEED_SNAPSHOT)
        except (RuntimeError, OSError, controls_module.ControlError) as e:
            self.snapshots = None
            self.unavailable = str(e)

    def restore_seed(self):
        if self.snapshots is None:
            pytest.fail("hbase-emulator: cannot restore the seed state before this test (%s). "
                        "Isolation needs the server's test controls: drop --no-admin or the "
                        "other binding from hbase_emulator_args, or set "
                        "hbase_emulator_isolation = false (or mark the test hbase_shared)."
                        % self.unavailable, pytrace=False)
        start = time.perf_counter()
        self.snapshots.restore(SEED_SNAPSHOT)
        self.restore_ms.append((time.perf_counter() - start) * 1000)


def take_seed(config, emulator):
    """Snapshots the seed state (called by the hbase_emulator fixture once the seed is loaded)."""
    config.stash[_STATE_KEY] = SessionState(emulator)


def session_state(config):
    return config.stash.get(_STATE_KEY, None)


@pytest.fixture(scope="session")
def hbase_emulator_seed(hbase_emulator_server):
    """The data every test starts from, loaded once per session before the plugin snapshots
    the seed state. This default loads nothing; override it in conftest.py with a session
    fixture that takes hbase_emulator_server (not hbase_emulator) and writes through
    hbase_emulator_server.connection()."""
    return None


class _UserSnapshots(Snapshots):
    """Snapshots without the plugin's own seed snapshot in its list."""

    def list(self):
        return [s for s in super().list() if s["name"] != SEED_SNAPSHOT]


@pytest.fixture(scope="session")
def hbase_snapshots(hbase_emulator):
    """hbase_emulator.snapshots.Snapshots of the session's server: .take(name, tables=None),
    .restore(name), .clone(name, table), .delete(name), .list(), .names()."""
    controls = hbase_emulator.controls
    return _UserSnapshots(controls.base, timeout=max(controls.timeout, 60))


def _isolated(item):
    if item.get_closest_marker("hbase_shared") is not None:
        return False
    return bool(item.config.getini("hbase_emulator_isolation"))


@pytest.fixture(autouse=True)
def _hbase_isolation(request):
    """Restores the seed state before a test that uses the server (unless it opts out)."""
    if "hbase_emulator" not in request.fixturenames:
        return
    if request.node.get_closest_marker("hbase_snapshot") is not None:
        return  # _hbase_snapshot_marker starts it from its snapshot instead
    if not _isolated(request.node):
        return
    request.getfixturevalue("hbase_emulator")
    session_state(request.config).restore_seed()
    request.node.stash[RESTORED_KEY] = True


# Set on a test item whose store was restored to the seed state before it ran.
RESTORED_KEY = pytest.StashKey()


def _snapshot_names(config):
    return config.stash.get(_SNAPSHOT_NAMES_KEY, set())


def pytest_collection_modifyitems(session, config, items):
    names = set()
    for item in items:
        marker = item.get_closest_marker("hbase_snapshot")
        if marker is not None and len(marker.args) == 1:
            names.add(marker.args[0])
    config.stash[_SNAPSHOT_NAMES_KEY] = names


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """A hbase_snapshot fixture runs on the seed state and is snapshotted as it leaves the
    store, wherever in the session it is first set up (a test may request it directly, and
    pytest sets session fixtures up before the test's own)."""
    name = fixturedef.argname
    state = session_state(request.config)
    watched = name in _snapshot_names(request.config) and state is not None and \
        state.snapshots is not None and name not in state.taken
    if watched:
        state.restore_seed()
    outcome = yield
    if watched and outcome.excinfo is None:
        _take(state, name)


def _take(state, name):
    if name not in state.snapshots.names():  # else the seeding fixture took it itself
        state.snapshots.take(name)
    state.taken.add(name)


@pytest.fixture(autouse=True)
def _hbase_snapshot_marker(request):
    """@pytest.mark.hbase_snapshot(name): the test starts from snapshot `name`."""
    marker = request.node.get_closest_marker("hbase_snapshot")
    if marker is None:
        return
    if len(marker.args) != 1:
        raise pytest.UsageError("@pytest.mark.hbase_snapshot takes one snapshot name")
    name = marker.args[0]
    snapshots = request.getfixturevalue("hbase_snapshots")
    state = session_state(request.config)
    if name not in state.taken:
        try:
            request.getfixturevalue(name)  # its setup takes the snapshot (pytest_fixture_setup)
        except pytest.FixtureLookupError:
            state.restore_seed()  # no seeding fixture: the snapshot is the seed state
        if name not in state.taken:  # no fixture, or one set up before the server was seeded
            _take(state, name)
        return
    snapshots.restore(name)
