"""Scanners as HBase 2.6.1's gateways run them, on both services: the HBase client opens its region
scanner at the first fetch that asks for rows, so opening never fails for a missing table or
family, a fetch of 0 rows never fails, and a scanner sees the writes made before its first fetch.
Each test passes against the oracle (HBASE_THRIFT_TARGET/HBASE_THRIFT2_TARGET).
"""

import pytest
from thrift.Thrift import TApplicationException

from hbase.ttypes import IOError as T1IOError
from hbase.ttypes import TScan as T1Scan
from hbase2.ttypes import TColumn, TColumnValue, TIOError, TPut, TScan

NO_ATTRS = {}


def put_of(row, value=b"1"):
    return TPut(row=row, columnValues=[TColumnValue(b"f", b"q", value)])


def rows_of(results):
    return [r.row for r in results]


def test_thrift2_openScanner_on_a_missing_table_fails_at_the_first_fetch_of_rows(thrift2_client):
    missing = b"scanner_fidelity_missing"
    scanner = thrift2_client.openScanner(missing, TScan())
    try:
        assert thrift2_client.getScannerRows(scanner, 0) == []
        for _ in range(2):  # every later fetch tries to open it again
            with pytest.raises(TIOError) as failure:
                thrift2_client.getScannerRows(scanner, 1)
            assert failure.value.message.splitlines()[0] == missing.decode()
    finally:
        thrift2_client.closeScanner(scanner)


def test_thrift2_getScannerResults_of_0_rows_checks_only_the_request(thrift2_client, thrift2_table):
    t = thrift2_table()
    assert thrift2_client.getScannerResults(b"scanner_fidelity_missing", TScan(), 0) == []
    assert thrift2_client.getScannerResults(t, TScan(columns=[TColumn(b"nf")]), 0) == []
    # The request is still converted first: a filter that does not parse fails the call.
    with pytest.raises(TApplicationException) as failure:
        thrift2_client.getScannerResults(t, TScan(filterString=b"Nonsense(("), 0)
    assert failure.value.type == TApplicationException.INTERNAL_ERROR
    with pytest.raises(TApplicationException):
        thrift2_client.getScannerResults(t, TScan(), -1)


def test_thrift2_a_missing_family_fails_at_the_first_fetch_of_rows(thrift2_client, thrift2_table):
    t = thrift2_table()
    scanner = thrift2_client.openScanner(t, TScan(columns=[TColumn(b"nf")]))
    try:
        assert thrift2_client.getScannerRows(scanner, 0) == []
        with pytest.raises(TIOError) as failure:
            thrift2_client.getScannerRows(scanner, 1)
        assert failure.value.message.startswith(
            "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nf ")
    finally:
        thrift2_client.closeScanner(scanner)


def test_thrift2_a_scanner_sees_the_writes_made_before_its_first_fetch_of_rows(thrift2_client,
                                                                               thrift2_table):
    t = thrift2_table()
    scanner = thrift2_client.openScanner(t, TScan())
    try:
        thrift2_client.put(t, put_of(b"a"))
        assert thrift2_client.getScannerRows(scanner, 0) == []  # opens nothing
        thrift2_client.put(t, put_of(b"b"))
        assert rows_of(thrift2_client.getScannerRows(scanner, 1)) == [b"a"]
        # Open now: a later write is past its read point.
        thrift2_client.put(t, put_of(b"c"))
        assert rows_of(thrift2_client.getScannerRows(scanner, 10)) == [b"b"]
    finally:
        thrift2_client.closeScanner(scanner)


def test_thrift2_a_scan_of_0_or_fewer_versions_returns_no_rows(thrift2_client, thrift2_table):
    t = thrift2_table()
    thrift2_client.put(t, put_of(b"a"))
    for versions in (0, -1):
        assert thrift2_client.getScannerResults(t, TScan(maxVersions=versions), 10) == []


def test_thrift2_a_batch_piece_is_partial_only_if_HBase_peeks_at_a_later_cell_of_its_row(
        thrift2_client, thrift2_table):
    """HBase's region server marks a piece that fills the batch partial when the next cell its
    store scanner stands on is of the same row. With named columns, a column that has all its
    versions makes it seek to the next named column, or past the row after the last one. The
    client drops the mark when the scan ends with that row."""
    t = thrift2_table(maxVersions=3)

    def cells(*pairs):
        return [TColumnValue(b"f", q, b"v", timestamp=ts) for q, ts in pairs]

    thrift2_client.put(t, TPut(row=b"a", columnValues=cells((b"q1", 5), (b"q2", 5), (b"q3", 5))))
    thrift2_client.put(t, TPut(row=b"b", columnValues=cells((b"q1", 5), (b"q2", 5), (b"q2", 4))))
    thrift2_client.put(t, TPut(row=b"c", columnValues=cells((b"q1", 5))))

    def pieces(columns, batch, versions=1, **scan):
        scan = TScan(batchSize=batch, maxVersions=versions,
                     columns=[TColumn(b"f", q) for q in columns], **scan)
        return [(r.row, len(r.columnValues), r.partial)
                for r in thrift2_client.getScannerResults(t, scan, 100)]

    # The last named column is done: the scanner seeks past the row, whatever follows in it.
    assert pieces([b"q1", b"q2"], 2) == [(b"a", 2, False), (b"b", 2, False), (b"c", 1, False)]
    # q1 is done: the seek to q3 lands on a cell of row a, and past row b, which has none.
    assert pieces([b"q1", b"q3"], 1) == [(b"a", 1, True), (b"a", 1, False), (b"b", 1, False),
                                         (b"c", 1, False)]
    # q2 may have more versions: the scanner steps to the next stored cell (q3, q2@4).
    assert pieces([b"q1", b"q2"], 2, versions=2) == [(b"a", 2, True), (b"b", 2, True),
                                                     (b"b", 1, False), (b"c", 1, False)]
    # Without named columns, any later stored cell of the row is stepped onto (q2@4 of b)...
    assert pieces([], 2) == [(b"a", 2, True), (b"a", 1, False), (b"b", 2, True), (b"c", 1, False)]
    # ...unless the scan ends with the row.
    assert pieces([], 2, stopRow=b"c") == [(b"a", 2, True), (b"a", 1, False), (b"b", 2, False)]
    assert pieces([], 2, reversed=True, startRow=b"b", stopRow=b"a") == [(b"b", 2, False)]


