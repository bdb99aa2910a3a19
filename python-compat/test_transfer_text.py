"""The transfer tools as a user runs them (console scripts in subprocesses, real servers): the
text form of bytes (HBase's Bytes.toStringBinary) and base64 both round-trip all 256 byte values
in rows, qualifiers and values with every version; old base64 dumps still import; the ImportTsv
clone loads a TSV the way HBase's ImportTsv does; progress shows a percentage where the size is
known; and every user mistake ends as exactly one line on stderr and a non-zero exit.

With HBASE_TOOLS_TARGET=host:port (a Thrift2 gateway, e.g. the real HBase oracle) the imports of
the round-trip and TSV tests write there instead of into a second emulator.
"""

import io
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import hbcompat
from hbase_emulator import bytes_text, progress, thrift2, transfer
from test_transfer import all_cells, make_dataset

T = thrift2.ttypes
BIN = Path(sys.executable).parent

# What HBase 2.6.1's Bytes.toStringBinary returns for the bytes 0..255 in order (taken from
# running it): only 0x20..0x7E print as themselves, and the backslash is escaped too.
HBASE_TO_STRING_BINARY_0_TO_255 = (
    r'\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0A\x0B\x0C\x0D\x0E\x0F\x10\x11\x12\x13\x14\x15'
    r'\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F'
    + ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[' + r'\x5C'
    + ']^_`abcdefghijklmnopqrstuvwxyz{|}~'
    + r'\x7F\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x91\x92\x93\x94'
    + r'\x95\x96\x97\x98\x99\x9A\x9B\x9C\x9D\x9E\x9F\xA0\xA1\xA2\xA3\xA4\xA5\xA6\xA7\xA8\xA9\xAA'
    + r'\xAB\xAC\xAD\xAE\xAF\xB0\xB1\xB2\xB3\xB4\xB5\xB6\xB7\xB8\xB9\xBA\xBB\xBC\xBD\xBE\xBF\xC0'
    + r'\xC1\xC2\xC3\xC4\xC5\xC6\xC7\xC8\xC9\xCA\xCB\xCC\xCD\xCE\xCF\xD0\xD1\xD2\xD3\xD4\xD5\xD6'
    + r'\xD7\xD8\xD9\xDA\xDB\xDC\xDD\xDE\xDF\xE0\xE1\xE2\xE3\xE4\xE5\xE6\xE7\xE8\xE9\xEA\xEB\xEC'
    + r'\xED\xEE\xEF\xF0\xF1\xF2\xF3\xF4\xF5\xF6\xF7\xF8\xF9\xFA\xFB\xFC\xFD\xFE\xFF'
)


@pytest.fixture(autouse=True)
def _own_servers_only():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


@pytest.fixture
def destination():
    """(host, Thrift2 port) to import into, and drops what the test created there."""
    target = os.environ.get("HBASE_TOOLS_TARGET", "").strip()
    started, created = [], []
    if target:
        host, _, port = target.rpartition(":")
        endpoint = (host, int(port))
    else:
        s = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
        started.append(s)
        endpoint = (s.host, s.thrift2_port)
    yield endpoint, created
    with thrift2.client(*endpoint) as c:
        for name in created:
            tname = thrift2.split_table_name(name)
            if c.tableExists(tname):
                c.disableTable(tname)
                c.deleteTable(tname)
            if ":" in name:
                c.deleteNamespace(name.split(":")[0])
    for s in started:
        s.stop()


def tool(name, *args, stdin=None):
    return subprocess.run([str(BIN / name)] + [str(a) for a in args], capture_output=True,
                          stdin=stdin, timeout=120)


def ok(proc):
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return proc


def unique(prefix):
    return "%s%s" % (prefix, uuid.uuid4().hex[:8])


# ---- the printable form

def test_printable_form_is_hbase_to_string_binary_and_reads_back():
    all_bytes = bytes(range(256))
    assert bytes_text.to_string_binary(all_bytes) == HBASE_TO_STRING_BINARY_0_TO_255
    assert bytes_text.to_bytes_binary(HBASE_TO_STRING_BINARY_0_TO_255) == all_bytes
    assert bytes_text.to_string_binary(b"alice") == "alice"
    # Lower-case hex and non-ASCII characters (their UTF-8 bytes) are accepted from hand-written
    # fixtures; a backslash that does not start \xHH is refused instead of guessed.
    assert bytes_text.to_bytes_binary("\\xff\\x5cé") == b"\xff\\\xc3\xa9"
    for bad in ("a\\b", "\\x4", "\\xZZ", "end\\"):
        with pytest.raises(ValueError, match="bad escape"):
            bytes_text.to_bytes_binary(bad)


# ---- round trips through the console scripts

def dataset_with_names(client, ns):
    """make_dataset's 256-byte-value table plus a readable row, to show the dump can be grepped."""
    name = make_dataset(client, ns)
    client.put(name.encode(), T.TPut(row=b"alice", columnValues=[
        T.TColumnValue(family=b"f", qualifier=b"email", value=b"alice@example.com", timestamp=7)]))
    return name


@pytest.mark.parametrize("encoding", ["text", "base64"])
def test_round_trip_of_all_byte_values_and_versions_through_the_tools(server, destination,
                                                                       tmp_path, encoding):
    (host, port), created = destination
    ns = unique("hbc_t")
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = dataset_with_names(c, ns)
        expected = all_cells(c, name)
    assert len(expected) == 256 * 4 + 1
    dump = tmp_path / "dump.jsonl"
    flags = ["--base64"] if encoding == "base64" else []
    ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "-t", name, "-o", dump, *flags))
    text = dump.read_bytes().decode("ascii")  # both forms are plain ASCII
    table_line = [l for l in text.splitlines() if '"kind": "table"' in l][0]
    assert '"encoding": "%s"' % encoding in table_line
    if encoding == "text":
        assert '{"row":"alice","family":"f","qualifier":"email","timestamp":7,"type":"Put",' \
               '"value":"alice@example.com"}' in text
        # The row of byte 0 as the HBase shell prints it, JSON-escaped: \x00row\xFF\xFF
        assert r'"row":"\\x00\\x00row\\xFF\\xFF"' in text
    else:
        assert "alice" not in text.split(table_line)[1]
    created.append(name)
    ok(tool("hbase-emulator-import", "--host", host, "--port", port, "-i", dump))
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == expected
        families = {f.name: f for f in d.getTableDescriptor(thrift2.split_table_name(name)).columns}
        assert families[b"f"].maxVersions == 5 and families[b"g"].timeToLive == 2000000000
    # Exported again from the destination: the same cell lines, byte for byte.
    again = ok(tool("hbase-emulator-export", "--host", host, "--port", port, "-t", name, "-q",
                    *flags)).stdout.decode("ascii")
    cells = [l for l in text.splitlines() if not l.startswith('{"kind"')]
    assert [l for l in again.splitlines() if not l.startswith('{"kind"')] == cells


