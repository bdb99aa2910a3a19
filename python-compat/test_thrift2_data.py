"""Thrift2 (THBaseService) data calls through the wire, with a client generated from our IDL
(thrift/THBaseService.thrift), in three wire modes against the server's Thrift2 port.

Each expectation is HBase 2.6's thrift2 gateway behaviour (shared/THRIFT_API.md section 3.3).
"""

import struct

import pytest
from thrift.Thrift import TApplicationException

from hbase2.ttypes import (TColumn, TColumnIncrement, TColumnValue, TCompareOp, TDelete,
                           TDeleteType, TGet, TIllegalArgument, TIncrement, TIOError, TMutation,
                           TPut, TRowMutations, TScan, TTimeRange, TAppend)


def put(client, table, row, cells, ts=None):
    """cells: {(family, qualifier): value} or [(family, qualifier, value, ts)]."""
    if isinstance(cells, dict):
        values = [TColumnValue(family=f, qualifier=q, value=v) for (f, q), v in cells.items()]
    else:
        values = [TColumnValue(family=f, qualifier=q, value=v, timestamp=t) for f, q, v, t in cells]
    client.put(table, TPut(row=row, columnValues=values, timestamp=ts))


def cells_of(result):
    return [(c.family, c.qualifier, c.value) for c in result.columnValues]


def test_server_type_is_TWO_on_the_thrift2_port_and_ONE_on_the_thrift1_port(thrift2_client,
                                                                             raw_client):
    assert thrift2_client.getThriftServerType() == 2
    assert raw_client.getThriftServerType() == 1


def test_cluster_id_is_the_same_through_both_services(thrift2_client, raw_client):
    assert thrift2_client.getClusterId() == raw_client.getClusterId()
    assert len(thrift2_client.getClusterId()) == 36


def test_put_then_get_returns_every_field_of_TResult(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r1", [(b"f", b"a", b"v1", 5)])
    r = thrift2_client.get(t, TGet(row=b"r1"))
    assert r.row == b"r1"
    assert r.stale is False and r.partial is False
    (cv,) = r.columnValues
    assert (cv.family, cv.qualifier, cv.value, cv.timestamp, cv.type) == (b"f", b"a", b"v1", 5, 4)
    assert cv.tags is None


def test_missing_row_gives_a_TResult_without_row_and_with_empty_columnValues(thrift2_client,
                                                                             thrift2_table):
    t = thrift2_table()
    r = thrift2_client.get(t, TGet(row=b"nothing"))
    assert r.row is None
    assert r.columnValues == []
    assert r.stale is False and r.partial is False


def test_get_timestamp_is_an_exact_match_and_wins_over_timeRange(thrift2_client, thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"one", 1), (b"f", b"a", b"two", 2),
                                  (b"f", b"a", b"three", 3)])
    r = thrift2_client.get(t, TGet(row=b"r", timestamp=2, timeRange=TTimeRange(0, 10)))
    assert cells_of(r) == [(b"f", b"a", b"two")]
    r = thrift2_client.get(t, TGet(row=b"r", timeRange=TTimeRange(1, 3), maxVersions=5))
    assert [c.value for c in r.columnValues] == [b"two", b"one"]


def test_get_maxVersions_returns_newest_first_and_nonpositive_is_a_TIOError(thrift2_client,
                                                                            thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"%d" % i, i) for i in range(1, 5)])
    assert [c.value for c in thrift2_client.get(t, TGet(row=b"r", maxVersions=3)).columnValues] \
        == [b"4", b"3", b"2"]
    assert [c.value for c in thrift2_client.get(t, TGet(row=b"r")).columnValues] == [b"4"]
    with pytest.raises(TIOError):
        thrift2_client.get(t, TGet(row=b"r", maxVersions=0))


def test_get_columns_family_only_or_one_qualifier(thrift2_client, thrift2_table):
    t = thrift2_table(families=("f", "g"))
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"1", (b"f", b"b"): b"2", (b"g", b"c"): b"3"})
    r = thrift2_client.get(t, TGet(row=b"r", columns=[TColumn(family=b"f")]))
    assert cells_of(r) == [(b"f", b"a", b"1"), (b"f", b"b", b"2")]
    r = thrift2_client.get(t, TGet(row=b"r", columns=[TColumn(family=b"g", qualifier=b"c"),
                                                       TColumn(family=b"f", qualifier=b"b")]))
    assert cells_of(r) == [(b"f", b"b", b"2"), (b"g", b"c", b"3")]


