"""pytest support for snapshots (loaded by the hbase_emulator plugin).

Fixture
  hbase_snapshots  (session) hbase_emulator.snapshots.Snapshots of the session's server.
Marker
  @pytest.mark.hbase_snapshot("seeded")
      Snapshot per session, restore per test. The first marked test to run requests the fixture
      named "seeded" if there is one (a session fixture that creates and loads the data), then
      takes a whole-store snapshot "seeded"; every later test with the marker restores it first,
      so each one starts from the seeded store whatever the tests before it wrote or dropped.
      The plugin's server has --test-controls unless hbase_emulator_args turns it off.
"""

import pytest

from .snapshots import Snapshots


def pytest_configure(config):
    config.addinivalue_line("markers", "hbase_snapshot(name): take a whole-store snapshot `name` "
                            "once per session (after the fixture of that name, if any) and "
                            "restore it before each test with this marker")


def snapshots_of(emulator):
    """Snapshots for an HBaseEmulator (the hbase_emulator fixture's object)."""
    return Snapshots.of(emulator.controls)


@pytest.fixture(scope="session")
def hbase_snapshots(hbase_emulator):
    return snapshots_of(hbase_emulator)


_taken = set()


@pytest.fixture(autouse=True)
def _hbase_snapshot_marker(request):
    marker = request.node.get_closest_marker("hbase_snapshot")
    if marker is None:
        return
    if len(marker.args) != 1:
        raise pytest.UsageError("@pytest.mark.hbase_snapshot takes one snapshot name")
    name = marker.args[0]
    snapshots = request.getfixturevalue("hbase_snapshots")
    if name in _taken:
        snapshots.restore(name)
        return
    try:
        request.getfixturevalue(name)  # the seeding fixture, when there is one
    except pytest.FixtureLookupError:
        pass
    if name in snapshots.names():
        snapshots.restore(name)  # taken by the seeding fixture itself
    else:
        snapshots.take(name)
    _taken.add(name)