def test_a_base64_dump_from_before_the_text_form_still_imports(server, destination, tmp_path):
    (host, port), created = destination
    with thrift2.client(server.host, server.thrift2_port) as c:
        name = make_dataset(c, unique("hbc_o"))
        expected = all_cells(c, name)
    new = ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "-t", name, "--base64",
                  "-q")).stdout.decode("ascii")
    # The old layout: the same lines with no "encoding" on the table line.
    old = new.replace('"encoding": "base64", ', "")
    assert old != new and '"encoding"' not in old
    dump = tmp_path / "old.jsonl"
    dump.write_text(old)
    created.append(name)
    # Read from stdin redirected from the file: its size is known, so is the percentage.
    with open(dump, "rb") as f:
        imp = ok(tool("hbase-emulator-import", "--host", host, "--port", port, stdin=f))
    last = imp.stderr.decode().splitlines()[-1]
    assert re.match(r"import %s: %d cells, 100%% of [0-9.]+ KB, " % (re.escape(name), len(expected)),
                    last), last
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == expected


# ---- ImportTsv

def test_importtsv_loads_columns_as_hbase_importtsv_does(destination, tmp_path):
    (host, port), created = destination
    name = unique("hbc_tsv")
    created.append(name)
    tsv = tmp_path / "users.tsv"
    # Bytes as they are (no unescaping, no quoting), a family-only column, a short line whose
    # missing columns are not written, an empty value that is, and an ignored empty line.
    tsv.write_bytes(b"alice\t30\tAlice \"A\", \\x41\t\xff\x00\n"
                    b"bob\t41\n"
                    b"\n"
                    b"carol\t\tCarol\tc\n")
    imp = ok(tool("hbase-emulator-importtsv", "--host", host, "--port", port, "--columns",
                  "HBASE_ROW_KEY, info:age,info:name,raw", "--timestamp", 1234, name, tsv))
    assert re.match(r"importtsv %s: 7 cells, 100%% of %d B, " % (name, len(tsv.read_bytes())),
                    imp.stderr.decode().splitlines()[-1])
    with thrift2.client(host, port) as d:
        families = sorted(f.name for f in d.getTableDescriptor(thrift2.split_table_name(name)).columns)
        assert families == [b"info", b"raw"]
        assert all_cells(d, name) == [
            (b"alice", b"info", b"age", 1234, b"30"),
            (b"alice", b"info", b"name", 1234, b'Alice "A", \\x41'),
            (b"alice", b"raw", b"", 1234, b"\xff\x00"),
            (b"bob", b"info", b"age", 1234, b"41"),
            (b"carol", b"info", b"age", 1234, b""),
            (b"carol", b"info", b"name", 1234, b"Carol"),
            (b"carol", b"raw", b"", 1234, b"c"),
        ]