def test_get_filterString_filters_and_a_bad_one_is_an_application_error(thrift2_client,
                                                                        thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"apple", (b"f", b"b"): b"banana"})
    r = thrift2_client.get(t, TGet(row=b"r", filterString=b"ValueFilter(=, 'binary:banana')"))
    assert cells_of(r) == [(b"f", b"b", b"banana")]
    with pytest.raises(TApplicationException) as e:
        thrift2_client.get(t, TGet(row=b"r", filterString=b"NoSuchFilter(1)"))
    assert e.value.type == TApplicationException.INTERNAL_ERROR


def test_existence_only_returns_no_cells(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"1"})
    assert thrift2_client.get(t, TGet(row=b"r", existence_only=True)).columnValues == []


def test_exists_and_existsAll_answer_in_request_order(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"yes", {(b"f", b"a"): b"1"})
    assert thrift2_client.exists(t, TGet(row=b"yes")) is True
    assert thrift2_client.exists(t, TGet(row=b"no")) is False
    assert thrift2_client.existsAll(t, [TGet(row=b"no"), TGet(row=b"yes"), TGet(row=b"no")]) \
        == [False, True, False]


def test_getMultiple_gives_one_result_per_get_with_empty_ones_for_missing_rows(thrift2_client,
                                                                               thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"a", {(b"f", b"q"): b"1"})
    put(thrift2_client, t, b"c", {(b"f", b"q"): b"3"})
    results = thrift2_client.getMultiple(t, [TGet(row=b"c"), TGet(row=b"b"), TGet(row=b"a")])
    assert [r.row for r in results] == [b"c", None, b"a"]
    assert results[1].columnValues == []


def test_putMultiple_and_per_cell_timestamps_override_the_put_timestamp(thrift2_client,
                                                                        thrift2_table):
    t = thrift2_table()
    thrift2_client.putMultiple(t, [
        TPut(row=b"r1", timestamp=100, columnValues=[
            TColumnValue(family=b"f", qualifier=b"a", value=b"x"),
            TColumnValue(family=b"f", qualifier=b"b", value=b"y", timestamp=7)]),
        TPut(row=b"r2", columnValues=[TColumnValue(family=b"f", qualifier=b"a", value=b"z")]),
    ])
    r1 = thrift2_client.get(t, TGet(row=b"r1"))
    assert [(c.qualifier, c.timestamp) for c in r1.columnValues] == [(b"a", 100), (b"b", 7)]
    assert cells_of(thrift2_client.get(t, TGet(row=b"r2"))) == [(b"f", b"a", b"z")]


def test_put_without_columns_is_an_application_error(thrift2_client, thrift2_table):
    t = thrift2_table()
    with pytest.raises(TApplicationException) as e:
        thrift2_client.put(t, TPut(row=b"r", columnValues=[]))
    assert e.value.type == TApplicationException.INTERNAL_ERROR


def test_put_to_an_unknown_family_is_a_TIOError_that_is_not_retried(thrift2_client,
                                                                    thrift2_table):
    t = thrift2_table()
    with pytest.raises(TIOError) as e:
        put(thrift2_client, t, b"r", {(b"nope", b"a"): b"1"})
    assert e.value.canRetry is False


def test_missing_table_is_a_TIOError_with_the_bare_table_name(thrift2_client):
    with pytest.raises(TIOError) as e:
        thrift2_client.get(b"no_such_table_t2", TGet(row=b"r"))
    assert e.value.message == "no_such_table_t2"
    assert e.value.canRetry is False


# ---------------------------------------------------------------- deletes


def versions(client, t, row, family=b"f", qualifier=b"a"):
    r = client.get(t, TGet(row=row, columns=[TColumn(family=family, qualifier=qualifier)],
                           maxVersions=10))
    return [c.timestamp for c in r.columnValues]


def test_delete_without_columns_deletes_the_row_up_to_its_timestamp(thrift2_client,
                                                                    thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"1", 1), (b"f", b"a", b"3", 3)])
    thrift2_client.deleteSingle(t, TDelete(row=b"r", timestamp=2))
    assert versions(thrift2_client, t, b"r") == [3]


def test_delete_with_an_empty_column_list_deletes_the_whole_row_at_now(thrift2_client,
                                                                       thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"1", 1), (b"f", b"a", b"3", 3)])
    # The top-level timestamp is ignored once columns are given, even an empty list.
    thrift2_client.deleteSingle(t, TDelete(row=b"r", columns=[], timestamp=2))
    assert versions(thrift2_client, t, b"r") == []


