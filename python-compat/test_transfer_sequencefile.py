"""Export and import in HBase's Export format (Hadoop SequenceFiles of ImmutableBytesWritable ->
Result), through the console scripts against real server processes.

fixtures/hbase-export/ holds folders written by the real HBase 2.6.1 Export job
(tests/differential/make_export_fixtures.sh) from one table: binary row keys, an empty
qualifier, several versions, a value holding every byte and delete markers of all four kinds,
exported with -Dhbase.mapreduce.include.deleted.rows=true: every version uncompressed, RECORD-
and BLOCK-compressed (DefaultCodec), and Export's default newest version (plain-newest);
scan.json is what HBase's Thrift2 scan showed of that table.
"""

import io
import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from hbase_emulator import bytes_text, hbase_result, sequencefile, thrift2
from test_transfer import all_cells, make_dataset

T = thrift2.ttypes
BIN = Path(sys.executable).parent
EXPORT, IMPORT = BIN / "hbase-emulator-export", BIN / "hbase-emulator-import"
FIXTURES = Path(__file__).parent / "fixtures" / "hbase-export"
FORMS = ("plain", "record-deflate", "block-deflate")


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def unique(prefix="seq"):
    return "%s%s" % (prefix, uuid.uuid4().hex[:8])


def run(tool, server, *args):
    return subprocess.run([str(tool), "--port", str(server.thrift2_port)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=300)


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc


def create(server, name, families=((b"f", 5), (b"g", 3))):
    with thrift2.client(server.host, server.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name), columns=[
            T.TColumnFamilyDescriptor(name=f, maxVersions=v) for f, v in families]), None)
    return name


def cells_of(server, name):
    with thrift2.client(server.host, server.thrift2_port) as c:
        return all_cells(c, name)


def read_folder(folder):
    """Every record of an Export folder: [(row, [cells])] in file order."""
    records = []
    for name in sorted(os.listdir(folder)):
        if name.startswith(("_", ".")):
            continue
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            reader = sequencefile.Reader(f, path)
            assert reader.header.key_class == hbase_result.KEY_CLASS
            assert reader.header.value_class == hbase_result.VALUE_CLASS
            for key, value, _ in reader.records():
                records.append((hbase_result.decode_key(key), hbase_result.decode_result(value)))
    return records


def flat(records):
    return sorted((c[0], c[1], c[2], c[3], c[5]) for _, cells in records for c in cells
                  if c[4] == hbase_result.PUT)


def recorded_scan():
    data = json.loads((FIXTURES / "scan.json").read_text())
    tbb = bytes_text.to_bytes_binary
    return sorted((tbb(c["row"]), tbb(c["family"]), tbb(c["qualifier"]), c["timestamp"],
                   tbb(c["value"])) for c in data["cells"])


def assert_one_line_error(proc, *parts):
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


# ---- HBase's own Export output

@pytest.mark.parametrize("form", FORMS)
def test_hbase_export_fixture_imports_to_what_hbase_scanned(server, form):
    name = create(server, unique())
    proc = ok(run(IMPORT, server, "--format", "sequencefile", "-t", name, "-i", FIXTURES / form))
    assert proc.stderr.splitlines()[-1].startswith("import %s: 27 cells, 100%% of " % name)
    assert cells_of(server, name) == recorded_scan()
    # The fixture holds puts its markers hide (a raw scan exports them); after the markers they
    # are hidden here as on HBase.
    hidden = set(flat(read_folder(FIXTURES / form))) - set(recorded_scan())
    assert len(hidden) == 8


def test_import_finds_the_format_by_itself(server):
    name = create(server, unique())
    ok(run(IMPORT, server, "-q", "-t", name, "-i", FIXTURES / "plain"))
    assert cells_of(server, name) == recorded_scan()
    other = create(server, unique())
    ok(run(IMPORT, server, "-q", "-t", other, "-i", FIXTURES / "block-deflate" / "part-m-00000"))
    assert cells_of(server, other) == recorded_scan()


