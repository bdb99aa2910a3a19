"""Golden test cases of docs/hbase-semantics.md#golden-cases (G1-G43, G75-G90), checked
through the wire with the raw Apache Thrift client generated from thrift/Hbase.thrift (the
Thrift1 `Hbase` service). Filter-language cases G44-G74 are out of scope here.

Each test is named `test_g<N>_<behaviour>` and asserts HBase 2.x behaviour: if a test fails, the
server is wrong, not the test. Tables come from the `raw_table` fixture (Thrift1 `createTable`,
IDL-default ColumnDescriptors: maxVersions 3, TTL forever) unless a test says otherwise.

Translation to Thrift1 used throughout:
  Get(maxVersions=n)          -> getVer / getVerTs (Thrift1 read timestamps are the range [0, ts))
  DeleteColumn(f:q, ts)       -> deleteAllTs(t, r, "f:q", ts)      (covers ts <= marker)
  DeleteFamily(f, ts)         -> deleteAllTs(t, r, "f", ts)
  row delete at ts            -> deleteAllRowTs(t, r, ts)
  family VERSIONS / TTL       -> ColumnDescriptor(maxVersions=..., timeToLive=...)

Cases Thrift1 cannot express. They are storage rules, pinned by GoogleTest in
tests/storage/*_test.cc; no test here pretends to cover them:

  case   why not through Thrift1                               GoogleTest
  -----  ----------------------------------------------------  ---------------------------------------------------
  G5     no lower time bound in Thrift1 reads ([min, max) with  VersionedStoreTest.TimeRangeIsHalfOpen
         min > 0); only the exclusive max is tested (test_g5)
  G7     Thrift2 TGet.timestamp (exact timestamp)              VersionedStoreTest.ExactTimestampIsOneMillisecondRange
  G14    version delete (Thrift2 DELETE_COLUMN ts=20)          VersionedStoreTest.VersionDeleteMasksExactlyOneVersion
  G15    version delete at ts=25 (DELETE_COLUMN)               StoreTest.UnmatchedVersionDeleteMasksLaterPutAtThatTimestamp
  G16    latest-version delete (DELETE_COLUMN without ts;      StoreTest.RepeatedLatestVersionDeletesPeelVersionsOneByOne
         docs/hbase-semantics.md#marker-timestamps)
  G18    DELETE_FAMILY_VERSION                                 StoreTest.DeleteFamilyVersionMasksOneTimestampInEveryColumn
  G22    version delete ts=30 (DELETE_COLUMN)                  StoreTest.DeletedVersionsDoNotCountAgainstVersions
  G23    KEEP_DELETED_CELLS=TRUE family (not settable through  StoreTest.KeepDeletedCellsLetsTimeRangeReadSeeBehindMarker
         ColumnDescriptor)
  G24    KEEP_DELETED_CELLS=FALSE read with range [0,150) - the StoreTest.WithoutKeepDeletedCellsTimeRangeReadStaysMasked
         Thrift1 analogue is expressible and tested (test_g24)
  G26a   Thrift2 mutateRow (TRowMutations, one shared ts)      StoreTest.PutAndDeleteColumnInOneMutationLeaveColumnDeleted
  G29    MIN_VERSIONS family (not settable through             TtlStoreTest.MinVersionsKeepsNewestExpiredVersion
         ColumnDescriptor)
  G30    MIN_VERSIONS family, continues G29                    TtlStoreTest.MinVersionsKeepsNewestExpiredVersion
  G38    Thrift2 TScan.limit                                   none found in tests/ (no storage-level scan limit
                                                               test exists; Thrift2 is not served)
  G84    Thrift2 checkAndDelete (Thrift1 checkAndPut ignores   StoreTest.CheckAndDeleteRowRemovesRow
         Mutation.isDelete)
  G86    namespace DDL (createNamespace / deleteNamespace)      CatalogTest.NonEmptyNamespaceCannotBeDeleted
  G87    namespace DDL (deleteNamespace)                       CatalogTest.ReservedNamespacesCannotBeDeleted
  G89    the `ns1:t1` part needs createNamespace; the default- CatalogTest.TablesAreListedByNamespaceThenNameWithoutDefaultPrefix
         namespace part is tested (test_g89)

G85 needs no namespace DDL (createTable of `nsx:t1` with `nsx` missing), so it is tested here
(test_g85); it is also pinned by CatalogTest.CreateTableInMissingNamespaceFails.
"""

import struct
import time
import uuid

import pytest
from thrift.Thrift import TApplicationException

from hbase.ttypes import (BatchMutation, ColumnDescriptor, Mutation, TScan,
                          TThriftServerType)
from hbase.ttypes import IOError as HIOError

