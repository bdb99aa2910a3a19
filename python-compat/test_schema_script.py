r"""The schema as an hbase shell script (hbase-emulator-export --schema, hbase_emulator.schema_script)
between real server processes: every family and table attribute, binary split keys and namespace
configuration go script -> hbase-shell -n (or --init, or hbase-emulator-import --schema) and
come back through Thrift2 equal. tests/differential/schema_roundtrip.py runs the same script
through HBase's own shell against a real HBase.
"""

import subprocess
import sys
import time

import pytest

import hbcompat
from hbase_emulator import schema_script, thrift2

T = thrift2.ttypes
SPLITS = [b"\x00", b"a'b", b"back\\slash", b"m\x00\x01", b"z\x7f\x80\xfe\xff"]


@pytest.fixture
def servers():
    started = []

    def start(*flags):
        server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0", *flags]).start()
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


def shell(server, script_path):
    """Runs `hbase-shell -n FILE` against `server`; its output (the test fails on a non-zero exit)."""
    binary = hbcompat.emulator_bin().parent / "hbase-shell"
    run = subprocess.run([str(binary), "--port", str(server.port), "--thrift2-port",
                          str(server.thrift2_port), "-n", str(script_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def make_schema(client):
    """A namespace with configuration and a table with every setting off its default, user
    values on the table and its families, family configuration, and binary split keys."""
    client.createNamespace(T.TNamespaceDescriptor(name="app", configuration={
        "hbase.namespace.quota.maxtables": "5", "owner's note": "a\\b"}))
    f = T.TColumnFamilyDescriptor(
        name=b"f", maxVersions=5, minVersions=1, timeToLive=86400,
        keepDeletedCells=T.TKeepDeletedCells.TTL, bloomnFilterType=T.TBloomFilterType.ROWCOL,
        compressionType=T.TCompressionAlgorithm.GZ, dataBlockEncoding=T.TDataBlockEncoding.FAST_DIFF,
        blockSize=32768, blockCacheEnabled=False, inMemory=True, scope=1,
        attributes={b"CACHE_DATA_ON_WRITE": b"true", b"EVICT_BLOCKS_ON_CLOSE": b"true",
                    b"DFS_REPLICATION": b"2", b"user key": b"it's \xc3\xa9"},
        configuration={"hbase.hstore.blockingStoreFiles": "20"})
    g = T.TColumnFamilyDescriptor(name=b"g", bloomnFilterType=T.TBloomFilterType.NONE,
                                  compressionType=T.TCompressionAlgorithm.NONE,
                                  keepDeletedCells=T.TKeepDeletedCells.TRUE)
    desc = T.TTableDescriptor(
        tableName=thrift2.split_table_name("app:users"), columns=[f, g],
        durability=T.TDurability.ASYNC_WAL,
        attributes={b"MAX_FILESIZE": b"1073741824", b"READONLY": b"false", b"tm": b"tv",
                    b"hbase.hregion.scan.loadColumnFamiliesOnDemand": b"true"})
    client.createTable(desc, SPLITS)
    client.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name("plain"),
                                          columns=[T.TColumnFamilyDescriptor(name=b"d")]), None)


def snapshot(client):
    """What the script must recreate: namespaces, and per table its descriptor and split keys."""
    namespaces = {n.name: n.configuration for n in client.listNamespaceDescriptors()}
    tables = {}
    for tname in client.getTableNamesByPattern(".*", False):
        name = thrift2.full_table_name(tname)
        desc = client.getTableDescriptor(tname)
        desc.columns = sorted(desc.columns, key=lambda c: c.name)
        splits = sorted(l.regionInfo.startKey for l in client.getAllRegionLocations(name.encode()))
        tables[name] = (desc, splits)
    return namespaces, tables


def script_of(server, tables=None):
    with thrift2.client(server.host, server.thrift2_port) as c:
        warnings = []
        out = __import__("io").StringIO()
        schema_script.write_schema(c, out, tables, warnings.append)
        return out.getvalue(), warnings


def test_every_attribute_round_trips_through_the_script_and_hbase_shell(servers, tmp_path):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
        want = snapshot(c)
    text, warnings = script_of(source)
    assert warnings == []
    # Split keys as the shell's Bytes.toBytesBinary reads them, a quote as \x27.
    assert "SPLITS => ['\\x00', 'a\\x27b', 'back\\x5Cslash', 'm\\x00\\x01', 'z\\x7F\\x80\\xFE\\xFF']" in text
    script = tmp_path / "schema.rb"
    script.write_text(text)
    target = servers()
    shell(target, script)
    with thrift2.client(target.host, target.thrift2_port) as c:
        got = snapshot(c)
    assert got == want
    assert got[1]["app:users"][1] == [b""] + SPLITS


def test_the_script_read_back_from_the_new_table_is_the_same_script(servers, tmp_path):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
    text, _ = script_of(source)
    (tmp_path / "schema.rb").write_text(text)
    target = servers()
    shell(target, tmp_path / "schema.rb")
    again, _ = script_of(target)
    assert again.splitlines()[2:] == text.splitlines()[2:]  # the header names the source


def test_the_script_runs_in_init(servers, tmp_path):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
        want = snapshot(c)
    text, _ = script_of(source)
    (tmp_path / "schema.rb").write_text(text)
    target = servers("--init", str(tmp_path / "schema.rb"))
    with thrift2.client(target.host, target.thrift2_port) as c:
        assert snapshot(c) == want


def test_describe_prints_the_recreated_table_as_the_original(servers, tmp_path):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
    (tmp_path / "describe.rb").write_text("describe 'app:users'\ndescribe_namespace 'app'\n")
    before = shell(source, tmp_path / "describe.rb")
    text, _ = script_of(source)
    (tmp_path / "schema.rb").write_text(text)
    target = servers()
    shell(target, tmp_path / "schema.rb")
    after = shell(target, tmp_path / "describe.rb")
    strip = lambda out: [l for l in out.splitlines() if not l.startswith("Took ")]
    assert strip(after) == strip(before)
    assert "METADATA => {'user key' => 'it's \\xC3\\xA9'}" in after
    assert "CONFIGURATION => {'hbase.hstore.blockingStoreFiles' => '20'}" in after
    assert "DURABILITY => 'ASYNC_WAL'" in after


def test_only_named_tables_and_their_namespaces_are_written(servers):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
        c.createNamespace(T.TNamespaceDescriptor(name="other"))
    text, _ = script_of(source, ["plain"])
    commands = [l for l in text.splitlines() if not l.startswith("#")]
    assert commands == ["create 'plain', {NAME => 'd', VERSIONS => 1, MIN_VERSIONS => 0, "
                        "TTL => 2147483647, KEEP_DELETED_CELLS => 'FALSE', BLOOMFILTER => 'ROW', "
                        "COMPRESSION => 'NONE', DATA_BLOCK_ENCODING => 'NONE', BLOCKSIZE => 65536, "
                        "BLOCKCACHE => true, IN_MEMORY => false, REPLICATION_SCOPE => 0}"]


def test_a_value_that_is_not_utf8_is_left_out_with_a_warning(servers):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name("t"), columns=[
            T.TColumnFamilyDescriptor(name=b"f", attributes={b"k": b"\xff"})]), None)
    text, warnings = script_of(source)
    assert warnings == ["table t family f: value k is not UTF-8 text, which an hbase shell "
                        "script cannot set; left out"]
    assert "METADATA" not in text