@pytest.mark.parametrize("opener", ["scannerOpen", "scannerOpenWithStop", "scannerOpenWithPrefix",
                                    "scannerOpenTs", "scannerOpenWithScan"])
def test_thrift1_scanners_on_a_missing_table_fail_at_the_first_fetch_of_rows(raw_client, opener):
    missing = b"scanner_fidelity_missing"
    open_call = {
        "scannerOpen": lambda: raw_client.scannerOpen(missing, b"", [], NO_ATTRS),
        "scannerOpenWithStop": lambda: raw_client.scannerOpenWithStop(missing, b"", b"z", [],
                                                                      NO_ATTRS),
        "scannerOpenWithPrefix": lambda: raw_client.scannerOpenWithPrefix(missing, b"a", [],
                                                                          NO_ATTRS),
        "scannerOpenTs": lambda: raw_client.scannerOpenTs(missing, b"", [], 5, NO_ATTRS),
        "scannerOpenWithScan": lambda: raw_client.scannerOpenWithScan(missing, T1Scan(), NO_ATTRS),
    }[opener]
    scanner = open_call()
    try:
        assert raw_client.scannerGetList(scanner, 0) == []
        for _ in range(2):
            with pytest.raises(T1IOError) as failure:
                raw_client.scannerGet(scanner)
            assert failure.value.message.splitlines()[0] == (
                "org.apache.hadoop.hbase.TableNotFoundException: " + missing.decode())
    finally:
        raw_client.scannerClose(scanner)


def test_thrift1_a_scanner_sees_the_writes_made_before_its_first_fetch_of_rows(raw_client,
                                                                               raw_table):
    from hbase.ttypes import Mutation

    t = raw_table()
    scanner = raw_client.scannerOpen(t, b"", [], NO_ATTRS)
    try:
        raw_client.mutateRow(t, b"a", [Mutation(column=b"f:q", value=b"1")], NO_ATTRS)
        assert raw_client.scannerGetList(scanner, 0) == []
        assert [r.row for r in raw_client.scannerGetList(scanner, 1)] == [b"a"]
        raw_client.mutateRow(t, b"b", [Mutation(column=b"f:q", value=b"1")], NO_ATTRS)
        assert raw_client.scannerGetList(scanner, 10) == []
    finally:
        raw_client.scannerClose(scanner)


def test_thrift2_an_explicit_limit_of_0_ends_the_scan_with_the_first_region_it_reads(
        thrift2_client, thrift2_table):
    t = thrift2_table(split_keys=[b"r2", b"r4"])
    for row in (b"r1", b"r3"):
        thrift2_client.put(t, put_of(row))

    def rows(**scan):
        return rows_of(thrift2_client.getScannerResults(t, TScan(**scan), 10))

    assert rows(limit=0) == [b"r1"]
    assert rows(limit=0, startRow=b"r2") == [b"r3"]
    assert rows(limit=0, reversed=True) == []  # the last region is empty
    assert rows(limit=0, reversed=True, startRow=b"r3") == [b"r3"]
    assert rows(limit=-1) == [b"r1", b"r3"]  # no limit
    assert rows() == [b"r1", b"r3"]
    scanner = thrift2_client.openScanner(t, TScan(limit=0))
    try:
        assert rows_of(thrift2_client.getScannerRows(scanner, 10)) == [b"r1"]
    finally:
        thrift2_client.closeScanner(scanner)


def test_thrift2_a_filter_that_ends_the_scan_ends_only_its_region(thrift2_client, thrift2_table):
    """HBase runs a scan region by region, each with a fresh copy of the filter: PageFilter's
    count, and WHILE, end one region's part only."""
    t = thrift2_table(split_keys=[b"r2", b"r4"])
    for row in (b"r1", b"r1b", b"r3", b"r3b", b"r5", b"r5b"):
        thrift2_client.put(t, put_of(row))

    def rows(filter_string, **scan):
        return rows_of(thrift2_client.getScannerResults(
            t, TScan(filterString=filter_string, **scan), 20))

    assert rows(b"PageFilter(1)") == [b"r1", b"r3", b"r5"]
    assert rows(b"PageFilter(1)", reversed=True) == [b"r5b", b"r3b", b"r1b"]
    assert rows(b"PageFilter(2)", startRow=b"r3b") == [b"r3b", b"r5", b"r5b"]
    assert rows(b"WHILE PageFilter(1)", startRow=b"r3b") == [b"r3b", b"r5"]
    assert rows(b"PageFilter(1) AND PrefixFilter('r')", reversed=True, startRow=b"r3") == [
        b"r3", b"r1b"]