import hbcompat
from hbcompat import text

NO_ATTRS = {}
FOREVER = 2147483647  # Integer.MAX_VALUE: HBase's "TTL forever" as Thrift1 reports it


def now_ms():
    return int(time.time() * 1000)


def put(client, table, row, cols, ts=None, attrs=NO_ATTRS):
    muts = [Mutation(column=c, value=v) for c, v in cols.items()]
    if ts is None:
        client.mutateRow(table, row, muts, attrs)
    else:
        client.mutateRowTs(table, row, muts, ts, attrs)


def cells(result):
    return [(c.value, c.timestamp) for c in result]


def drain(client, scanner_id, n=100):
    out = []
    try:
        while True:
            batch = client.scannerGetList(scanner_id, n)
            if not batch:
                return out
            out.extend(batch)
    finally:
        client.scannerClose(scanner_id)


def scan_rows(client, scanner_id):
    return [r.row for r in drain(client, scanner_id)]


def sorted_cells(results):
    """[TRowResult with sortedColumns] -> [(row, column, value, ts)] in wire order."""
    out = []
    for r in results:
        assert r.columns is None
        for c in r.sortedColumns:
            out.append((r.row, c.columnName, c.cell.value, c.cell.timestamp))
    return out


def row_map(results):
    """[TRowResult] -> [(row, {column: (value, ts)})] from the default `columns` map shape."""
    return [(r.row, {k: (v.value, v.timestamp) for k, v in r.columns.items()}) for r in results]


def assert_internal_error(excinfo, method):
    """HBase 2.2+ (libthrift 0.12+): an unchecked Java exception escapes the handler and the client
    sees TApplicationException(INTERNAL_ERROR, "Internal error processing <method>")."""
    assert excinfo.value.type == TApplicationException.INTERNAL_ERROR
    assert text(excinfo.value.message) == "Internal error processing %s" % method


# ============================================================================================
# Versions and ordering


def test_g1_largest_timestamp_wins_not_the_last_write(raw_client, raw_table):
    t = raw_table(maxVersions=1)
    put(raw_client, t, b"r", {b"f:q": b"new"}, ts=200)
    put(raw_client, t, b"r", {b"f:q": b"old"}, ts=100)
    assert cells(raw_client.get(t, b"r", b"f:q", NO_ATTRS)) == [(b"new", 200)]
    assert cells(raw_client.getVer(t, b"r", b"f:q", 10, NO_ATTRS)) == [(b"new", 200)]


def test_g2_same_timestamp_written_twice_returns_only_the_last_write(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    put(raw_client, t, b"r", {b"f:q": b"a"}, ts=100)
    put(raw_client, t, b"r", {b"f:q": b"b"}, ts=100)
    assert cells(raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS)) == [(b"b", 100)]


def test_g3_versions_capped_by_family_versions_newest_first(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    for ts in range(1, 6):
        put(raw_client, t, b"r", {b"f:q": b"v%d" % ts}, ts=ts)
    assert cells(raw_client.getVer(t, b"r", b"f:q", 10, NO_ATTRS)) == [
        (b"v5", 5), (b"v4", 4), (b"v3", 3)]


def _versions_10_20_30(client, t):
    for ts in (10, 20, 30):
        put(client, t, b"r", {b"f:q": b"v%d" % ts}, ts=ts)


def test_g4_default_get_returns_only_the_newest_version(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    _versions_10_20_30(raw_client, t)
    assert cells(raw_client.get(t, b"r", b"f:q", NO_ATTRS)) == [(b"v30", 30)]
    assert row_map(raw_client.getRow(t, b"r", NO_ATTRS)) == [(b"r", {b"f:q": (b"v30", 30)})]


def test_g5_time_range_max_is_exclusive(raw_client, raw_table):
    """G5 asks for [10, 30); Thrift1 has no lower bound, so only the exclusive upper bound is
    expressible: [0, 30) gives the same cells because nothing lies below 10. The inclusive lower
    bound is pinned by VersionedStoreTest.TimeRangeIsHalfOpen."""
    t = raw_table(maxVersions=3)
    _versions_10_20_30(raw_client, t)
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 30, 3, NO_ATTRS)) == [
        (b"v20", 20), (b"v10", 10)]


def test_g6_time_range_filters_before_the_version_limit(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    _versions_10_20_30(raw_client, t)
    # range [0, 25), maxVersions=1 -> @20
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 25, 1, NO_ATTRS)) == [(b"v20", 20)]
    assert row_map(raw_client.getRowTs(t, b"r", 25, NO_ATTRS)) == [(b"r", {b"f:q": (b"v20", 20)})]