def run_tool(main, *args):
    code = subprocess.run([sys.executable, "-c", "import sys; from hbase_emulator import transfer; "
                           "sys.exit(transfer.%s(sys.argv[1:]))" % main, *args],
                          capture_output=True, text=True, timeout=60)
    return code.returncode, code.stderr


def test_import_schema_creates_what_is_missing_and_keeps_what_exists(servers, tmp_path):
    source = servers()
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
        want = snapshot(c)
    script = tmp_path / "schema.rb"
    rc, err = run_tool("export_main", "--port", str(source.thrift2_port), "--schema",
                       "-o", str(script))
    assert (rc, err) == (0, "hbase-emulator-export: schema of 1 namespace and 2 tables written\n")
    target = servers()
    with thrift2.client(target.host, target.thrift2_port) as c:
        # An existing table stays as it is: its one family is not replaced by the script's.
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name("plain"), columns=[
            T.TColumnFamilyDescriptor(name=b"x")]), None)
    rc, err = run_tool("import_main", "--port", str(target.thrift2_port), "--schema", str(script))
    assert (rc, err) == (0, "hbase-emulator-import: %s: created 1 namespace and 1 table\n" % script)
    with thrift2.client(target.host, target.thrift2_port) as c:
        got = snapshot(c)
    assert got[0] == want[0]
    assert got[1]["app:users"] == want[1]["app:users"]
    assert [f.name for f in got[1]["plain"][0].columns] == [b"x"]


