"""Snapshots through the test controls (issue 22 part 4): HTTP (/control/snapshot ...), the
Python package (hbase_emulator.snapshots) and its pytest marker, and the shell's snapshot
commands. Tables are read back through real clients (happybase, Thrift2) and the console's raw
cell pages (delete markers included) and compared cell by cell."""

import json
import os
import re
import subprocess
import sys
import textwrap
import urllib.parse
import urllib.request

import happybase
import pytest

import hbcompat
from hbase_emulator.snapshots import ControlError, Snapshots

SALTS = "0123456789abcdef"


def admin_url(server):
    return "http://%s:%d" % (server.host, server.ports["admin"])


@pytest.fixture(params=["memory", "disk"])
def controlled(request, server_factory, tmp_path):
    """start() -> a server with --test-controls, in memory or on a data directory (the same
    directory on every start, so a restart keeps it)."""
    data_dir = tmp_path / "data" if request.param == "disk" else None

    def start():
        return server_factory(data_dir=data_dir, flags=["--test-controls"])
    start.mode = request.param
    return start


def thrift2(server):
    from hbase2 import THBaseService
    return hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService)


def create_salted_table(server, name):
    """16 regions (split at 1: .. f:), family f with 3 versions, family g with a 10-year TTL."""
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableDescriptor, TTableName
    client, transport = thrift2(server)
    try:
        columns = [TColumnFamilyDescriptor(name=b"f", maxVersions=3),
                   TColumnFamilyDescriptor(name=b"g", timeToLive=86400 * 3650)]
        client.createTable(TTableDescriptor(tableName=TTableName(qualifier=name), columns=columns),
                           [s.encode() + b":" for s in SALTS[1:]])
    finally:
        transport.close()


def seed(server, name):
    """Rows in every region with 3 versions, and delete markers of three kinds."""
    from hbase2.ttypes import TColumn, TDelete, TDeleteType
    conn = happybase.Connection(server.host, server.port)
    table = conn.table(name)
    for salt in SALTS:
        for i in range(12):
            row = ("%s:row%03d" % (salt, i)).encode()
            for ts in (1000, 2000, 3000):
                table.put(row, {b"f:q": b"v%d-%s" % (ts, row), b"f:r": b"r%d" % ts}, timestamp=ts)
            table.put(row, {b"g:x": b"\x00\xff" + row}, timestamp=1500)
            if i % 4 == 0:
                table.delete(row, columns=[b"f:r"], timestamp=2500)  # DeleteColumn, ts <= 2500
            if i % 5 == 1:
                table.delete(row, columns=[b"g"], timestamp=1500)  # DeleteFamily
    conn.close()
    client, transport = thrift2(server)
    try:
        for salt in SALTS:
            row = ("%s:row%03d" % (salt, 3)).encode()
            client.deleteSingle(name, TDelete(row=row, deleteType=TDeleteType.DELETE_COLUMN,
                                              columns=[TColumn(family=b"f", qualifier=b"q",
                                                               timestamp=2000)]))
    finally:
        transport.close()


def scramble(server, name):
    """What a test might do to the table: new versions, deleted rows, a schema change."""
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableName
    conn = happybase.Connection(server.host, server.port)
    table = conn.table(name)
    for salt in SALTS:
        table.put(("%s:row000" % salt).encode(), {b"f:q": b"changed"}, timestamp=4000)
        table.delete(("%s:row001" % salt).encode())
        table.put(("%s:new" % salt).encode(), {b"g:x": b"new"})
    conn.close()
    client, transport = thrift2(server)
    try:
        client.modifyColumnFamily(TTableName(qualifier=name),
                                  TColumnFamilyDescriptor(name=b"f", maxVersions=1))
    finally:
        transport.close()


def state(server, name):
    """Everything a restore must bring back, as clients see it."""
    from hbase2.ttypes import TScan, TTableName
    client, transport = thrift2(server)
    try:
        desc = client.getTableDescriptor(TTableName(qualifier=name))
        families = sorted((c.name, c.maxVersions, c.timeToLive) for c in desc.columns)
        regions = [(r.regionInfo.startKey, r.regionInfo.endKey)
                   for r in client.getAllRegionLocations(name)]
        scanner = client.openScanner(name, TScan(maxVersions=10))
        visible = []
        while True:
            results = client.getScannerRows(scanner, 1000)
            if not results:
                break
            for r in results:
                visible += [(r.row, c.family, c.qualifier, c.timestamp, c.value)
                            for c in r.columnValues]
        client.closeScanner(scanner)
    finally:
        transport.close()
    return {"families": families, "regions": sorted(regions), "visible": visible,
            "stored": stored_cells(server, name)}


def stored_cells(server, name):
    """Every stored cell, delete markers included, from the console's raw pages."""
    cells, cursor = [], ""
    while True:
        query = "limit=1000&markers=1&format=hex" + ("&cursor=" + cursor if cursor else "")
        path = "/api/tables/%s/rows?%s" % (urllib.parse.quote(name.decode()), query)
        with urllib.request.urlopen(admin_url(server) + path, timeout=30) as reply:
            page = json.loads(reply.read())
        for row in page["rows"]:
            for c in row["cells"]:
                cells.append((row["key_bytes"], c["family"], c["qualifier"], c["timestamp"],
                              c["type"], c.get("hex")))
        cursor = page.get("next_cursor") or ""
        if not cursor:
            return cells