def test_importtsv_with_a_comma_separator_and_a_timestamp_column_does_no_quoting(destination, tmp_path):
    (host, port), created = destination
    name = unique("hbc_csv")
    created.append(name)
    csv = tmp_path / "data.csv"
    csv.write_bytes(b'r1,100,"x,y"\nr2,200,plain\n')
    ok(tool("hbase-emulator-importtsv", "--host", host, "--port", port, "--separator", ",",
            "--columns", "HBASE_ROW_KEY,HBASE_TS_KEY,f:a,f:b", "-q", name, csv))
    with thrift2.client(host, port) as d:
        # As HBase's ImportTsv: the quote is data and the comma inside it separates columns.
        assert all_cells(d, name) == [(b"r1", b"f", b"a", 100, b'"x'), (b"r1", b"f", b"b", 100, b'y"'),
                                      (b"r2", b"f", b"a", 200, b"plain")]


def test_importtsv_skip_bad_lines_counts_them_as_hbase_does(destination, tmp_path):
    (host, port), created = destination
    name = unique("hbc_skip")
    created.append(name)
    tsv = tmp_path / "mixed.tsv"
    tsv.write_bytes(b"r1\ta\nno-separator\nr2\ta\tone-too-many\n\tempty-row\nr3\tc\n")
    imp = ok(tool("hbase-emulator-importtsv", "--host", host, "--port", port, "--columns",
                  "HBASE_ROW_KEY,f:a", "--skip-bad-lines", "--timestamp", 9, "-q", name, tsv))
    assert imp.stderr.decode() == "hbase-emulator-importtsv: skipped 3 bad lines\n"
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == [(b"r1", b"f", b"a", 9, b"a"), (b"r3", b"f", b"a", 9, b"c")]


def test_importtsv_takes_hbase_d_spellings_as_hbase_importtsv_does(destination, tmp_path):
    # The same file and command line as run against HBase 2.6.1's ImportTsv: r1 and r2 with the
    # timestamps of their HBASE_TS_KEY column.
    (host, port), created = destination
    name = unique("hbc_dtsv")
    created.append(name)
    csv = write(tmp_path / "comma.csv", b"r1,100,x\nr2,200,y\n")
    ok(tool("hbase-emulator-importtsv", "--host", host, "--port", port, "-q",
            "-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_TS_KEY,f:b", "-D", "importtsv.separator=,",
            name, csv))
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == [(b"r1", b"f", b"b", 100, b"x"), (b"r2", b"f", b"b", 200, b"y")]


def test_importtsv_hbase_skip_bad_lines_and_dry_run_properties(destination, tmp_path):
    # HBase 2.6.1 with this file: skip.bad.lines=true writes r1 and r3 (r2 has one column too
    # many); =false fails at r2; dry.run=true writes nothing.
    (host, port), created = destination
    name = unique("hbc_dprops")
    created.append(name)
    tsv = write(tmp_path / "bad.tsv", b"r1\t1\nr2\t2\textra\nr3\t3\n")
    args = ["--host", host, "--port", port, "-q", "-Dimporttsv.columns=HBASE_ROW_KEY,f:a",
            "-Dimporttsv.timestamp=5"]
    dry = ok(tool("hbase-emulator-importtsv", *args, "-Dimporttsv.dry.run=true",
                  "-Dimporttsv.skip.bad.lines=true", name, tsv))
    assert dry.stderr.decode().splitlines() == [
        "hbase-emulator-importtsv: skipped 1 bad line",
        "hbase-emulator-importtsv: dry run: 2 cells checked, nothing written"]
    with thrift2.client(host, port) as d:
        assert not d.tableExists(thrift2.split_table_name(name))  # a dry run creates nothing
    failed = tool("hbase-emulator-importtsv", *args, "-Dimporttsv.skip.bad.lines=false", name, tsv)
    assert failed.returncode == 1
    assert failed.stderr.decode() == ("hbase-emulator-importtsv: %s line 2: 3 columns, but "
                                      "--columns names 2; before it stopped: 1 cell written to "
                                      "table %s\n" % (tsv, name))
    logged = ok(tool("hbase-emulator-importtsv", *args, "-Dimporttsv.skip.bad.lines=TRUE",
                     "-Dimporttsv.log.bad.lines=true", "-Dmapreduce.map.speculative=false", name, tsv))
    assert logged.stderr.decode().splitlines() == [
        "hbase-emulator-importtsv: -Dmapreduce.map.speculative has nothing to tune here "
        "(no MapReduce job); ignored",
        "%s line 2: bad line skipped: 3 columns, but --columns names 2" % tsv,
        "hbase-emulator-importtsv: skipped 1 bad line"]
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == [(b"r1", b"f", b"a", 5, b"1"), (b"r3", b"f", b"a", 5, b"3")]