def test_default_delete_type_is_DELETE_COLUMNS_and_a_bare_family_means_the_empty_qualifier(
        thrift2_client, thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"", b"e", 1), (b"f", b"a", b"1", 1),
                                  (b"f", b"a", b"2", 2)])
    thrift2_client.deleteSingle(t, TDelete(row=b"r", columns=[TColumn(family=b"f")]))
    assert versions(thrift2_client, t, b"r", qualifier=b"") == []
    assert versions(thrift2_client, t, b"r") == [2, 1]
    thrift2_client.deleteSingle(t, TDelete(row=b"r", columns=[TColumn(family=b"f",
                                                                      qualifier=b"a")]))
    assert versions(thrift2_client, t, b"r") == []


def test_DELETE_COLUMN_removes_one_version_exact_or_the_newest(thrift2_client, thrift2_table):
    t = thrift2_table(maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"%d" % i, i) for i in (1, 2, 3)])
    thrift2_client.deleteSingle(t, TDelete(row=b"r", deleteType=TDeleteType.DELETE_COLUMN,
                                           columns=[TColumn(b"f", b"a", timestamp=2)]))
    assert versions(thrift2_client, t, b"r") == [3, 1]
    thrift2_client.deleteSingle(t, TDelete(row=b"r", deleteType=TDeleteType.DELETE_COLUMN,
                                           columns=[TColumn(b"f", b"a")]))
    assert versions(thrift2_client, t, b"r") == [1]


def test_DELETE_FAMILY_and_DELETE_FAMILY_VERSION(thrift2_client, thrift2_table):
    t = thrift2_table(families=("f", "g"), maxVersions=5)
    put(thrift2_client, t, b"r", [(b"f", b"a", b"1", 1), (b"f", b"b", b"1", 1),
                                  (b"f", b"a", b"2", 2), (b"g", b"a", b"1", 1)])
    thrift2_client.deleteSingle(t, TDelete(row=b"r", deleteType=TDeleteType.DELETE_FAMILY_VERSION,
                                           columns=[TColumn(b"f", timestamp=1)]))
    r = thrift2_client.get(t, TGet(row=b"r", maxVersions=5))
    assert [(c.family, c.qualifier, c.timestamp) for c in r.columnValues] == \
        [(b"f", b"a", 2), (b"g", b"a", 1)]
    thrift2_client.deleteSingle(t, TDelete(row=b"r", deleteType=TDeleteType.DELETE_FAMILY,
                                           columns=[TColumn(b"f")]))
    r = thrift2_client.get(t, TGet(row=b"r", maxVersions=5))
    assert [(c.family, c.qualifier) for c in r.columnValues] == [(b"g", b"a")]


def test_DELETE_FAMILY_VERSION_without_a_timestamp_is_an_application_error(thrift2_client,
                                                                           thrift2_table):
    t = thrift2_table()
    with pytest.raises(TApplicationException):
        thrift2_client.deleteSingle(t, TDelete(row=b"r", deleteType=TDeleteType.DELETE_FAMILY_VERSION,
                                               columns=[TColumn(b"f")]))


def test_deleteMultiple_applies_every_delete_and_answers_an_empty_list(thrift2_client,
                                                                        thrift2_table):
    t = thrift2_table()
    for row in (b"a", b"b", b"c"):
        put(thrift2_client, t, row, {(b"f", b"q"): row})
    assert thrift2_client.deleteMultiple(t, [TDelete(row=b"a"), TDelete(row=b"c")]) == []
    assert [thrift2_client.exists(t, TGet(row=r)) for r in (b"a", b"b", b"c")] == \
        [False, True, False]


# ---------------------------------------------------------------- read-modify-write


def test_increment_returns_the_new_cells_and_counts_a_missing_cell_as_zero(thrift2_client,
                                                                           thrift2_table):
    t = thrift2_table()
    r = thrift2_client.increment(t, TIncrement(row=b"r", columns=[
        TColumnIncrement(b"f", b"a"), TColumnIncrement(b"f", b"b", amount=10)]))
    assert r.row == b"r"
    assert [(c.qualifier, struct.unpack(">q", c.value)[0]) for c in r.columnValues] == \
        [(b"a", 1), (b"b", 10)]
    r = thrift2_client.increment(t, TIncrement(row=b"r", columns=[TColumnIncrement(b"f", b"a", -5)],
                                               returnResults=False))
    assert r.columnValues == []
    assert thrift2_client.get(t, TGet(row=b"r", columns=[TColumn(b"f", b"a")])).columnValues[0].value \
        == struct.pack(">q", -4)


def test_increment_of_a_value_that_is_not_8_bytes_is_a_TIOError(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"abc"})
    with pytest.raises(TIOError) as e:
        thrift2_client.increment(t, TIncrement(row=b"r", columns=[TColumnIncrement(b"f", b"a")]))
    assert "Field is not a long, it's 3 bytes wide" in e.value.message
    assert e.value.canRetry is False