def test_import_schema_names_the_line_it_cannot_read(servers, tmp_path):
    target = servers()
    script = tmp_path / "schema.rb"
    script.write_text("# fine\ncreate 't', 'f'\nput 't', 'r', 'f:q', 'v'\n")
    rc, err = run_tool("import_main", "--port", str(target.thrift2_port), "--schema", str(script))
    assert rc == 1
    assert err == ("hbase-emulator-import: %s line 3: only create_namespace and create are read "
                   "here (what --schema writes); run other commands with hbase-shell\n" % script)


def test_split_keys_are_read_as_hbase_shell_reads_them():
    # 'x\xFF' single-quoted is the escape text: the byte 0xFF. A double-quoted "\xFF" is a lone
    # malformed byte, which JRuby hands Java as U+FFFD: HBase's region starts at 0xFD.
    [(kind, (name, desc, splits))] = schema_script.read_schema(
        "create 't', 'f', {SPLITS => ['a\\xFF', \"b\\xff\", 'c\\x27']}")
    assert splits == [b"a\xff", b"b\xfd", b"c'"]


def test_import_schema_makes_the_table_a_sequencefile_import_writes_into(servers, tmp_path):
    source = servers()
    now = int(time.time() * 1000)  # family f keeps cells for a day (TTL)
    with thrift2.client(source.host, source.thrift2_port) as c:
        make_schema(c)
        c.putMultiple(b"app:users", [T.TPut(row=b"r\x00%d" % i, columnValues=[
            T.TColumnValue(family=b"f", qualifier=b"", value=b"v%d" % v, timestamp=now - 10 + v)
            for v in range(3)]) for i in range(5)])
        want = snapshot(c)
    script, folder = tmp_path / "schema.rb", tmp_path / "users-export"
    assert run_tool("export_main", "--port", str(source.thrift2_port), "--schema", "-q",
                    "-o", str(script))[0] == 0
    assert run_tool("export_main", "--port", str(source.thrift2_port), "--format", "sequencefile",
                    "--all-versions", "-t", "app:users", "-o", str(folder), "-q")[0] == 0
    target = servers()
    rc, err = run_tool("import_main", "--port", str(target.thrift2_port), "--schema", str(script),
                       "--format", "sequencefile", "-t", "app:users", "-i", str(folder), "-q")
    assert (rc, err) == (0, "")
    with thrift2.client(target.host, target.thrift2_port) as c:
        assert snapshot(c) == want
        scanner = c.openScanner(b"app:users", T.TScan(maxVersions=10))
        rows = c.getScannerRows(scanner, 100)
    assert [(r.row, [(cv.timestamp, cv.value) for cv in r.columnValues]) for r in rows] == [
        (b"r\x00%d" % i, [(now - 8, b"v2"), (now - 9, b"v1"), (now - 10, b"v0")]) for i in range(5)]