def test_a_failed_export_leaves_no_file_and_an_existing_file_as_it_was(server, tmp_path):
    out = tmp_path / "dump.jsonl"
    failed = tool("hbase-emulator-export", "--port", server.thrift2_port, "-t", "nope", "-o", out)
    assert failed.returncode == 1 and b"table nope does not exist" in failed.stderr
    assert not out.exists()
    assert os.listdir(tmp_path) == []  # no temporary file left either
    out.write_text("kept\n")
    failed = tool("hbase-emulator-export", "--port", server.thrift2_port, "-t", "nope", "-o", out)
    assert failed.returncode == 1 and out.read_text() == "kept\n"
    assert os.listdir(tmp_path) == ["dump.jsonl"]
    ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "--schema-only", "-o", out))
    assert out.read_text() != "kept\n"
    fresh = tmp_path / "fresh.jsonl"
    ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "--schema-only", "-o", fresh))
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_rename_of_a_table_the_input_names_still_works(destination, tmp_path):
    (host, port), created = destination
    name = unique("hbc_ren")
    created.append(name)
    dump = write(tmp_path / "one.jsonl", '{"kind":"table","name":"orig","encoding":"text",'
                 '"descriptor":{"columns":[{"name":"f"}]}}\n' + CELL)
    ok(tool("hbase-emulator-import", "--host", host, "--port", port, "-q", "--rename",
            "orig=" + name, "-i", dump))
    with thrift2.client(host, port) as d:
        assert all_cells(d, name) == [(b"r", b"f", b"q", 1, b"v")]


def test_a_tsv_export_prints_the_importtsv_command_that_loads_it_back(server, destination, tmp_path):
    (host, port), created = destination
    source = unique("hbc_tsvx")
    with thrift2.client(server.host, server.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(source), columns=[
            T.TColumnFamilyDescriptor(name=b"f", maxVersions=5),
            T.TColumnFamilyDescriptor(name=b"g")]), None)
        cv = T.TColumnValue
        c.putMultiple(source.encode(), [
            T.TPut(row=b"r1", columnValues=[cv(family=b"f", qualifier=b"a", value=b"old", timestamp=100),
                                            cv(family=b"f", qualifier=b"a", value=b"new", timestamp=200),
                                            cv(family=b"g", qualifier=b"", value=b"\xff bytes", timestamp=200)]),
            T.TPut(row=b"r2", columnValues=[cv(family=b"f", qualifier=b"b:x", value=b"v", timestamp=300)])])
        expected = all_cells(c, source)
    out = tmp_path / "t.tsv"
    exp = ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "--tsv", "-t", source,
                  "-o", out, "-q"))
    assert out.read_bytes() == (b"r1\t200\tnew\t\t\xff bytes\n"
                                b"r1\t100\told\t\t\n"
                                b"r2\t300\t\tv\t\n")
    said = exp.stderr.decode("utf-8").splitlines()
    columns = "-Dimporttsv.columns=HBASE_ROW_KEY,HBASE_TS_KEY,f:a,f:b:x,g"
    assert said == [
        "hbase-emulator-export: to load it with HBase's ImportTsv (table %s must exist, with "
        "families f, g; on a cluster give the file's HDFS path):" % source,
        "  hbase org.apache.hadoop.hbase.mapreduce.ImportTsv %s -Dimporttsv.skip.empty.columns=true "
        "%s file://%s" % (columns, source, out),
        "hbase-emulator-export: or into an emulator: hbase-emulator-importtsv %s "
        "-Dimporttsv.skip.empty.columns=true %s %s" % (columns, source, out)]
    # The emulator's line, run as printed, loads every version back (the table made with
    # versions to keep them, as a user would for ImportTsv).
    created.append(source)
    with thrift2.client(host, port) as d:
        d.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(source), columns=[
            T.TColumnFamilyDescriptor(name=b"f", maxVersions=5), T.TColumnFamilyDescriptor(name=b"g")]),
            None)
    ok(tool("hbase-emulator-importtsv", "--host", host, "--port", port, "-q",
            *said[2].split("hbase-emulator-importtsv ", 1)[1].split(" ")))
    with thrift2.client(host, port) as d:
        assert all_cells(d, source) == expected


