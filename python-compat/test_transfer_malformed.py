"""hbase-emulator-import against malformed files, as a user runs it (the console script in a
subprocess, a real server): every kind ends in exactly one line on stderr naming the file, the
line and what is wrong, exit 1, no traceback, and says how many cells (into how many tables) went
in before it stopped; the cells of the whole records before the bad line are written."""

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from hbase_emulator import thrift2
from test_transfer import all_cells

T = thrift2.ttypes
IMPORT = Path(sys.executable).parent / "hbase-emulator-import"


@pytest.fixture(scope="module")
def server(module_server):
    return module_server


def table_line(name, **fields):
    record = {"kind": "table", "name": name, "encoding": "text",
              "descriptor": {"columns": [{"name": "f", "maxVersions": 3}]}}
    record.update(fields)
    return json.dumps(record)


def cell_line(row, timestamp=1):
    # Export's own layout (the fast path) for ordinary cells.
    return ('{"row":"%s","family":"f","qualifier":"q","timestamp":%d,"type":"Put","value":"v"}'
            % (row, timestamp))


def run_import(server, tmp_path, text):
    path = tmp_path / "dump.jsonl"
    path.write_text(text)
    proc = subprocess.run([str(IMPORT), "--port", str(server.thrift2_port), "-q", "-i", str(path),
                           "--batch-cells", "1000"], capture_output=True, text=True, timeout=120)
    return proc, str(path)


def assert_stopped(proc, path, lineno, what, summary):
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    prefix = "hbase-emulator-import: %s line %d: " % (path, lineno)
    assert lines[0].startswith(prefix), lines[0]
    assert what in lines[0], lines[0]
    assert lines[0].endswith("; before it stopped: " + summary), lines[0]


def cells_of(server, name):
    with thrift2.client(server.host, server.thrift2_port) as c:
        if not c.tableExists(thrift2.split_table_name(name)):
            return None
        return len(all_cells(c, name))


def unique(prefix):
    return "%s%s" % (prefix, uuid.uuid4().hex[:8])


# Each: the lines after a good table with two cells, the error's text. The table and its two
# cells are written before the bad line is reached.
BAD_TABLE_LINES = {
    "json_nested_100k_deep": ("[" * 100000 + "]" * 100000,
                              "not a record: JSON nested deeper than Python's recursion limit"),
    "descriptor_not_an_object": (table_line("%s_2", descriptor="f"),
                                 'descriptor must be an object, not "f"'),
    "descriptor_field_of_wrong_type": (
        table_line("%s_2", descriptor={"columns": [{"name": "f"}], "attributes": [1]}),
        "descriptor.attributes must be an object, not [1]"),
    "columns_not_a_list": (table_line("%s_2", descriptor={"columns": "f"}),
                           'descriptor.columns must be a list, not "f"'),
    "column_field_of_wrong_type": (
        table_line("%s_2", descriptor={"columns": [{"name": "f", "maxVersions": "3"}]}),
        'descriptor.columns[0].maxVersions must be an integer, not "3"'),
    "splits_not_strings": (table_line("%s_2", splits=[1, 2]), "splits[0] must be a string, not 1"),
    "splits_not_a_list": (table_line("%s_2", splits="abc"), 'splits must be a list, not "abc"'),
    "namespace_configuration_not_strings": (
        json.dumps({"kind": "namespace", "name": "%s_ns", "configuration": {"a": 1}}),
        'namespace.configuration["a"] must be a string, not 1'),
    "namespace_configuration_not_an_object": (
        json.dumps({"kind": "namespace", "name": "%s_ns", "configuration": [1]}),
        "namespace.configuration must be an object, not [1]"),
}


@pytest.mark.parametrize("kind", sorted(BAD_TABLE_LINES))
def test_a_malformed_record_stops_with_one_line_after_writing_the_records_before_it(
        server, tmp_path, kind):
    name = unique("mal_")
    bad, what = BAD_TABLE_LINES[kind]
    bad = bad.replace("%s", name) if "%s" in bad else bad
    text = "\n".join([table_line(name), cell_line("a"), cell_line("b"), bad, cell_line("c")]) + "\n"
    proc, path = run_import(server, tmp_path, text)
    assert_stopped(proc, path, 4, what, "2 cells written to 1 table, created 1 table")
    assert cells_of(server, name) == 2
    assert cells_of(server, name + "_2") is None  # nothing of the bad line was created
    with thrift2.client(server.host, server.thrift2_port) as c:
        assert name + "_ns" not in [n.decode() if isinstance(n, bytes) else n
                                    for n in c.listNamespaces()]