def test_g8_getVerTs_excludes_the_given_timestamp(raw_client, raw_table):
    """The Thrift1 IDL comment says "less than or equal"; the HBase handler builds the range
    [0, ts) (ThriftHBaseServiceHandler, docs/hbase-semantics.md#time-ranges). The source wins."""
    t = raw_table(maxVersions=3)
    _versions_10_20_30(raw_client, t)
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 30, 3, NO_ATTRS)) == [
        (b"v20", 20), (b"v10", 10)]
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 31, 3, NO_ATTRS)) == [
        (b"v30", 30), (b"v20", 20), (b"v10", 10)]
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 11, 3, NO_ATTRS)) == [(b"v10", 10)]
    assert cells(raw_client.getVerTs(t, b"r", b"f:q", 10, 3, NO_ATTRS)) == []


def test_g9_cells_ordered_by_family_then_qualifier_empty_qualifier_first(raw_client, raw_table):
    t = raw_table(("f", "g"))
    put(raw_client, t, b"r", {b"g:a": b"ga"}, ts=1)
    put(raw_client, t, b"r", {b"f:b": b"fb"}, ts=1)
    put(raw_client, t, b"r", {b"f:a": b"fa"}, ts=1)
    put(raw_client, t, b"r", {b"f:": b"fe"}, ts=1)
    sid = raw_client.scannerOpenWithScan(t, TScan(startRow=b"r", stopRow=b"r\x00", sortColumns=True),
                                         NO_ATTRS)
    assert sorted_cells(drain(raw_client, sid)) == [
        (b"r", b"f:", b"fe", 1), (b"r", b"f:a", b"fa", 1), (b"r", b"f:b", b"fb", 1),
        (b"r", b"g:a", b"ga", 1)]
    # The flat list<TCell> of `get` follows the same order (no column names on the wire).
    assert cells(raw_client.get(t, b"r", b"f", NO_ATTRS)) == [(b"fe", 1), (b"fa", 1), (b"fb", 1)]
    assert row_map(raw_client.getRow(t, b"r", NO_ATTRS)) == [(b"r", {
        b"f:": (b"fe", 1), b"f:a": (b"fa", 1), b"f:b": (b"fb", 1), b"g:a": (b"ga", 1)})]


def test_g10_rows_scan_in_unsigned_byte_order(raw_client, raw_table):
    t = raw_table()
    rows = [b"\x01", b"a", b"\x7f", b"\x80", b"\xff"]
    for r in (b"\xff", b"a", b"\x80", b"\x01", b"\x7f"):
        put(raw_client, t, r, {b"f:q": b"v"}, ts=1)
    assert scan_rows(raw_client, raw_client.scannerOpen(t, b"", [], NO_ATTRS)) == rows


def test_g11_prefix_row_sorts_before_its_extensions(raw_client, raw_table):
    t = raw_table()
    for r in (b"b", b"a", b"ab", b"a\x00"):
        put(raw_client, t, r, {b"f:q": b"v"}, ts=1)
    assert scan_rows(raw_client, raw_client.scannerOpen(t, b"", [], NO_ATTRS)) == [
        b"a", b"a\x00", b"ab", b"b"]


