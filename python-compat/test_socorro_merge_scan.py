"""Socorro's salted merge scan over raw Apache Thrift.

Socorro (mozilla-services/socorro, socorro/external/hb) keys crash rows as
  salt (first hex char of the crash id) + 6-digit date (last 6 chars of the id) + crash id,
and reads a date range back in key order by opening 16 scanners at once on ONE connection,
`scannerOpenWithPrefix(table, salt + date_prefix, columns)` for salt in 0-f, pulling one row at a
time with `scannerGet`, merging on the unsalted key with a heap, and closing each drained scanner.
Its generated client comes from the 0.90-era IDL, whose calls have no `attributes` argument; the
second half of this module generates exactly such a client at test time and repeats the scan.
"""

import heapq
import random
import time
import uuid

import pytest

from hbase import Hbase
from hbase.ttypes import BatchMutation, ColumnDescriptor, Mutation

import hbcompat

SALTS = "0123456789abcdef"
DATES = ("240229", "240301", "240302")
N_ROWS = 10000
BATCH = 500

# The Thrift1 interface as HBase 0.90 shipped it (the calls Socorro makes): no `attributes`
# arguments, Mutation without writeToWAL, TRowResult without sortedColumns, IOError without canRetry.
OLD_IDL = """
namespace py hbase090

typedef binary Text
typedef binary Bytes
typedef i32 ScannerID

struct TCell { 1:Bytes value, 2:i64 timestamp }
struct ColumnDescriptor {
  1:Text name, 2:i32 maxVersions = 3, 3:string compression = "NONE", 4:bool inMemory = 0,
  5:string bloomFilterType = "NONE", 6:i32 bloomFilterVectorSize = 0,
  7:i32 bloomFilterNbHashes = 0, 8:bool blockCacheEnabled = 0, 9:i32 timeToLive = -1
}
struct Mutation { 1:bool isDelete = 0, 2:Text column, 3:Text value }
struct BatchMutation { 1:Text row, 2:list<Mutation> mutations }
struct TRowResult { 1:Text row, 2:map<Text, TCell> columns }

exception IOError { 1:string message }
exception IllegalArgument { 1:string message }

service Hbase {
  map<Text, ColumnDescriptor> getColumnDescriptors(1:Text tableName) throws (1:IOError io)
  list<TRowResult> getRow(1:Text tableName, 2:Text row) throws (1:IOError io)
  list<TRowResult> getRowWithColumns(1:Text tableName, 2:Text row, 3:list<Text> columns)
    throws (1:IOError io)
  void mutateRow(1:Text tableName, 2:Text row, 3:list<Mutation> mutations)
    throws (1:IOError io, 2:IllegalArgument ia)
  void mutateRows(1:Text tableName, 2:list<BatchMutation> rowBatches)
    throws (1:IOError io, 2:IllegalArgument ia)
  i64 atomicIncrement(1:Text tableName, 2:Text row, 3:Text column, 4:i64 value)
    throws (1:IOError io, 2:IllegalArgument ia)
  void deleteAllRow(1:Text tableName, 2:Text row) throws (1:IOError io)
  ScannerID scannerOpenWithPrefix(1:Text tableName, 2:Text startAndPrefix, 3:list<Text> columns)
    throws (1:IOError io)
  list<TRowResult> scannerGet(1:ScannerID id) throws (1:IOError io, 2:IllegalArgument ia)
  void scannerClose(1:ScannerID id) throws (1:IOError io, 2:IllegalArgument ia)
}
"""


def make_crash_id(rnd, date):
    """A Socorro ooid: a uuid whose last 6 characters are the submission date (yymmdd)."""
    u = str(uuid.UUID(int=rnd.getrandbits(128)))
    return u[:-6] + date


def crash_id_to_row_id(crash_id):
    return (crash_id[0] + crash_id[-6:] + crash_id).encode()