@pytest.mark.parametrize("timestamp", [2 ** 63, 2 ** 64 + 5, -2 ** 63 - 1])
@pytest.mark.parametrize("layout", ["export", "hand_written"])
def test_a_timestamp_outside_64_bits_stops_with_one_line_naming_it(server, tmp_path, timestamp,
                                                                   layout):
    name = unique("mal_ts_")
    bad = (cell_line("c", timestamp) if layout == "export" else
           json.dumps({"value": "v", "timestamp": timestamp, "row": "c", "family": "f",
                       "qualifier": "q"}))
    text = "\n".join([table_line(name), cell_line("a"), cell_line("b"), bad]) + "\n"
    proc, path = run_import(server, tmp_path, text)
    assert_stopped(proc, path, 4, '"timestamp" %d is out of range (a signed 64-bit integer: '
                   "-9223372036854775808 to 9223372036854775807)" % timestamp,
                   "2 cells written to 1 table, created 1 table")
    assert cells_of(server, name) == 2


def test_a_file_cut_mid_record_writes_every_whole_record_and_reports_the_cut(server, tmp_path):
    name = unique("mal_cut_")
    whole = [table_line(name)] + [cell_line("r%04d" % i) for i in range(2500)]
    # Cut in the middle of cell 2501's line: with 1000 cells a batch, 500 are still queued.
    text = "\n".join(whole) + "\n" + cell_line("r2500")[:40]
    proc, path = run_import(server, tmp_path, text)
    assert_stopped(proc, path, 2502, "the input ends in the middle of this line (cut short?): "
                   "not valid JSON (Expecting value at column 41)",
                   "2500 cells written to 1 table, created 1 table")
    assert cells_of(server, name) == 2500


def test_a_file_cut_inside_a_utf8_character_is_reported_as_cut(server, tmp_path):
    name = unique("mal_cut8_")
    path = tmp_path / "dump.jsonl"
    path.write_bytes(("\n".join([table_line(name), cell_line("a")]) + "\n").encode()
                     + '{"row":"\u00e9'.encode()[:-1])
    proc = subprocess.run([str(IMPORT), "--port", str(server.thrift2_port), "-q", "-i", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert_stopped(proc, str(path), 3, "the input ends in the middle of this line (cut short?): "
                   "not UTF-8 text", "1 cell written to 1 table, created 1 table")
    assert cells_of(server, name) == 1


def test_a_bad_line_in_the_middle_is_not_called_a_cut(server, tmp_path):
    name = unique("mal_mid_")
    text = "\n".join([table_line(name), cell_line("a"), '{"row": "b", ', cell_line("c")]) + "\n"
    proc, path = run_import(server, tmp_path, text)
    assert_stopped(proc, path, 3, "not valid JSON (", "1 cell written to 1 table, created 1 table")
    assert "cut short" not in proc.stderr
    assert cells_of(server, name) == 1


def test_importtsv_stopping_at_a_bad_line_writes_the_rows_before_it_and_says_how_many(
        server, tmp_path):
    name = unique("mal_tsv_")
    path = tmp_path / "rows.tsv"
    path.write_bytes(b"".join(b"r%04d\t%d\t%d\n" % (i, i, i) for i in range(250))
                     + b"bad\t1\t2\t3\n" + b"late\t1\t2\n")
    proc = subprocess.run([str(IMPORT.parent / "hbase-emulator-importtsv"), "--port",
                           str(server.thrift2_port), "-q", "--columns", "HBASE_ROW_KEY,f:a,f:b",
                           "--batch-rows", "100", name, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ("hbase-emulator-importtsv: %s line 251: 4 columns, but --columns names "
                           "3; before it stopped: 500 cells written to table %s\n" % (path, name))
    assert cells_of(server, name) == 500


@pytest.mark.parametrize("bad, what", [
    ('{"row":"c","family":"f","qualifier":"q","timestamp":%s,"type":"Put","value":"v"}'
     % ("9" * 5000), "not a record: a number too long to read"),
    ('{"row":"c","family":"f","qualifier":"q","timestamp":1,"type":{"a":1},"value":"v"}',
     'cells of type {"a": 1} cannot be imported (only Put)'),
    ('{"kind":"namespace","name":"x","configuration":{"a":%s}}' % ("[" * 900 + "]" * 900),
     'namespace.configuration["a"] must be a string, not [[[['),
], ids=["timestamp_of_5000_digits", "cell_type_an_object", "configuration_value_nested_900_deep"])
def test_odd_values_are_named_in_one_line_too(server, tmp_path, bad, what):
    name = unique("mal_odd_")
    text = "\n".join([table_line(name), cell_line("a"), bad]) + "\n"
    proc, path = run_import(server, tmp_path, text)
    assert_stopped(proc, path, 3, what, "1 cell written to 1 table, created 1 table")
    assert cells_of(server, name) == 1