def test_a_tsv_export_refuses_what_a_tsv_line_cannot_carry_and_leaves_no_file(server, tmp_path):
    name = unique("hbc_tsvbad")
    with thrift2.client(server.host, server.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name),
                                         columns=[T.TColumnFamilyDescriptor(name=b"f")]), None)
        c.put(name.encode(), T.TPut(row=b"r1", columnValues=[
            T.TColumnValue(family=b"f", qualifier=b"a", value=b"two\tfields")]))
    out = tmp_path / "bad.tsv"
    proc = tool("hbase-emulator-export", "--port", server.thrift2_port, "--tsv", "-t", name, "-o", out, "-q")
    assert proc.returncode == 1
    assert proc.stderr.decode() == (
        "hbase-emulator-export: table %s, row r1: the value of f:a holds the separator \\x09, "
        "which a TSV line cannot carry (ImportTsv has no quoting); try another --separator\n" % name)
    assert not out.exists() and os.listdir(tmp_path) == []
    # Another separator carries it.
    proc = ok(tool("hbase-emulator-export", "--port", server.thrift2_port, "--tsv", "-t", name, "-o", out,
                   "-q", "--separator", "|"))
    assert out.read_bytes().endswith(b"|two\tfields\n")
    assert "'-Dimporttsv.separator=|'" in proc.stderr.decode()  # quoted for the shell
    two = tool("hbase-emulator-export", "--port", server.thrift2_port, "--tsv", "-o", out)
    assert two.returncode == 2 and two.stderr.decode() == (
        "hbase-emulator-export: --tsv exports one table: give it with -t\n")


# ---- progress

def test_progress_shows_percentage_and_eta_when_the_size_is_known(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    lines = []

    class Sink:
        def write(self, s):
            lines.append(s)

        def flush(self):
            pass

    p = progress.Progress("import", stream=Sink(), total_bytes=4000000)
    clock[0] += 2.0
    p.add(5000, "t", done_bytes=1000000)
    assert lines == ["import t: 5000 cells, 25% of 4.0 MB, 2.0 s, 2500 cells/s, ETA 6 s\n"]
    p.done_bytes = 4000000
    p.done()
    assert lines[-1] == "import t: 5000 cells, 100% of 4.0 MB, 2.0 s, 2500 cells/s\n"
    unknown = progress.Progress("export", stream=Sink())
    clock[0] += 1.5
    unknown.add(30, "ns:t")
    assert lines[-1] == "export ns:t: 30 cells, 1.5 s, 20 cells/s\n"
    assert progress.human_seconds(3725) == "1 h 02 min" and progress.human_seconds(75) == "1 min 15 s"


def test_a_server_lost_during_an_import_is_one_line(tmp_path):
    s = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    name = unique("hbc_lost")
    try:
        with thrift2.client(s.host, s.thrift2_port) as c:
            c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name),
                                             columns=[T.TColumnFamilyDescriptor(name=b"f")]), None)
        proc = subprocess.Popen([str(BIN / "hbase-emulator-import"), "--port", str(s.thrift2_port),
                                 "--batch-cells", "1", "-q"], stdin=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        proc.stdin.write((TABLE_LINE % name + CELL).encode())
        proc.stdin.flush()
        with thrift2.client(s.host, s.thrift2_port) as c:
            deadline = time.monotonic() + 60
            while not c.exists(name.encode(), T.TGet(row=b"r")):
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.05)
        s.stop()
        _, err = proc.communicate(input=CELL.replace('"r"', '"r2"').encode() * 3, timeout=60)
    finally:
        s.stop()
    assert proc.returncode == 1
    assert re.fullmatch(r"hbase-emulator-import: lost the connection to 127\.0\.0\.1:%d \(.+\)\n"
                        % s.thrift2_port, err.decode()), err


class Lines(list):
    def write(self, s):
        self.append(s)

    def flush(self):
        pass