def test_g12_one_mutation_without_timestamps_gives_all_cells_one_timestamp(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:a": b"1", b"f:b": b"2"})
    got = row_map(raw_client.getRow(t, b"r", NO_ATTRS))
    assert [row for row, _ in got] == [b"r"]
    cols = got[0][1]
    assert set(cols) == {b"f:a", b"f:b"}
    assert cols[b"f:a"][0] == b"1" and cols[b"f:b"][0] == b"2"
    ts_a, ts_b = cols[b"f:a"][1], cols[b"f:b"][1]
    assert ts_a == ts_b
    assert 0 < ts_a < 2 ** 63 - 1  # a server time, not LATEST_TIMESTAMP


# ============================================================================================
# Deletes


def test_g13_delete_column_with_ts_removes_versions_up_to_and_including_ts(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    _versions_10_20_30(raw_client, t)
    raw_client.deleteAllTs(t, b"r", b"f:q", 20, NO_ATTRS)
    assert cells(raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS)) == [(b"v30", 30)]


def test_g17_delete_family_with_ts_masks_older_cells_of_every_column(raw_client, raw_table):
    t = raw_table(("f", "g"), maxVersions=3)
    put(raw_client, t, b"r", {b"f:a": b"a10"}, ts=10)
    put(raw_client, t, b"r", {b"f:a": b"a30"}, ts=30)
    put(raw_client, t, b"r", {b"f:b": b"b20"}, ts=20)
    put(raw_client, t, b"r", {b"g:c": b"c5"}, ts=5)
    raw_client.deleteAllTs(t, b"r", b"f", 20, NO_ATTRS)
    assert cells(raw_client.getVer(t, b"r", b"f:a", 3, NO_ATTRS)) == [(b"a30", 30)]
    assert cells(raw_client.getVer(t, b"r", b"f:b", 3, NO_ATTRS)) == []
    assert cells(raw_client.getVer(t, b"r", b"f", 3, NO_ATTRS)) == [(b"a30", 30)]
    assert cells(raw_client.getVer(t, b"r", b"g:c", 3, NO_ATTRS)) == [(b"c5", 5)]
    assert row_map(raw_client.getRow(t, b"r", NO_ATTRS)) == [
        (b"r", {b"f:a": (b"a30", 30), b"g:c": (b"c5", 5)})]


def test_g19_row_delete_with_ts_covers_every_family(raw_client, raw_table):
    t = raw_table(("f", "g"), maxVersions=3)
    put(raw_client, t, b"r", {b"f:a": b"a500"}, ts=500)
    put(raw_client, t, b"r", {b"f:a": b"a1500"}, ts=1500)
    put(raw_client, t, b"r", {b"g:b": b"b700"}, ts=700)
    raw_client.deleteAllRowTs(t, b"r", 1000, NO_ATTRS)
    assert cells(raw_client.getVer(t, b"r", b"f:a", 3, NO_ATTRS)) == [(b"a1500", 1500)]
    assert cells(raw_client.getVer(t, b"r", b"g:b", 3, NO_ATTRS)) == []
    assert row_map(raw_client.getRow(t, b"r", NO_ATTRS)) == [(b"r", {b"f:a": (b"a1500", 1500)})]


def test_g20_delete_column_masks_later_put_with_older_timestamp(raw_client, raw_table):
    t = raw_table()
    raw_client.deleteAllTs(t, b"r", b"f:q", 1000, NO_ATTRS)
    put(raw_client, t, b"r", {b"f:q": b"late"}, ts=900)  # succeeds silently
    assert raw_client.get(t, b"r", b"f:q", NO_ATTRS) == []
    assert raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS) == []
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []


def test_g21_put_newer_than_the_delete_marker_is_visible(raw_client, raw_table):
    t = raw_table()
    raw_client.deleteAllTs(t, b"r", b"f:q", 1000, NO_ATTRS)
    put(raw_client, t, b"r", {b"f:q": b"late"}, ts=900)
    put(raw_client, t, b"r", {b"f:q": b"new"}, ts=1001)
    assert cells(raw_client.get(t, b"r", b"f:q", NO_ATTRS)) == [(b"new", 1001)]
    assert cells(raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS)) == [(b"new", 1001)]


def test_g24_time_range_read_ending_before_the_marker_stays_masked(raw_client, raw_table):
    """KEEP_DELETED_CELLS=FALSE (the only setting Thrift1 can create): a marker at or after the
    range min applies, so [0, 150) does not see behind the DeleteColumn at 200."""
    t = raw_table(maxVersions=3)
    put(raw_client, t, b"r", {b"f:q": b"a"}, ts=100)
    raw_client.deleteAllTs(t, b"r", b"f:q", 200, NO_ATTRS)
    assert raw_client.getVerTs(t, b"r", b"f:q", 150, 3, NO_ATTRS) == []
    assert raw_client.getRowTs(t, b"r", 150, NO_ATTRS) == []
    assert raw_client.get(t, b"r", b"f:q", NO_ATTRS) == []


def test_g25_deleting_a_missing_row_succeeds(raw_client, raw_table):
    t = raw_table()
    raw_client.deleteAllRow(t, b"zz", NO_ATTRS)
    raw_client.deleteAllRowTs(t, b"zz", 1000, NO_ATTRS)
    raw_client.deleteAll(t, b"zz", b"f:q", NO_ATTRS)
    assert raw_client.getRow(t, b"zz", NO_ATTRS) == []


def test_g26_mutateRows_applies_puts_before_deletes(raw_client, raw_table):
    t = raw_table()
    raw_client.mutateRows(t, [BatchMutation(b"r", [Mutation(column=b"f:a", value=b"x"),
                                                   Mutation(isDelete=True, column=b"f:a")])],
                          NO_ATTRS)
    assert raw_client.get(t, b"r", b"f:a", NO_ATTRS) == []
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []


# ============================================================================================
# TTL


def test_g27_cell_older_than_family_ttl_is_expired_at_write_time(raw_client, raw_table):
    t = raw_table(timeToLive=3600)
    put(raw_client, t, b"r", {b"f:q": b"old"}, ts=now_ms() - 7200000)
    assert raw_client.get(t, b"r", b"f:q", NO_ATTRS) == []
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []


def test_g28_cell_within_family_ttl_is_visible(raw_client, raw_table):
    t = raw_table(timeToLive=3600)
    ts = now_ms() - 1800000
    put(raw_client, t, b"r", {b"f:q": b"ok"}, ts=ts)
    assert cells(raw_client.get(t, b"r", b"f:q", NO_ATTRS)) == [(b"ok", ts)]


def test_g31_cell_ttl_attribute_expires_the_cell(raw_client, raw_table):
    """[code-read] The Thrift1 handler copies `attributes` onto the Put; Mutation.getTTL reads
    `_ttl` as an 8-byte big-endian long (ms); the cell expires when ts + ttl < now. Row r2 is a
    control with a one-hour cell TTL, so the test cannot pass merely because the put was lost."""
    t = raw_table()  # TTL forever
    ts = now_ms() - 5000
    put(raw_client, t, b"r", {b"f:q": b"x"}, ts=ts, attrs={b"_ttl": struct.pack(">q", 1000)})
    put(raw_client, t, b"r2", {b"f:q": b"y"}, ts=ts, attrs={b"_ttl": struct.pack(">q", 3600000)})
    assert raw_client.get(t, b"r", b"f:q", NO_ATTRS) == []
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []
    assert cells(raw_client.get(t, b"r2", b"f:q", NO_ATTRS)) == [(b"y", ts)]


# ============================================================================================
# Scans and column selection

SCAN_ROWS = [b"a", b"b", b"b1", b"ba", b"c", b"d"]


def _scan_table(client, raw_table):
    t = raw_table()
    for r in (b"d", b"ba", b"a", b"c", b"b1", b"b"):
        put(client, t, r, {b"f:q": b"v-" + r}, ts=1)
    return t


def test_g32_scan_start_inclusive_stop_exclusive(raw_client, raw_table):
    t = _scan_table(raw_client, raw_table)
    assert scan_rows(raw_client, raw_client.scannerOpenWithStop(t, b"b", b"c", [], NO_ATTRS)) == [
        b"b", b"b1", b"ba"]
    sid = raw_client.scannerOpenWithScan(t, TScan(startRow=b"b", stopRow=b"c"), NO_ATTRS)
    assert scan_rows(raw_client, sid) == [b"b", b"b1", b"ba"]


def test_g33_scan_from_absent_start_row_to_empty_stop(raw_client, raw_table):
    t = _scan_table(raw_client, raw_table)
    assert scan_rows(raw_client, raw_client.scannerOpen(t, b"bb", [], NO_ATTRS)) == [b"c", b"d"]
    assert scan_rows(raw_client, raw_client.scannerOpenWithStop(t, b"bb", b"", [], NO_ATTRS)) == [
        b"c", b"d"]


def test_g34_scan_with_empty_start_and_stop_returns_all_rows(raw_client, raw_table):
    t = _scan_table(raw_client, raw_table)
    assert scan_rows(raw_client, raw_client.scannerOpen(t, b"", [], NO_ATTRS)) == SCAN_ROWS
    assert scan_rows(raw_client, raw_client.scannerOpenWithStop(t, b"", b"", [], NO_ATTRS)) == SCAN_ROWS
    assert scan_rows(raw_client, raw_client.scannerOpenWithScan(t, TScan(), NO_ATTRS)) == SCAN_ROWS


def test_g35_reversed_scan_start_is_the_larger_key_stop_exclusive(raw_client, raw_table):
    t = _scan_table(raw_client, raw_table)
    rev = lambda **kw: scan_rows(raw_client, raw_client.scannerOpenWithScan(
        t, TScan(reversed=True, **kw), NO_ATTRS))
    assert rev(startRow=b"c", stopRow=b"b") == [b"c", b"ba", b"b1"]
    assert rev() == [b"d", b"c", b"ba", b"b1", b"b", b"a"]
    assert rev(startRow=b"", stopRow=b"") == [b"d", b"c", b"ba", b"b1", b"b", b"a"]
    assert rev(startRow=b"b1") == [b"b1", b"b", b"a"]
    assert rev(startRow=b"b1", stopRow=b"") == [b"b1", b"b", b"a"]


def test_g36_scannerOpenWithPrefix_returns_rows_with_the_prefix(raw_client, raw_table):
    t = _scan_table(raw_client, raw_table)
    assert scan_rows(raw_client, raw_client.scannerOpenWithPrefix(t, b"b", [], NO_ATTRS)) == [
        b"b", b"b1", b"ba"]