def test_restore_brings_back_a_salted_16_region_table_cell_by_cell(controlled):
    server = controlled()
    name = b"snap_salted"
    create_salted_table(server, name)
    seed(server, name)
    before = state(server, name)
    assert len(before["regions"]) == 16
    # Per salt: 3 DeleteColumn, 3 DeleteFamily, 1 Delete (one version).
    assert sum(1 for c in before["stored"] if c[4] != "Put") == 16 * 7
    snaps = Snapshots(admin_url(server))
    taken = snaps.take("seeded", tables=["snap_salted"])
    assert taken["tables"] == ["snap_salted"] and taken["cells"] == len(before["stored"])

    scramble(server, name)
    assert state(server, name) != before
    if controlled.mode == "disk":  # the snapshot survives a restart
        server.stop()
        server = controlled()
        snaps = Snapshots(admin_url(server))
        assert snaps.names() == ["seeded"]
    restored = snaps.restore("seeded")
    assert restored["took_ms"] >= 0
    after = state(server, name)
    assert after["families"] == before["families"]
    assert after["regions"] == before["regions"]
    assert after["visible"] == before["visible"]
    assert after["stored"] == before["stored"]

    # A test's writes after the restore are undone by the next one.
    conn = happybase.Connection(server.host, server.port)
    conn.table(name).put(b"0:row000", {b"f:q": b"again"})
    conn.close()
    snaps.restore("seeded")
    assert state(server, name) == before


def test_whole_store_snapshot_drops_later_tables_and_brings_back_dropped_ones(controlled):
    server = controlled()
    conn = happybase.Connection(server.host, server.port)
    conn.create_table("snap_keep", {"f": {}})
    conn.table("snap_keep").put(b"r", {b"f:q": b"v"})
    snaps = Snapshots(admin_url(server))
    assert snaps.take("all")["whole_store"] is True
    conn.disable_table("snap_keep")
    conn.delete_table("snap_keep")
    conn.create_table("snap_later", {"f": {}})
    snaps.restore("all")
    assert sorted(conn.tables()) == [b"snap_keep"]
    assert conn.table("snap_keep").row(b"r") == {b"f:q": b"v"}
    conn.close()


def test_snapshot_controls_answer_hbase_errors(controlled):
    server = controlled()
    conn = happybase.Connection(server.host, server.port)
    conn.create_table("snap_err", {"f": {}})
    conn.close()
    snaps = Snapshots(admin_url(server))
    snaps.take("s1", tables=["snap_err"])
    cases = [
        (lambda: snaps.take("s1", tables=["snap_err"]), 409,
         "org.apache.hadoop.hbase.snapshot.SnapshotExistsException: Snapshot 's1' already "
         "stored on the filesystem."),
        (lambda: snaps.take("-bad", tables=["snap_err"]), 400,
         "java.lang.IllegalArgumentException: Illegal first character <45> at 0. Snapshot "
         "qualifiers can only start with 'alphanumeric characters' from any language: -bad"),
        (lambda: snaps.take("s2", tables=["nosuch"]), 400,
         "org.apache.hadoop.hbase.snapshot.SnapshotCreationException: Table 'nosuch' doesn't "
         "exist, can't take snapshot."),
        (lambda: snaps.restore("nosuch"), 404,
         "org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException: Snapshot 'nosuch' "
         "doesn't exist on the filesystem"),
        (lambda: snaps.restore("s1", hbase_rules=True), 409,
         "org.apache.hadoop.hbase.TableNotDisabledException: snap_err"),
        (lambda: snaps.clone("s1", "snap_err"), 409,
         "org.apache.hadoop.hbase.TableExistsException: snap_err"),
        (lambda: snaps.delete("nosuch"), 404,
         "org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException: Snapshot 'nosuch' "
         "doesn't exist on the filesystem"),
    ]
    for call, status, message in cases:
        with pytest.raises(ControlError) as e:
            call()
        assert (e.value.status, e.value.message) == (status, message)


def test_snapshot_controls_are_absent_without_the_flag(server_factory):
    server = server_factory()
    with pytest.raises(ControlError) as e:
        Snapshots(admin_url(server)).list()
    assert e.value.status == 404


def shell_bin():
    return hbcompat.emulator_bin().parent / "hbase-shell"


def run_shell(server, script):
    """Each line in a shell of its own: a script stops at its first error, HBase's irb does not."""
    env = dict(os.environ, TZ="UTC")
    out = ""
    for line in script.splitlines():
        proc = subprocess.run([str(shell_bin()), "--host", server.host, "--port", str(server.port),
                               "--thrift2-port", str(server.thrift2_port),
                               "--admin-port", str(server.ports["admin"]), "-e", line],
                              env=env, capture_output=True, text=True, timeout=120)
        out += proc.stdout + proc.stderr
    return out