@pytest.mark.parametrize("form,versions", [("plain", ["--all-versions"]), ("plain-newest", [])])
def test_export_with_markers_writes_hbase_export_bytes_for_the_cells_a_scan_sees(server, tmp_path,
                                                                                form, versions):
    """Importing HBase's export and exporting it again with --include-deleted gives, row for
    row, the Result bytes HBase's Export wrote, less the puts the markers hide; with Export's
    default of one version too (markers do not count as versions)."""
    name = create(server, unique())
    ok(run(IMPORT, server, "-q", "-t", name, "-i", FIXTURES / "plain"))
    out = tmp_path / "again"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", out,
           "--include-deleted", "--admin-port", server.ports["admin"], *versions))
    visible = set(recorded_scan())
    expected = []
    for row, cells in read_folder(FIXTURES / form):
        kept = [c for c in cells if c[4] != hbase_result.PUT or (c[0], c[1], c[2], c[3], c[5]) in visible]
        expected.append((row, hbase_result.encode_result(kept)))
    got = [(row, hbase_result.encode_result(cells)) for row, cells in read_folder(out)]
    assert got == expected
    assert sorted(os.listdir(out)) == ["_SUCCESS", "part-m-00000"]
    assert (out / "_SUCCESS").stat().st_size == 0
    # The -D spelling of HBase's Export does the same.
    again = tmp_path / "d"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", again,
           "-Dhbase.mapreduce.include.deleted.rows=true", "--admin-port", server.ports["admin"],
           *versions))
    assert [(r, hbase_result.encode_result(c)) for r, c in read_folder(again)] == expected
    if versions:
        # Imported into a fresh table, the markers hide what they hid.
        copy = create(server, unique())
        ok(run(IMPORT, server, "-q", "-t", copy, "-i", out))
        assert cells_of(server, copy) == recorded_scan()


def test_include_deleted_without_the_admin_api_is_one_line(server, tmp_path):
    name = create(server, unique())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", name, "-o", tmp_path / "x",
               "--include-deleted", "--admin-port", free)
    assert_one_line_error(proc, "--include-deleted reads delete markers from the emulator's admin API",
                          "--admin-port")
    assert not (tmp_path / "x").exists()
    # A port that answers HTTP but not with that API (here: the Thrift2 port is no HTTP at all).
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", name, "-o", tmp_path / "y",
               "--include-deleted", "--admin-port", server.thrift2_port)
    assert_one_line_error(proc, "--include-deleted reads delete markers")
    assert not (tmp_path / "y").exists()


# ---- our own round trips

def test_round_trip_keeps_every_version_byte_for_byte(server, tmp_path):
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = make_dataset(c, unique("hbc_s"))
        expected = all_cells(c, name)
    out = tmp_path / "export"
    proc = ok(run(EXPORT, server, "--format", "sequencefile", "-t", name, "-o", out, "--all-versions"))
    assert proc.stderr.splitlines()[-1].startswith("export %s: %d cells, " % (name, len(expected)))
    records = read_folder(out)
    assert len(records) == 256 and flat(records) == expected
    # Rows in key order, cells in HBase's order within each.
    assert [r for r, _ in records] == sorted(r for r, _ in records)
    for _, cells in records:
        assert cells == sorted(cells, key=lambda c: (c[1], c[2], -c[3], -c[4]))
    copy = create(server, "%s_copy" % name.replace(":", "_"), ((b"f", 5), (b"g", 1)))
    proc = ok(run(IMPORT, server, "-t", copy, "-i", out, "--batch-cells", "100"))
    assert proc.stderr.splitlines()[-1].startswith("import %s: %d cells, 100%% of " % (copy, len(expected)))
    assert cells_of(server, copy) == expected


def test_export_keeps_one_version_by_default_as_hbase_export(server, tmp_path):
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = make_dataset(c, unique("hbc_v"))
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", tmp_path / "one"))
    assert {c[3] for c in flat(read_folder(tmp_path / "one"))} == {1002, 5000}
    assert len(flat(read_folder(tmp_path / "one"))) == 512
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", tmp_path / "two",
           "--versions", "2"))
    assert {c[3] for c in flat(read_folder(tmp_path / "two"))} == {1001, 1002, 5000}