def merge_scan_with_prefix(client, table, prefix, columns, old_idl=False):
    """Socorro's _merge_scan_with_prefix: 16 salted scanners at once, heap-merged."""
    extra = () if old_idl else ({},)  # the 0.90 IDL call has no attributes argument
    scanners = [client.scannerOpenWithPrefix(table, (salt + prefix).encode(), columns, *extra)
                for salt in SALTS]
    assert len(set(scanners)) == 16, "scanner ids must be distinct"
    heap = []
    for sid in scanners:
        first = client.scannerGet(sid)
        if first:
            heapq.heappush(heap, (first[0].row[1:], first[0], sid))
        else:
            client.scannerClose(sid)
    while heap:
        _, result, sid = heapq.heappop(heap)
        yield result
        nxt = client.scannerGet(sid)
        if nxt:
            assert len(nxt) == 1
            heapq.heappush(heap, (nxt[0].row[1:], nxt[0], sid))
        else:
            client.scannerClose(sid)


def union_scan_with_prefix(client, table, prefix, columns):
    """Socorro's _union_scan_with_prefix: the same 16 scans, one after the other."""
    for salt in SALTS:
        sid = client.scannerOpenWithPrefix(table, (salt + prefix).encode(), columns)
        while True:
            got = client.scannerGet(sid)
            if not got:
                break
            yield got[0]
        client.scannerClose(sid)


@pytest.fixture(scope="module")
def crash_table(hbase_endpoint):
    """A crash_reports-like table holding N_ROWS salted rows, written with mutateRows batches."""
    client, transport = hbcompat.open_raw_client(hbase_endpoint.host, hbase_endpoint.port, Hbase)
    table = hbcompat.unique_table_name("crash_reports").encode()
    client.createTable(table, [ColumnDescriptor(name=b"ids:", maxVersions=1),
                               ColumnDescriptor(name=b"raw_data:", maxVersions=1),
                               ColumnDescriptor(name=b"processed_data:", maxVersions=1)])
    rnd = random.Random(20240301)
    crashes = {}
    for i in range(N_ROWS):
        crash_id = make_crash_id(rnd, DATES[i % len(DATES)])
        crashes[crash_id_to_row_id(crash_id)] = crash_id
    keys = list(crashes)
    rnd.shuffle(keys)  # arrival order is not key order
    for start in range(0, len(keys), BATCH):
        client.mutateRows(table, [
            BatchMutation(k, [Mutation(column=b"ids:ooid", value=crashes[k].encode()),
                              Mutation(column=b"raw_data:dump", value=b"dump-" + k),
                              Mutation(column=b"processed_data:json", value=b'{"ok":1}')])
            for k in keys[start:start + BATCH]], {})
    try:
        yield client, table, crashes
    finally:
        try:
            client.disableTable(table)
            client.deleteTable(table)
        finally:
            transport.close()


@pytest.fixture(scope="module")
def old_idl_module(tmp_path_factory):
    out = tmp_path_factory.mktemp("hbase090-gen")
    idl = out / "Hbase090.thrift"
    idl.write_text(OLD_IDL)
    hbcompat.generate_thrift_py(idl, out)
    import sys
    sys.path.insert(0, str(out))
    try:
        from hbase090 import Hbase as OldHbase, ttypes as old_ttypes
        yield OldHbase, old_ttypes
    finally:
        sys.path.remove(str(out))


@pytest.fixture
def old_client(hbase_endpoint, old_idl_module):
    OldHbase, old_ttypes = old_idl_module
    client, transport = hbcompat.open_raw_client(hbase_endpoint.host, hbase_endpoint.port, OldHbase)
    yield client, old_ttypes
    transport.close()


def expected_unsalted(crashes, date_prefix):
    return sorted(k[1:] for k, cid in crashes.items() if cid[-6:].startswith(date_prefix))


def test_10000_rows_written_with_mutateRows_are_all_there(crash_table):
    client, table, crashes = crash_table
    assert len(crashes) == N_ROWS
    seen = 0
    sid = client.scannerOpen(table, b"", [b"ids"], {})
    while True:
        batch = client.scannerGetList(sid, 1000)
        if not batch:
            break
        seen += len(batch)
    client.scannerClose(sid)
    assert seen == N_ROWS