def test_g37_scan_batch_splits_a_wide_row_into_pieces_with_the_same_key(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:c%d" % i: b"v%d" % i for i in range(1, 6)}, ts=1)
    sid = raw_client.scannerOpenWithScan(t, TScan(batchSize=2, sortColumns=True), NO_ATTRS)
    pieces = drain(raw_client, sid)
    assert [r.row for r in pieces] == [b"r", b"r", b"r"]
    assert [[c.columnName for c in r.sortedColumns] for r in pieces] == [
        [b"f:c1", b"f:c2"], [b"f:c3", b"f:c4"], [b"f:c5"]]
    # Same split with the default `columns` map shape.
    sid = raw_client.scannerOpenWithScan(t, TScan(batchSize=2), NO_ATTRS)
    assert [sorted(r.columns) for r in drain(raw_client, sid)] == [
        [b"f:c1", b"f:c2"], [b"f:c3", b"f:c4"], [b"f:c5"]]


def test_g39_family_then_column_selects_only_the_column_column_then_family_all(raw_client,
                                                                                raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:a": b"x", b"f:b": b"y"}, ts=1)
    get = lambda cols: row_map(raw_client.getRowWithColumns(t, b"r", cols, NO_ATTRS))
    assert get([b"f", b"f:a"]) == [(b"r", {b"f:a": (b"x", 1)})]
    assert get([b"f:a", b"f"]) == [(b"r", {b"f:a": (b"x", 1), b"f:b": (b"y", 1)})]
    scan = lambda cols: row_map(drain(raw_client, raw_client.scannerOpen(t, b"", cols, NO_ATTRS)))
    assert scan([b"f", b"f:a"]) == [(b"r", {b"f:a": (b"x", 1)})]
    assert scan([b"f:a", b"f"]) == [(b"r", {b"f:a": (b"x", 1), b"f:b": (b"y", 1)})]


def test_g40_trailing_colon_is_the_empty_qualifier_bare_family_is_all(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:": b"e-old", b"f:a": b"x-old"}, ts=1)
    put(raw_client, t, b"r", {b"f:": b"e", b"f:a": b"x"}, ts=2)
    assert cells(raw_client.get(t, b"r", b"f:", NO_ATTRS)) == [(b"e", 2)]
    assert cells(raw_client.get(t, b"r", b"f", NO_ATTRS)) == [(b"e", 2), (b"x", 2)]


def test_g41_scan_skips_rows_without_the_selected_column(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r1", {b"f:a": b"1"}, ts=1)
    put(raw_client, t, b"r2", {b"f:b": b"2"}, ts=1)
    assert row_map(drain(raw_client, raw_client.scannerOpen(t, b"", [b"f:a"], NO_ATTRS))) == [
        (b"r1", {b"f:a": (b"1", 1)})]


def test_g42_get_of_a_missing_row_is_empty_not_an_error(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:q": b"v"}, ts=1)
    assert raw_client.get(t, b"zz", b"f:q", NO_ATTRS) == []
    assert raw_client.getRow(t, b"zz", NO_ATTRS) == []
    assert raw_client.getRowWithColumns(t, b"zz", [b"f"], NO_ATTRS) == []


def test_g43_unknown_family_raises_IOError_NoSuchColumnFamilyException(raw_client, raw_table):
    """NoSuchColumnFamilyException is a DoNotRetryIOException, so canRetry is false
    (docs/thrift-api.md#thrift1-errors)."""
    t = raw_table()
    put(raw_client, t, b"r", {b"f:q": b"v"}, ts=1)
    calls = [
        lambda: raw_client.get(t, b"r", b"x:q", NO_ATTRS),
        lambda: raw_client.getRowWithColumns(t, b"r", [b"x"], NO_ATTRS),
        lambda: raw_client.mutateRow(t, b"r", [Mutation(column=b"x:q", value=b"v")], NO_ATTRS),
    ]
    for call in calls:
        with pytest.raises(HIOError) as err:
            call()
        assert "NoSuchColumnFamilyException" in text(err.value.message)
        assert err.value.canRetry is False
    assert row_map(raw_client.getRow(t, b"r", NO_ATTRS)) == [(b"r", {b"f:q": (b"v", 1)})]


# ============================================================================================
# Increment, append, check-and-put


def test_g75_increment_of_absent_column_returns_amount_as_8_byte_long(raw_client, raw_table):
    t = raw_table()
    assert raw_client.atomicIncrement(t, b"r", b"f:c", 5) == 5
    assert [c.value for c in raw_client.get(t, b"r", b"f:c", NO_ATTRS)] == [
        b"\x00\x00\x00\x00\x00\x00\x00\x05"]


def test_g76_increment_by_negative_amount(raw_client, raw_table):
    t = raw_table()
    assert raw_client.atomicIncrement(t, b"r", b"f:c", 5) == 5
    assert raw_client.atomicIncrement(t, b"r", b"f:c", -7) == -2
    assert [c.value for c in raw_client.get(t, b"r", b"f:c", NO_ATTRS)] == [
        b"\xff\xff\xff\xff\xff\xff\xff\xfe"]


def test_g77_increment_of_a_non_8_byte_value_fails_and_leaves_it(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:c": b"10"}, ts=1)
    with pytest.raises(HIOError) as err:
        raw_client.atomicIncrement(t, b"r", b"f:c", 1)
    assert "Field is not a long, it's 2 bytes wide" in text(err.value.message)
    assert err.value.canRetry is False  # DoNotRetryIOException
    assert cells(raw_client.getVer(t, b"r", b"f:c", 3, NO_ATTRS)) == [(b"10", 1)]


def test_g78_increment_overflow_wraps_silently(raw_client, raw_table):
    t = raw_table()
    put(raw_client, t, b"r", {b"f:c": b"\x7f\xff\xff\xff\xff\xff\xff\xff"}, ts=1)
    assert raw_client.atomicIncrement(t, b"r", b"f:c", 1) == -9223372036854775808
    assert [c.value for c in raw_client.get(t, b"r", b"f:c", NO_ATTRS)] == [
        b"\x80\x00\x00\x00\x00\x00\x00\x00"]


def test_g79_increment_of_future_cell_writes_at_old_ts_plus_one(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    future = now_ms() + 10 ** 9
    put(raw_client, t, b"r", {b"f:c": struct.pack(">q", 5)}, ts=future)
    assert raw_client.atomicIncrement(t, b"r", b"f:c", 1) == 6
    assert cells(raw_client.get(t, b"r", b"f:c", NO_ATTRS)) == [(struct.pack(">q", 6), future + 1)]
    assert cells(raw_client.getVer(t, b"r", b"f:c", 3, NO_ATTRS)) == [
        (struct.pack(">q", 6), future + 1), (struct.pack(">q", 5), future)]


def test_g80_append_to_absent_and_existing_values(raw_client, raw_table):
    from hbase.ttypes import TAppend

    t = raw_table()
    got = raw_client.append(TAppend(table=t, row=b"r", columns=[b"f:s"], values=[b"cd"]))
    assert [c.value for c in got] == [b"cd"]
    assert cells(raw_client.get(t, b"r", b"f:s", NO_ATTRS)) == cells(got)

    put(raw_client, t, b"r2", {b"f:s": b"ab"}, ts=1)
    got = raw_client.append(TAppend(table=t, row=b"r2", columns=[b"f:s"], values=[b"cd"]))
    assert [c.value for c in got] == [b"abcd"]
    assert got[0].timestamp > 1
    assert cells(raw_client.get(t, b"r2", b"f:s", NO_ATTRS)) == cells(got)


def test_g81_checkAndPut_with_unset_value_applies_only_while_absent(raw_client, raw_table):
    t = raw_table()
    assert raw_client.checkAndPut(t, b"r", b"f:q", None, Mutation(column=b"f:q", value=b"x"),
                                  NO_ATTRS) is True
    assert raw_client.checkAndPut(t, b"r", b"f:q", None, Mutation(column=b"f:q", value=b"y"),
                                  NO_ATTRS) is False
    assert [c.value for c in raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS)] == [b"x"]


def test_g82_checkAndPut_compares_only_the_newest_version(raw_client, raw_table):
    t = raw_table(maxVersions=3)
    put(raw_client, t, b"r", {b"f:q": b"a"}, ts=1)
    put(raw_client, t, b"r", {b"f:q": b"b"}, ts=2)
    assert raw_client.checkAndPut(t, b"r", b"f:q", b"a", Mutation(column=b"f:q", value=b"new-a"),
                                  NO_ATTRS) is False
    assert cells(raw_client.get(t, b"r", b"f:q", NO_ATTRS)) == [(b"b", 2)]
    assert raw_client.checkAndPut(t, b"r", b"f:q", b"b", Mutation(column=b"f:q", value=b"new-b"),
                                  NO_ATTRS) is True
    assert [c.value for c in raw_client.getVer(t, b"r", b"f:q", 3, NO_ATTRS)] == [
        b"new-b", b"b", b"a"]


def test_g83_checkAndPut_with_unset_value_matches_a_stored_empty_value(raw_client, raw_table):
    """HBase's Thrift1 handler reads as if an unset value passed "only if the column does not
    exist", but HRegion.checkAndMutate treats a null expected value as empty, and an empty stored
    value then matches under EQUAL (docs/hbase-semantics.md#check-and-mutate): true, as G83 says."""
    t = raw_table()
    put(raw_client, t, b"r", {b"f:q": b""}, ts=1)
    assert raw_client.checkAndPut(t, b"r", b"f:q", None, Mutation(column=b"f:q", value=b"x"),
                                  NO_ATTRS) is True
    assert [c.value for c in raw_client.get(t, b"r", b"f:q", NO_ATTRS)] == [b"x"]


# ============================================================================================
# Namespaces and tables


def _drop(client, name):
    try:
        if client.isTableEnabled(name):
            client.disableTable(name)
        client.deleteTable(name)
    except Exception:
        pass


def test_g85_create_table_in_missing_namespace_raises_NamespaceNotFoundException(raw_client):
    """Expressible through Thrift1 createTable (no namespace DDL needed). NamespaceNotFoundException
    is a DoNotRetryIOException: IOError canRetry=false (docs/thrift-api.md#thrift1-errors)."""
    ns = "nsx%s" % uuid.uuid4().hex[:8]
    name = ("%s:t1" % ns).encode()
    with pytest.raises(HIOError) as err:
        raw_client.createTable(name, [ColumnDescriptor(name=b"f:")])
    assert "NamespaceNotFoundException" in text(err.value.message)
    assert err.value.canRetry is False
    assert name not in raw_client.getTableNames()


def test_g88_table_name_rules(raw_client):
    """An illegal table name fails in TableName.valueOf before createTable's try block, so the
    client sees TApplicationException INTERNAL_ERROR, not IllegalArgument
    (docs/hbase-semantics.md#namespaces-and-table-names, docs/thrift-api.md#thrift1-errors). The
    legal name gets a unique suffix of the same legal characters so that reruns against a shared
    server do not collide."""
    good = ("a-b.c_1_%s" % uuid.uuid4().hex[:8]).encode()
    try:
        raw_client.createTable(good, [ColumnDescriptor(name=b"f:")])
        assert good in raw_client.getTableNames()
        put(raw_client, good, b"r", {b"f:q": b"v"}, ts=1)
        assert cells(raw_client.get(good, b"r", b"f:q", NO_ATTRS)) == [(b"v", 1)]
    finally:
        _drop(raw_client, good)
    for bad in (b"-a", b".a", b"a b", b"a$b", b"ns-1:t"):
        with pytest.raises(TApplicationException) as err:
            raw_client.createTable(bad, [ColumnDescriptor(name=b"f:")])
        assert_internal_error(err, "createTable")
        assert raw_client.getThriftServerType() == TThriftServerType.ONE  # connection still usable
        assert bad not in raw_client.getTableNames()


def test_g89_getTableNames_lists_default_namespace_tables_without_prefix(raw_client):
    """Only the default-namespace part: `ns1:t1` would need createNamespace, which Thrift1 lacks
    (pinned by CatalogTest.TablesAreListedByNamespaceThenNameWithoutDefaultPrefix)."""
    t2 = hbcompat.unique_table_name("t2").encode()
    t3 = hbcompat.unique_table_name("t3").encode()
    try:
        raw_client.createTable(t2, [ColumnDescriptor(name=b"f:")])
        raw_client.createTable(b"default:" + t3, [ColumnDescriptor(name=b"f:")])
        names = raw_client.getTableNames()
        assert t2 in names
        assert t3 in names
        assert b"default:" + t3 not in names
        assert not [n for n in names if n.startswith(b"default:")]
        assert b"hbase:meta" not in names
        assert not [n for n in names if n.startswith(b"hbase:")]
    finally:
        _drop(raw_client, t2)
        _drop(raw_client, t3)


def test_g90_thrift1_default_column_descriptor_is_3_versions_ttl_forever(raw_client, raw_table):
    t = raw_table()  # ColumnDescriptor(name=b"f:") with IDL defaults
    descs = raw_client.getColumnDescriptors(t)
    assert list(descs) == [b"f:"]
    assert descs[b"f:"] == ColumnDescriptor(name=b"f:", maxVersions=3, compression="NONE",
                                            inMemory=False, bloomFilterType="NONE",
                                            bloomFilterVectorSize=0, bloomFilterNbHashes=0,
                                            blockCacheEnabled=False, timeToLive=FOREVER)
    # Behaviour matches the descriptor: 3 versions kept, a very old cell never expires.
    for ts in (1, 2, 3, 4):
        put(raw_client, t, b"r", {b"f:q": b"v%d" % ts}, ts=ts)
    assert cells(raw_client.getVer(t, b"r", b"f:q", 10, NO_ATTRS)) == [
        (b"v4", 4), (b"v3", 3), (b"v2", 2)]
