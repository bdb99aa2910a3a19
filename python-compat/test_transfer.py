"""Export/import as JSON Lines (hbase_emulator.transfer) through the wire between real server
processes: byte-exact, all versions, every byte value in keys, qualifiers and values, schema
(namespace, families, versions) included.

The destination is a second emulator, or with HBASE_TOOLS_TARGET=host:port any Thrift2 gateway
(e.g. the real HBase oracle) into which the dataset is imported and then compared.
"""

import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import hbcompat
from hbase_emulator import thrift2, transfer

T = thrift2.ttypes


def own_server(started):
    server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    started.append(server)
    return server


@pytest.fixture
def servers():
    started = []
    yield lambda: own_server(started)
    for s in started:
        s.stop()


def dest_endpoint(servers):
    target = os.environ.get("HBASE_TOOLS_TARGET", "").strip()
    if target:
        host, _, port = target.rpartition(":")
        return host, int(port)
    s = servers()
    return s.host, s.thrift2_port


def all_cells(client, name):
    """Every version of every cell of `name` as (row, family, qualifier, timestamp, value)."""
    scanner = client.openScanner(name.encode(), T.TScan(maxVersions=transfer.ALL_VERSIONS))
    cells = []
    try:
        while True:
            rows = client.getScannerRows(scanner, 500)
            if not rows:
                break
            for r in rows:
                cells += [(r.row, c.family, c.qualifier, c.timestamp, c.value) for c in r.columnValues]
    finally:
        client.closeScanner(scanner)
    return sorted(cells)


def cell_lines(text):
    return [l for l in text.splitlines() if not l.startswith('{"kind"')]


def make_dataset(client, ns):
    """A namespace and table holding all 256 byte values in rows, qualifiers and values, 3
    versions per cell with explicit timestamps, an empty qualifier and an empty value."""
    client.createNamespace(T.TNamespaceDescriptor(name=ns))
    name = "%s:bytes" % ns
    desc = T.TTableDescriptor(tableName=thrift2.split_table_name(name), columns=[
        T.TColumnFamilyDescriptor(name=b"f", maxVersions=5),
        T.TColumnFamilyDescriptor(name=b"g", maxVersions=1, timeToLive=2000000000)])
    client.createTable(desc, None)
    puts = []
    for b in range(256):
        row = bytes([b]) + b"\x00row\xff" + bytes([255 - b])
        cvs = []
        for v in range(3):
            value = bytes((b + i + v) % 256 for i in range(256))
            cvs.append(T.TColumnValue(family=b"f", qualifier=bytes([b, 0, 255]), value=value,
                                      timestamp=1000 + v))
        cvs.append(T.TColumnValue(family=b"g", qualifier=b"", value=b"", timestamp=5000))
        puts.append(T.TPut(row=row, columnValues=cvs))
    client.putMultiple(name.encode(), puts)
    return name


def test_round_trip_is_byte_exact_with_all_versions_and_schema(servers):
    src = servers()
    ns = "hbc_x%s" % uuid.uuid4().hex[:8]
    with thrift2.client(src.host, src.thrift2_port) as c:
        name = make_dataset(c, ns)
        expected = all_cells(c, name)
        out = io.StringIO()
        written = transfer.export(c, out, tables=[name])
    assert len(expected) == 256 * 4 and written == len(expected)
    lines = out.getvalue().splitlines()
    assert json.loads(lines[0]) == {"kind": "namespace", "name": ns, "configuration": {}}
    assert json.loads(lines[1])["kind"] == "table" and json.loads(lines[1])["name"] == name
    host, port = dest_endpoint(servers)
    with thrift2.client(host, port) as d:
        try:
            imported = transfer.import_(d, io.StringIO(out.getvalue()))
            assert imported == len(expected)
            assert all_cells(d, name) == expected
            families = {f.name: f for f in d.getTableDescriptor(thrift2.split_table_name(name)).columns}
            assert families[b"f"].maxVersions == 5 and families[b"g"].maxVersions == 1
            assert families[b"g"].timeToLive == 2000000000
            # Exporting from the destination gives the same cell lines, byte for byte.
            again = io.StringIO()
            transfer.export(d, again, tables=[name], schema=False)
            assert cell_lines(again.getvalue()) == cell_lines(out.getvalue())
        finally:
            tname = thrift2.split_table_name(name)
            if d.tableExists(tname):
                d.disableTable(tname)
                d.deleteTable(tname)
            d.deleteNamespace(ns)


def test_newest_only_exports_one_version_per_cell(servers):
    src = servers()
    with thrift2.client(src.host, src.thrift2_port) as c:
        name = make_dataset(c, "hbc_n%s" % uuid.uuid4().hex[:8])
        out = io.StringIO()
        transfer.export(c, out, tables=[name], max_versions=1)
    cells = [json.loads(l) for l in out.getvalue().splitlines() if "kind" not in json.loads(l)]
    assert len(cells) == 256 * 2
    assert {c["timestamp"] for c in cells} == {1002, 5000}


def test_console_scripts_stream_a_file_with_progress_on_stderr(servers, tmp_path):
    src, dst = servers(), servers()
    with thrift2.client(src.host, src.thrift2_port) as c:
        name = make_dataset(c, "hbc_c%s" % uuid.uuid4().hex[:8])
        expected = all_cells(c, name)
    bindir = Path(sys.executable).parent
    dump = tmp_path / "dump.jsonl"
    exp = subprocess.run([str(bindir / "hbase-emulator-export"), "--host", src.host, "--port",
                          str(src.thrift2_port), "-o", str(dump)], capture_output=True, text=True)
    assert exp.returncode == 0, exp.stderr
    assert exp.stderr.splitlines()[-1].startswith("export %s: %d cells, " % (name, len(expected)))
    imp = subprocess.run([str(bindir / "hbase-emulator-import"), "--host", dst.host, "--port",
                          str(dst.thrift2_port), "-i", str(dump), "--batch-cells", "100"],
                         capture_output=True, text=True)
    assert imp.returncode == 0, imp.stderr
    assert imp.stderr.splitlines()[-1].startswith("import %s: %d cells, " % (name, len(expected)))
    with thrift2.client(dst.host, dst.thrift2_port) as d:
        assert all_cells(d, name) == expected


def test_import_refuses_delete_markers_and_orphan_cells(servers):
    s = servers()
    cell = {"row": "cg==", "family": "Zg==", "qualifier": "", "timestamp": 1, "value": ""}
    with thrift2.client(s.host, s.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name("t"),
                                         columns=[T.TColumnFamilyDescriptor(name=b"f")]), None)
        # Hand-written JSON (spaces, any key order) imports like export's own layout.
        hand = [json.dumps({"kind": "table", "name": "t"}),
                json.dumps({"value": "dg==", "type": "Put", "timestamp": 7, "qualifier": "cQ==",
                            "family": "Zg==", "row": "cg=="})]
        assert transfer.import_(c, hand) == 1
        assert c.get(b"t", T.TGet(row=b"r")).columnValues[0].value == b"v"
        with pytest.raises(ValueError, match="before any table line"):
            transfer.import_(c, [json.dumps(dict(cell, type="Put"))])
        lines = [json.dumps({"kind": "table", "name": "t"}), json.dumps(dict(cell, type="DeleteColumn"))]
        with pytest.raises(ValueError, match="line 2: cells of type DeleteColumn cannot be imported"):
            transfer.import_(c, lines)
        with pytest.raises(ValueError, match="table missing does not exist"):
            transfer.import_(c, [json.dumps({"kind": "table", "name": "missing"})])


@pytest.fixture(autouse=True)
def _own_servers_only():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