def test_merge_scan_of_16_salted_scanners_yields_the_date_in_key_order(crash_table):
    client, table, crashes = crash_table
    date = "240301"
    merged = list(merge_scan_with_prefix(client, table, date, [b"ids:ooid"]))
    expected = expected_unsalted(crashes, date)
    assert len(expected) > 3000
    assert [r.row[1:] for r in merged] == expected
    for r in merged:
        assert r.columns == {b"ids:ooid": r.columns[b"ids:ooid"]}  # only the requested column
        assert r.columns[b"ids:ooid"].value == crashes[r.row].encode()


def test_merge_scan_with_family_column_and_partial_date_prefix(crash_table):
    client, table, crashes = crash_table
    merged = list(merge_scan_with_prefix(client, table, "2403", [b"raw_data"]))
    expected = expected_unsalted(crashes, "2403")
    assert [r.row[1:] for r in merged] == expected
    assert all(set(r.columns) == {b"raw_data:dump"} and r.columns[b"raw_data:dump"].value == b"dump-" + r.row
               for r in merged)
    assert list(merge_scan_with_prefix(client, table, "991231", [b"ids:ooid"])) == []


def test_old_idl_client_without_attributes_runs_socorros_calls(crash_table, old_client):
    _, table, crashes = crash_table
    client, old = old_client

    descs = client.getColumnDescriptors(table)
    assert set(descs) == {b"ids:", b"raw_data:", b"processed_data:"}

    row = next(iter(sorted(crashes)))
    got = client.getRowWithColumns(table, row, [b"raw_data"])
    assert len(got) == 1 and got[0].row == row
    assert {k: v.value for k, v in got[0].columns.items()} == {b"raw_data:dump": b"dump-" + row}
    full = client.getRow(table, row)
    assert set(full[0].columns) == {b"ids:ooid", b"raw_data:dump", b"processed_data:json"}

    # A new crash through 3-argument mutateRow (Mutation without writeToWAL on the wire).
    crash_id = "f" + uuid.uuid4().hex[1:8] + "-0000-4000-8000-00000" + "240303"
    new_row = crash_id_to_row_id(crash_id)
    client.mutateRow(table, new_row, [old.Mutation(column=b"ids:ooid", value=crash_id.encode()),
                                      old.Mutation(column=b"raw_data:dump", value=b"fresh")])
    assert {k: v.value for k, v in client.getRowWithColumns(table, new_row, [b"ids:ooid"])[0]
            .columns.items()} == {b"ids:ooid": crash_id.encode()}

    # Metrics counters, as Socorro bumps them.
    metrics_row = b"crash_report_queue:" + uuid.uuid4().hex.encode()
    assert client.atomicIncrement(table, metrics_row, b"processed_data:count", 1) == 1
    assert client.atomicIncrement(table, metrics_row, b"processed_data:count", 1) == 2
    assert client.atomicIncrement(table, metrics_row, b"processed_data:count", -1) == 1
    # Increments in one millisecond are stamped now, now+1, ... (max(now, old ts + 1)); a row
    # delete at "now" only covers them once the clock has caught up.
    time.sleep(0.01)
    client.deleteAllRow(table, metrics_row)
    assert client.getRow(table, metrics_row) == []

    # The merge scan through the old client sees the new row in its place.
    all_rows = dict(crashes)
    all_rows[new_row] = crash_id
    merged = [r.row[1:] for r in merge_scan_with_prefix(client, table, "2403", [b"ids:ooid"],
                                                        old_idl=True)]
    assert merged == expected_unsalted(all_rows, "2403")

    union = sorted(r.row[1:] for r in union_scan_with_prefix(client, table, "240303", [b"ids:ooid"]))
    assert union == [new_row[1:]]

    client.deleteAllRow(table, new_row)
    assert client.getRow(table, new_row) == []


def test_old_idl_client_errors_decode_without_canRetry(crash_table, old_client):
    client, old = old_client
    with pytest.raises(old.IOError) as err:
        client.getRow(hbcompat.unique_table_name("missing").encode(), b"r")
    assert "TableNotFoundException" in hbcompat.text(err.value.message)
    with pytest.raises(old.IllegalArgument):
        client.scannerGet(2 ** 31 - 11)