def test_append_concatenates_and_returns_the_new_values(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"abc"})
    r = thrift2_client.append(t, TAppend(row=b"r", columns=[
        TColumnValue(b"f", b"a", b"def"), TColumnValue(b"f", b"b", b"new")]))
    assert cells_of(r) == [(b"f", b"a", b"abcdef"), (b"f", b"b", b"new")]
    r = thrift2_client.append(t, TAppend(row=b"r", columns=[TColumnValue(b"f", b"b", b"!")],
                                         returnResults=False))
    assert r.columnValues == []


def test_checkAndPut_with_an_unset_value_puts_only_when_the_column_is_absent(thrift2_client,
                                                                             thrift2_table):
    t = thrift2_table()
    p = TPut(row=b"r", columnValues=[TColumnValue(b"f", b"a", b"first")])
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", None, p) is True
    p2 = TPut(row=b"r", columnValues=[TColumnValue(b"f", b"a", b"second")])
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", None, p2) is False
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", b"wrong", p2) is False
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", b"first", p2) is True
    assert cells_of(thrift2_client.get(t, TGet(row=b"r"))) == [(b"f", b"a", b"second")]


def test_checkAndPut_with_an_empty_value_does_not_match_an_existing_nonempty_cell(
        thrift2_client, thrift2_table):
    t = thrift2_table()
    p = TPut(row=b"r", columnValues=[TColumnValue(b"f", b"b", b"x")])
    # Empty bytes match a missing cell...
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", b"", p) is True
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"v"})
    # ...but not one with a value.
    assert thrift2_client.checkAndPut(t, b"r", b"f", b"a", b"", p) is False


def test_checkAndPut_for_another_row_is_a_TIOError(thrift2_client, thrift2_table):
    t = thrift2_table()
    with pytest.raises(TIOError):
        thrift2_client.checkAndPut(t, b"r", b"f", b"a", None,
                                   TPut(row=b"other", columnValues=[TColumnValue(b"f", b"a", b"x")]))


def test_checkAndDelete_deletes_only_when_the_value_matches(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"v", (b"f", b"b"): b"w"})
    d = TDelete(row=b"r", columns=[TColumn(b"f", b"b")])
    assert thrift2_client.checkAndDelete(t, b"r", b"f", b"a", b"nope", d) is False
    assert thrift2_client.checkAndDelete(t, b"r", b"f", b"a", b"v", d) is True
    assert cells_of(thrift2_client.get(t, TGet(row=b"r"))) == [(b"f", b"a", b"v")]


def test_checkAndMutate_without_a_value_is_an_application_error(thrift2_client, thrift2_table):
    t = thrift2_table()
    rm = TRowMutations(row=b"r", mutations=[TMutation(put=TPut(row=b"r", columnValues=[
        TColumnValue(b"f", b"a", b"x")]))])
    with pytest.raises(TApplicationException):
        thrift2_client.checkAndMutate(t, b"r", b"f", b"a", TCompareOp.EQUAL, None, rm)


def test_mutateRow_applies_puts_and_deletes_atomically_at_one_now(thrift2_client, thrift2_table):
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"old"): b"1"})
    thrift2_client.mutateRow(t, TRowMutations(row=b"r", mutations=[
        TMutation(put=TPut(row=b"r", columnValues=[TColumnValue(b"f", b"a", b"x"),
                                                   TColumnValue(b"f", b"b", b"y")])),
        TMutation(deleteSingle=TDelete(row=b"r", columns=[TColumn(b"f", b"old"),
                                                          TColumn(b"f", b"b")])),
    ]))
    # The delete of f:b shares the put's timestamp, so it masks the put.
    assert cells_of(thrift2_client.get(t, TGet(row=b"r"))) == [(b"f", b"a", b"x")]


def test_mutateRow_with_a_mutation_for_another_row_is_a_TIOError_and_writes_nothing(
        thrift2_client, thrift2_table):
    t = thrift2_table()
    with pytest.raises(TIOError):
        thrift2_client.mutateRow(t, TRowMutations(row=b"r", mutations=[
            TMutation(put=TPut(row=b"r", columnValues=[TColumnValue(b"f", b"a", b"x")])),
            TMutation(put=TPut(row=b"s", columnValues=[TColumnValue(b"f", b"a", b"x")]))]))
    assert thrift2_client.exists(t, TGet(row=b"r")) is False


# ---------------------------------------------------------------- scanners