def _small_table(server):
    name = create(server, unique(), ((b"f", 10), (b"g", 10)))
    with thrift2.client(server.host, server.thrift2_port) as c:
        c.putMultiple(name.encode(), [T.TPut(row=row, columnValues=[
            T.TColumnValue(family=fam, qualifier=b"q", value=b"v%d" % ts, timestamp=ts)
            for fam in (b"f", b"g") for ts in (10, 20, 30)])
            for row in (b"a1", b"a2", b"b1", b"b2", b"c\x00", b"c\xff")])
    return name


@pytest.mark.parametrize("flags,rows,timestamps,families", [
    ([], {b"a1", b"a2", b"b1", b"b2", b"c\x00", b"c\xff"}, {30}, {b"f", b"g"}),
    (["--all-versions", "--start-time", "15", "--end-time", "30"], None, {20}, None),
    (["--start-row", "a2", "--stop-row", "b2"], {b"a2", b"b1"}, None, None),
    (["-Dhbase.mapreduce.scan.row.start=a2", "-Dhbase.mapreduce.scan.row.stop=b2"],
     {b"a2", b"b1"}, None, None),
    (["--row-prefix", "c"], {b"c\x00", b"c\xff"}, None, None),
    (["--row-prefix", "c\\xFF"], {b"c\xff"}, None, None),
    (["--row-regex", "^b|2$"], {b"a2", b"b1", b"b2"}, None, None),
    (["--family", "g"], None, None, {b"g"}),
    (["-Dhbase.mapreduce.scan.column.family=f,g", "--versions", "2"], None, {20, 30}, {b"f", b"g"}),
])
def test_export_options_choose_rows_versions_times_and_families(server, tmp_path, flags, rows,
                                                                timestamps, families):
    name = _small_table(server)
    out = tmp_path / "out"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", out, *flags))
    cells = flat(read_folder(out))
    assert cells
    if rows is not None:
        assert {c[0] for c in cells} == rows
    if timestamps is not None:
        assert {c[3] for c in cells} == timestamps
    if families is not None:
        assert {c[1] for c in cells} == families


@pytest.mark.parametrize("flags,compression,codec", [
    (["--compress", "record"], "record", sequencefile.DEFAULT_CODEC),
    (["--compress", "block", "--codec", "gzip"], "block", sequencefile.GZIP_CODEC),
    (["-Dmapreduce.output.fileoutputformat.compress=true"], "record", sequencefile.DEFAULT_CODEC),
    (["-Dmapreduce.output.fileoutputformat.compress=true",
      "-Dmapreduce.output.fileoutputformat.compress.type=BLOCK"], "block", sequencefile.DEFAULT_CODEC),
    (["-Dmapreduce.output.fileoutputformat.compress=true",
      "-Dmapreduce.output.fileoutputformat.compress.codec=org.apache.hadoop.io.compress.GzipCodec"],
     "record", sequencefile.GZIP_CODEC),
])
def test_compressed_exports_round_trip(server, tmp_path, flags, compression, codec):
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = make_dataset(c, unique("hbc_z"))
        expected = all_cells(c, name)
    out = tmp_path / "z"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", out,
           "--all-versions", *flags))
    with open(out / "part-m-00000", "rb") as f:
        header = sequencefile.Reader(f, "p").header
    assert (header.compression, header.codec) == (compression, codec)
    assert flat(read_folder(out)) == expected
    copy = create(server, unique(), ((b"f", 5), (b"g", 1)))
    ok(run(IMPORT, server, "-q", "-t", copy, "-i", out))
    assert cells_of(server, copy) == expected