def test_export_progress_names_the_table_and_region_it_is_in(server):
    plain, split = unique("hbc_p"), unique("hbc_r")
    with thrift2.client(server.host, server.thrift2_port) as c:
        for name, splits in ((plain, None), (split, [b"m", b"t"])):
            c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name),
                                             columns=[T.TColumnFamilyDescriptor(name=b"f")]), splits)
            c.putMultiple(name.encode(), [T.TPut(row=r, columnValues=[
                T.TColumnValue(family=b"f", qualifier=b"q", value=b"v")]) for r in (b"a", b"n", b"z")])
        lines = Lines()
        transfer.export(c, io.StringIO(), tables=[plain, split],
                        progress=progress.Progress("export", stream=lines))
    # The last line is the total over both tables, not labelled with the last one.
    assert lines[-1].startswith("export total over 2 tables: 6 cells, "), lines
    assert "%" not in lines[-1] and "ETA" not in lines[-1]


def test_progress_while_running_names_the_table_and_region_and_the_total_says_total(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    lines = Lines()
    p = progress.Progress("export", stream=lines)
    clock[0] += 1.0
    p.add(4, "a", where="table 1 of 2")
    assert lines[-1] == "export a (table 1 of 2): 4 cells, 1.0 s, 4 cells/s\n"
    clock[0] += 1.0
    p.add(0, "ns:b", where="table 2 of 2, region 2 of 3")
    assert lines[-1] == ("export 4 cells over 2 tables, now ns:b (table 2 of 2, region 2 of 3), "
                         "2.0 s, 2 cells/s\n")
    p.add(6, "ns:b", where="table 2 of 2, region 3 of 3")
    p.done()
    assert lines[-1] == "export total over 2 tables: 10 cells, 2.0 s, 5 cells/s\n"
    one = progress.Progress("import", stream=lines)
    one.add(3, "t", where="region 2 of 2")
    one.done()
    assert lines[-1].startswith("import t: 3 cells, ")


# ---- every user mistake: one line, non-zero exit

def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture(scope="module")
def mistakes_env(server, tmp_path_factory):
    """An existing table with family f, and a directory for the mistakes' files."""
    d = tmp_path_factory.mktemp("mistakes")
    table = unique("hbc_m")
    with thrift2.client(server.host, server.thrift2_port) as c:
        c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(table),
                                         columns=[T.TColumnFamilyDescriptor(name=b"f")]), None)
    return d, table


def write(path, data):
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


TABLE_LINE = '{"kind":"table","name":"%s","encoding":"text"}\n'
CELL = '{"row":"r","family":"f","qualifier":"q","timestamp":1,"value":"v"}\n'
# How an import that stops at a bad line ends when nothing went in before it.
NOTHING_WRITTEN = "; before it stopped: 0 cells written, nothing created"