def fill(client, t, rows, family=b"f"):
    client.putMultiple(t, [TPut(row=r, columnValues=[TColumnValue(family, b"q", r)]) for r in rows])


def test_scanner_pages_through_rows_then_answers_empty_lists(thrift2_client, thrift2_table):
    t = thrift2_table()
    fill(thrift2_client, t, [b"a", b"b", b"c"])
    sid = thrift2_client.openScanner(t, TScan())
    assert [r.row for r in thrift2_client.getScannerRows(sid, 2)] == [b"a", b"b"]
    assert [r.row for r in thrift2_client.getScannerRows(sid, 2)] == [b"c"]
    assert thrift2_client.getScannerRows(sid, 2) == []
    assert thrift2_client.getScannerRows(sid, 2) == []
    thrift2_client.closeScanner(sid)


def test_scanner_bad_ids_and_negative_numRows(thrift2_client, thrift2_table):
    t = thrift2_table()
    with pytest.raises(TIllegalArgument) as e:
        thrift2_client.getScannerRows(987654, 1)
    assert e.value.message == "Invalid scanner Id"
    thrift2_client.closeScanner(987654)  # an unknown id is not an error
    sid = thrift2_client.openScanner(t, TScan())
    thrift2_client.closeScanner(sid)
    with pytest.raises(TIllegalArgument):
        thrift2_client.getScannerRows(sid, 1)
    sid = thrift2_client.openScanner(t, TScan())
    with pytest.raises(TApplicationException):
        thrift2_client.getScannerRows(sid, -1)


def test_scan_start_stop_reversed_columns_versions_and_time_range(thrift2_client, thrift2_table):
    t = thrift2_table(families=("f", "g"), maxVersions=5)
    for i, row in enumerate([b"a", b"b", b"c", b"d"]):
        put(thrift2_client, t, row, [(b"f", b"q", b"old", 10), (b"f", b"q", b"new", 20),
                                     (b"g", b"q", b"g", 10)])
    rows = thrift2_client.getScannerResults(t, TScan(startRow=b"b", stopRow=b"d"), 10)
    assert [r.row for r in rows] == [b"b", b"c"]
    assert cells_of(rows[0]) == [(b"f", b"q", b"new"), (b"g", b"q", b"g")]
    rows = thrift2_client.getScannerResults(t, TScan(startRow=b"c", stopRow=b"a", reversed=True), 10)
    assert [r.row for r in rows] == [b"c", b"b"]
    rows = thrift2_client.getScannerResults(t, TScan(columns=[TColumn(b"f")], maxVersions=2), 1)
    assert cells_of(rows[0]) == [(b"f", b"q", b"new"), (b"f", b"q", b"old")]
    rows = thrift2_client.getScannerResults(t, TScan(timeRange=TTimeRange(0, 15)), 1)
    assert cells_of(rows[0]) == [(b"f", b"q", b"old"), (b"g", b"q", b"g")]


def test_scan_filterString_and_batchSize(thrift2_client, thrift2_table):
    t = thrift2_table()
    thrift2_client.put(t, TPut(row=b"wide", columnValues=[
        TColumnValue(b"f", b"%d" % i, b"v") for i in range(5)]))
    fill(thrift2_client, t, [b"x1", b"x2", b"y1"])
    rows = thrift2_client.getScannerResults(t, TScan(filterString=b"PrefixFilter('x')"), 10)
    assert [r.row for r in rows] == [b"x1", b"x2"]
    rows = thrift2_client.getScannerResults(t, TScan(startRow=b"wide", stopRow=b"wide\x00",
                                                     batchSize=2), 10)
    assert [(r.row, len(r.columnValues)) for r in rows] == [(b"wide", 2), (b"wide", 2), (b"wide", 1)]


def test_scanner_ids_count_from_zero_per_service(server_factory):
    """Thrift1 and Thrift2 are separate gateways in HBase, each with its own scanner counter."""
    from hbase import Hbase
    from hbase2 import THBaseService
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableDescriptor, TTableName
    import hbcompat

    server = server_factory()
    t1, tr1 = hbcompat.open_raw_client(server.host, server.port, Hbase)
    t2, tr2 = hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService)
    try:
        t2.createTable(TTableDescriptor(tableName=TTableName(qualifier=b"t"),
                                        columns=[TColumnFamilyDescriptor(name=b"f")]), None)
        assert t1.scannerOpen(b"t", b"", [], {}) == 0
        assert t1.scannerOpen(b"t", b"", [], {}) == 1
        assert t2.openScanner(b"t", TScan()) == 0
    finally:
        tr1.close()
        tr2.close()