@pytest.mark.parametrize("compress", ["none", "block"])
def test_part_files_split_by_size_and_import_reads_them_all(server, tmp_path, compress):
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = make_dataset(c, unique("hbc_p"))
        expected = all_cells(c, name)
    out = tmp_path / "parts"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", out,
           "--all-versions", "--part-size", "20000", "--compress", compress))
    parts = sorted(p for p in os.listdir(out) if p.startswith("part-m-"))
    assert len(parts) > 8 and parts == ["part-m-%05d" % i for i in range(len(parts))]
    assert all((out / p).stat().st_size < 20000 + 2000 for p in parts)
    copy = create(server, unique(), ((b"f", 5), (b"g", 1)))
    ok(run(IMPORT, server, "-q", "-t", copy, "-i", out))
    assert cells_of(server, copy) == expected


def test_several_tables_get_a_folder_each_and_an_empty_table_a_header_only_part(server, tmp_path):
    a, b = _small_table(server), create(server, unique())
    out = tmp_path / "many"
    ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", a, "-t", b, "-o", out))
    assert sorted(os.listdir(out / "default")) == sorted([a, b])
    assert len(read_folder(out / "default" / a)) == 6
    assert read_folder(out / "default" / b) == []
    assert sorted(os.listdir(out / "default" / b)) == ["_SUCCESS", "part-m-00000"]


def test_hbase_properties_are_read_refused_or_ignored_as_named(server, tmp_path):
    name = _small_table(server)
    proc = ok(run(EXPORT, server, "-q", "--format", "sequencefile", "-t", name, "-o", tmp_path / "a",
                  "-Dmapreduce.job.name=x", "-D", "hbase.client.scanner.caching=2"))
    assert proc.stderr == ("hbase-emulator-export: -Dmapreduce.job.name has nothing to tune here "
                           "(no MapReduce job); ignored\n")
    assert len(read_folder(tmp_path / "a")) == 6
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", name, "-o", tmp_path / "b",
               "-Dhbase.mapreduce.scan.row.strat=a")
    assert proc.returncode == 2 and "did you mean hbase.mapreduce.scan.row.start?" in proc.stderr
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", name, "-o", tmp_path / "c",
               "-Dhbase.export.scanner.batch=10")
    assert proc.returncode == 2 and "is not supported: it splits wide rows" in proc.stderr
    copy = create(server, unique(), ((b"f", 10), (b"g", 10)))
    ok(run(IMPORT, server, "-q", "-t", copy, "-i", tmp_path / "a", "-Dimport.wal.durability=SKIP_WAL"))
    assert len(cells_of(server, copy)) == 12
    proc = run(IMPORT, server, "-t", copy, "-i", tmp_path / "a", "-Dimport.bulk.output=/tmp/x")
    assert proc.returncode == 2 and "-Dimport.bulk.output is not supported" in proc.stderr
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()


def test_export_refuses_an_existing_folder_and_leaves_none_when_it_fails(server, tmp_path):
    (tmp_path / "there").mkdir()
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", _small_table(server), "-o",
               tmp_path / "there")
    assert_one_line_error(proc, "exists already")
    proc = run(EXPORT, server, "--format", "sequencefile", "-t", "missing", "-o", tmp_path / "no")
    assert_one_line_error(proc, "table missing does not exist")
    assert sorted(os.listdir(tmp_path)) == ["there"]


def test_import_into_a_missing_table_is_one_line(server):
    proc = run(IMPORT, server, "-t", unique("missing"), "-i", FIXTURES / "plain")
    assert_one_line_error(proc, "does not exist; create it with the exported table's families first")


# ---- malformed input

def _good_file(rows=3):
    out = io.BytesIO()
    w = sequencefile.Writer(out, hbase_result.KEY_CLASS, hbase_result.VALUE_CLASS, sync=b"S" * 16)
    offsets = []
    for i in range(rows):
        offsets.append(w.pos)
        row = b"r%d" % i
        w.append(hbase_result.encode_key(row),
                 hbase_result.encode_result([(row, b"f", b"q", 1, 4, b"value%d" % i)]))
    w.close()
    return out.getvalue(), offsets