# name -> f(server, dir, table) giving (tool, args, expected stderr line or regex, exit code)
MISTAKES = {
    "connection_refused": lambda s, d, t: (
        "hbase-emulator-export", ["--port", closed_port()],
        "cannot connect to 127.0.0.1:{port}: connection refused", 1),
    "thrift1_port_given": lambda s, d, t: (
        "hbase-emulator-export", ["--port", s.port],
        "127.0.0.1:%d serves HBase's Thrift1 API, not Thrift2; give the Thrift2 port "
        "(HBase's default is 9091)" % s.port, 1),
    "not_a_thrift_port": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.ports["admin"], "-i", write(d / "ok.jsonl", TABLE_LINE % t)],
        re.compile(r"127\.0\.0\.1:%d does not answer as an HBase Thrift2 server \(.+\)" % s.ports["admin"]), 1),
    "port_out_of_range": lambda s, d, t: (
        "hbase-emulator-import", ["--port", "70000"],
        "argument --port: '70000' is not a port number (1-65535) (see --help)", 2),
    "unknown_host": lambda s, d, t: (
        "hbase-emulator-export", ["--host", "no-such-host.invalid"],
        "cannot connect to no-such-host.invalid:9091: unknown host", 1),
    "export_missing_table": lambda s, d, t: (
        "hbase-emulator-export", ["--port", s.thrift2_port, "-t", "nope"], "table nope does not exist", 1),
    "unknown_option": lambda s, d, t: (
        "hbase-emulator-export", ["--no-such-flag"],
        "unrecognized arguments: --no-such-flag (see --help)", 2),
    "unwritable_output": lambda s, d, t: (
        "hbase-emulator-export", ["--port", s.thrift2_port, "-o", d / "no-dir" / "x.jsonl"],
        "cannot write %s: No such file or directory" % (d / "no-dir" / "x.jsonl"), 1),
    "batch_size_not_positive": lambda s, d, t: (
        "hbase-emulator-export", ["--batch-rows", "0"],
        "argument --batch-rows: '0' is not a positive integer (see --help)", 2),
    "unreadable_file": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", d / "missing.jsonl"],
        "cannot read %s: No such file or directory" % (d / "missing.jsonl"), 1),
    "directory_as_file": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a", t, d],
        "cannot read %s: Is a directory" % d, 1),
    "malformed_json_line": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(
            d / "bad.jsonl", TABLE_LINE % t + CELL + '{"row":"a" "family":"f"}\n')],
        "%s line 3: not valid JSON (Expecting ',' delimiter at column 12); before it stopped: "
        "1 cell written to 1 table, nothing created" % (d / "bad.jsonl"), 1),
    "cell_without_family": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(
            d / "nofam.jsonl", TABLE_LINE % t + CELL.replace('"family":"f",', ""))],
        '%s line 2: a cell line needs "family"' % (d / "nofam.jsonl") + NOTHING_WRITTEN, 1),
    "bad_escape": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(
            d / "esc.jsonl", TABLE_LINE % t + CELL.replace('"r"', '"C:\\\\Users"'))],
        '%s line 2: row: bad escape "\\Use" (a backslash starts \\xHH; write \\x5C for a '
        'backslash)' % (d / "esc.jsonl") + NOTHING_WRITTEN, 1),
    "bad_hex_escape": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(
            d / "hex.jsonl", TABLE_LINE % t + CELL.replace('"v"', '"ok\\\\x41\\\\xZZ"'))],
        '%s line 2: value: bad escape "\\xZZ" (a backslash starts \\xHH; write \\x5C for a '
        'backslash)' % (d / "hex.jsonl") + NOTHING_WRITTEN, 1),
    "cell_before_table_line": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(d / "orphan.jsonl", CELL)],
        "%s line 1: a cell before any table line" % (d / "orphan.jsonl") + NOTHING_WRITTEN, 1),
    "not_utf8": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(d / "latin1.jsonl", b"\xff\n")],
        "%s line 1: not UTF-8 text" % (d / "latin1.jsonl") + NOTHING_WRITTEN, 1),
    "missing_table_with_no_create": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "--no-create", "-i", write(
            d / "nocreate.jsonl", TABLE_LINE % "hbc_absent" + CELL)],
        "%s line 1: table hbc_absent does not exist (--no-create)" % (d / "nocreate.jsonl") + NOTHING_WRITTEN, 1),
    "unknown_family_refused_by_server": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "-i", write(
            d / "fam.jsonl", TABLE_LINE % t + CELL.replace('"f"', '"zz"'))],
        re.compile(r"%s line 2: the server refused the cells up to here: .*zz.*"
                   % re.escape(str(d / "fam.jsonl"))), 1),
    "bad_rename": lambda s, d, t: (
        "hbase-emulator-import", ["--rename", "x"], "--rename wants OLD=NEW, not 'x'", 2),
    "tsv_columns_without_row_key": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--columns", "f:a,f:b", t, "-"],
        "--columns must name HBASE_ROW_KEY exactly once", 2),
    "tsv_columns_only_row_key": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--columns", "HBASE_ROW_KEY,HBASE_TS_KEY", t, "-"],
        "--columns must name a column besides HBASE_ROW_KEY and HBASE_TS_KEY", 2),
    "tsv_columns_unsupported_special": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--columns", "HBASE_ROW_KEY,f:a,HBASE_CELL_TTL", t, "-"],
        "--columns: HBASE_CELL_TTL is not supported by this tool", 2),
    "tsv_columns_without_family": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--columns", "HBASE_ROW_KEY,:q", t, "-"],
        "--columns: column 2 (':q') has no family", 2),
    "tsv_columns_missing": lambda s, d, t: (
        "hbase-emulator-importtsv", [t, "-"],
        "give the file's columns: --columns SPEC or -Dimporttsv.columns=SPEC (see --help)", 2),
    "tsv_misspelt_property": lambda s, d, t: (
        "hbase-emulator-importtsv", ["-Dimporttsv.colums=HBASE_ROW_KEY,f:a", t, "-"],
        "-Dimporttsv.colums is not a property ImportTsv reads here (did you mean importtsv.columns?)", 2),
    "tsv_bulk_output_property": lambda s, d, t: (
        "hbase-emulator-importtsv", ["-Dimporttsv.columns=HBASE_ROW_KEY,f:a",
                                     "-Dimporttsv.bulk.output=/tmp/hfiles", t, "-"],
        "-Dimporttsv.bulk.output is not supported: it writes HFiles for a bulk load; this tool "
        "writes through Thrift", 2),
    "tsv_property_not_a_boolean": lambda s, d, t: (
        "hbase-emulator-importtsv", ["-Dimporttsv.columns=HBASE_ROW_KEY,f:a",
                                     "-Dimporttsv.dry.run=yes", t, "-"],
        "-Dimporttsv.dry.run=yes: give true or false", 2),
    "rename_of_a_table_not_in_the_input": lambda s, d, t: (
        "hbase-emulator-import", ["--port", s.thrift2_port, "--rename", "nosuch=x", "-i", write(
            d / "renamed.jsonl", TABLE_LINE % t + CELL)],
        "--rename nosuch=x: %s has no table nosuch (its tables: %s)" % (d / "renamed.jsonl", t), 1),
    "tsv_two_byte_separator": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--columns", "HBASE_ROW_KEY,f:a", "--separator", "::", t, "-"],
        "--separator must be one byte, not '::'", 2),
    "tsv_too_many_columns": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a,f:b", t,
                                     write(d / "wide.tsv", "r1\ta\tb\nr2\ta\tb\tc\n")],
        "%s line 2: 4 columns, but --columns names 3; before it stopped: 2 cells written to "
        "table %s" % (d / "wide.tsv", t), 1),
    "tsv_no_separator": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a", t,
                                     write(d / "nosep.tsv", "r1 a\n")],
        "%s line 1: no separator; before it stopped: 0 cells written to table %s"
        % (d / "nosep.tsv", t), 1),
    "tsv_invalid_timestamp": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,HBASE_TS_KEY,f:a",
                                     t, write(d / "ts.tsv", "r1\tsoon\ta\n")],
        "%s line 1: invalid timestamp 'soon'; before it stopped: 0 cells written to table %s"
        % (d / "ts.tsv", t), 1),
    "tsv_timestamp_column_past_64_bits": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,HBASE_TS_KEY,f:a",
                                     t, write(d / "ts64.tsv", "r1\t9223372036854775808\ta\n")],
        "%s line 1: invalid timestamp '9223372036854775808'; before it stopped: 0 cells written "
        "to table %s" % (d / "ts64.tsv", t), 1),
    "tsv_timestamp_option_past_64_bits": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a",
                                     "--timestamp", str(2 ** 63), t, write(d / "one.tsv", "r\ta\n")],
        "the timestamp 9223372036854775808 (--timestamp or importtsv.timestamp) is out of range "
        "(a signed 64-bit integer, in ms)", 2),
    "tsv_timestamp_property_below_64_bits": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a",
                                     "-Dimporttsv.timestamp=%d" % (-2 ** 63 - 1), t,
                                     write(d / "one.tsv", "r\ta\n")],
        "the timestamp -9223372036854775809 (--timestamp or importtsv.timestamp) is out of range "
        "(a signed 64-bit integer, in ms)", 2),
    "tsv_empty_row_key": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a", t,
                                     write(d / "norow.tsv", "\ta\n")],
        "%s line 1: empty row key; before it stopped: 0 cells written to table %s"
        % (d / "norow.tsv", t), 1),
    "tsv_missing_table_with_no_create": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,f:a", "--no-create",
                                     "hbc_absent", write(d / "one.tsv", "r\ta\n")],
        "table hbc_absent does not exist (--no-create)", 1),
    "tsv_family_not_in_table": lambda s, d, t: (
        "hbase-emulator-importtsv", ["--port", s.thrift2_port, "--columns", "HBASE_ROW_KEY,zz:a", t,
                                     write(d / "one.tsv", "r\ta\n")],
        "table %s has no column family zz (it has: f)" % t, 1),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_a_user_mistake_is_one_line_and_a_nonzero_exit(server, mistakes_env, mistake):
    d, table = mistakes_env
    name, args, expected, code = MISTAKES[mistake](server, d, table)
    if isinstance(expected, str) and "{port}" in expected:
        expected = expected.format(port=args[1])
    proc = tool(name, *args, stdin=subprocess.DEVNULL)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == code, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    line = err[:-1]
    assert line.startswith(name + ": "), line
    message = line[len(name) + 2:]
    if isinstance(expected, str):
        assert message == expected
    else:
        assert expected.fullmatch(message), message
    assert proc.stdout == b""