def test_shell_snapshot_commands_print_what_hbase_prints(server_factory):
    """The transcript of the same script against HBase 2.6.1's shell (run against the oracle),
    with times and dates normalised."""
    server = server_factory(flags=["--test-controls"])
    out = run_shell(server, textwrap.dedent("""\
        create 'snapsh_t1', {NAME => 'f', VERSIONS => 3}
        put 'snapsh_t1', 'r1', 'f:a', 'v1'
        snapshot 'snapsh_t1', 'snapsh_s1'
        snapshot 'snapsh_t1', 'snapsh_s1'
        snapshot 'snapsh_t1', '-bad'
        snapshot 'snapsh_t1', 'a:b'
        snapshot 'snapsh_t1', 'ok.name-1_x'
        snapshot 'nosuch_tbl', 'snapsh_s2'
        list_snapshots
        list_snapshots 'snapsh.*'
        list_snapshots 'zzz.*'
        restore_snapshot 'snapsh_s1'
        disable 'snapsh_t1'
        restore_snapshot 'snapsh_s1'
        restore_snapshot 'nosuchsnap'
        enable 'snapsh_t1'
        clone_snapshot 'snapsh_s1', 'snapsh_t2'
        clone_snapshot 'snapsh_s1', 'snapsh_t2'
        clone_snapshot 'snapsh_s1', 'nons:t2'
        clone_snapshot 'nosuchsnap', 'snapsh_t3'
        scan 'snapsh_t2'
        delete_snapshot 'ok.name-1_x'
        delete_snapshot 'nosuchsnap'
        list_snapshots
        """))
    out = re.sub(r"Took \d+\.\d+ seconds", "Took N seconds", out)
    out = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000", "DATE", out)
    out = re.sub(r"timestamp=\S+", "timestamp=T,", out)
    expected_errors = [
        "ERROR: org.apache.hadoop.hbase.snapshot.SnapshotExistsException: Snapshot 'snapsh_s1' "
        "already stored on the filesystem.",
        "ERROR: Illegal first character <45> at 0. Snapshot qualifiers can only start with "
        "'alphanumeric characters' from any language: -bad",
        "ERROR: Illegal character code:58, <:> at 1. Snapshot qualifiers may only contain "
        "'alphanumeric characters' and digits: a:b",
        "ERROR: org.apache.hadoop.hbase.snapshot.SnapshotCreationException: Table 'nosuch_tbl' "
        "doesn't exist, can't take snapshot.",
        "ERROR: Table snapsh_t1 should be disabled!",
        "ERROR: Unable to find the table name for snapshot=nosuchsnap",
        "ERROR: Table already exists: snapsh_t2!",
        "ERROR: Unknown namespace: nons!",
        "ERROR: Unknown snapshot nosuchsnap!",
        "ERROR: Unknown snapshot nosuchsnap!",
    ]
    assert [line for line in out.splitlines() if line.startswith("ERROR")] == expected_errors, out
    listings = re.findall(r"SNAPSHOT  TABLE \+ CREATION TIME \+ TTL\(Sec\)\n(.*?\d+ row\(s\))",
                          out, re.S)
    assert listings == [
        " ok.name-1_x snapsh_t1 (DATE) FOREVER\n snapsh_s1 snapsh_t1 (DATE) FOREVER\n2 row(s)",
        " snapsh_s1 snapsh_t1 (DATE) FOREVER\n1 row(s)",
        "0 row(s)",
        " snapsh_s1 snapsh_t1 (DATE) FOREVER\n1 row(s)",
    ], out
    # The clone holds the snapshot's one row.
    assert " r1 column=f:a, timestamp=T, value=v1\n1 row(s)" in out, out


SAMPLE_CONFTEST = '''
import happybase
import pytest


@pytest.fixture(scope="session")
def seeded(hbase_emulator):
    conn = hbase_emulator.connection()
    conn.create_table("users", {"f": {"max_versions": 3}})
    conn.table("users").put(b"alice", {b"f:name": b"Alice"})
    return "users"
'''

SAMPLE_TESTS = '''
import pytest

pytestmark = pytest.mark.hbase_snapshot("seeded")


@pytest.mark.parametrize("round", range(3))
def test_each_test_starts_from_the_seed(hbase_connection, round):
    assert sorted(hbase_connection.tables()) == [b"users"]
    table = hbase_connection.table("users")
    assert dict(table.scan()) == {b"alice": {b"f:name": b"Alice"}}
    table.put(b"bob-%d" % round, {b"f:name": b"Bob"})
    table.delete(b"alice")
    hbase_connection.create_table("scratch", {"f": {}})


def test_the_snapshot_is_listed(hbase_snapshots):
    assert [s["name"] for s in hbase_snapshots.list()] == ["seeded"]
'''


def test_pytest_marker_snapshots_once_and_restores_before_each_test(tmp_path):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # the plugin adds --test-controls
    (tmp_path / "conftest.py").write_text(SAMPLE_CONFTEST)
    (tmp_path / "test_seeded.py").write_text(SAMPLE_TESTS)
    env = dict(os.environ, HBASE_EMULATOR_BIN=str(hbcompat.emulator_bin()))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 passed" in proc.stdout, proc.stdout