def _malformed():
    data, offsets = _good_file()
    third = offsets[2]
    bad_proto = bytearray(data)
    # The third record's Result: its first cell's tag byte becomes wire type 7.
    value_at = third + 8 + 4 + 2 + 1
    bad_proto[value_at] = 0x0F
    wrong_key = data.replace(hbase_result.KEY_CLASS.encode(), b"org.apache.hadoop.io.Text" +
                             b" " * (len(hbase_result.KEY_CLASS) - 25), 1)
    wrong_value = data.replace(hbase_result.VALUE_CLASS.encode(), b"org.apache.hadoop.io.Text" +
                               b" " * (len(hbase_result.VALUE_CLASS) - 25), 1)
    # record-compressed whose third value is not zlib at all
    out = io.BytesIO()
    w = sequencefile.Writer(out, hbase_result.KEY_CLASS, hbase_result.VALUE_CLASS, "record",
                            sync=b"S" * 16)
    zoff = []
    for i in range(3):
        zoff.append(w.pos)
        row = b"r%d" % i
        w.append(hbase_result.encode_key(row),
                 hbase_result.encode_result([(row, b"f", b"q", 1, 4, b"value%d" % i)]))
    z = bytearray(out.getvalue())
    z[zoff[2] + 8 + 4 + 2:zoff[2] + 8 + 4 + 2 + 6] = b"\x00" * 6
    negative = bytearray(data)
    negative[third:third + 4] = (-5).to_bytes(4, "big", signed=True)
    return {
        "bad_magic": (b"PAR1" + data[4:], 0, "not a Hadoop SequenceFile", 0),
        "truncated_mid_record": (data[:third + 10], third, "the file ends inside a record", 2),
        "bad_protobuf": (bytes(bad_proto), third, "wire type 7", 2),
        "wrong_key_class": (wrong_key, 4, "its key class is org.apache.hadoop.io.Text", 0),
        "wrong_value_class": (wrong_value, 4 + 1 + len(hbase_result.KEY_CLASS),
                              "its value class is org.apache.hadoop.io.Text", 0),
        "zlib_garbage": (bytes(z), zoff[2], "does not decompress", 2),
        "negative_record_length": (bytes(negative), third, "record length -5", 2),
    }


MALFORMED = _malformed()


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_input_stops_with_file_and_offset_after_writing_the_records_before(server, tmp_path, kind):
    data, offset, what, written = MALFORMED[kind]
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "_SUCCESS").write_bytes(b"")
    (folder / "part-m-00000").write_bytes(data)
    name = create(server, unique())
    proc = run(IMPORT, server, "-q", "--format", "sequencefile", "-t", name, "-i", folder)
    line = assert_one_line_error(proc, "%s at byte %d: " % (folder / "part-m-00000", offset), what)
    assert line.endswith("; before it stopped: %d cell%s and 0 delete markers written to table %s"
                         % (written, "" if written == 1 else "s", name)), line
    assert len(cells_of(server, name)) == written


def test_a_malformed_second_file_stops_after_the_whole_first(server, tmp_path):
    data, offsets = _good_file()
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "part-m-00000").write_bytes(data)
    (folder / "part-m-00001").write_bytes(data[:offsets[1] + 3])
    name = create(server, unique())
    proc = run(IMPORT, server, "-q", "-t", name, "-i", folder)
    assert_one_line_error(proc, "part-m-00001 at byte %d: the file ends inside a record length" % offsets[1],
                          "before it stopped: 4 cells and 0 delete markers")


def test_reader_rejects_a_sync_marker_that_differs_and_an_unknown_codec(tmp_path):
    data, offsets = _good_file()
    sync_at = len(data) - 0  # append a sync escape with the wrong bytes
    broken = data + (-1).to_bytes(4, "big", signed=True) + b"X" * 16
    with pytest.raises(sequencefile.SequenceFileError, match="f at byte %d: sync marker differs" % sync_at):
        list(sequencefile.Reader(io.BytesIO(broken), "f").records())
    header = sequencefile.Header("k", "v", "record", "org.apache.hadoop.io.compress.SnappyCodec").encode()
    with pytest.raises(sequencefile.SequenceFileError, match="unknown codec .*SnappyCodec"):
        sequencefile.Reader(io.BytesIO(header), "f")
