"""Thrift2 (THBaseService) data calls through the wire, with a client generated from our IDL
(thrift/THBaseService.thrift), in three wire modes against the server's Thrift2 port.

Each expectation is HBase 2.6's thrift2 gateway behaviour (docs/thrift-api.md#thrift2-semantics).
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
    with pytest.raises(TIOError) as e:
        thrift2_client.get(t, TGet(row=b"r", maxVersions=0))
    assert e.value.message == "versions must be positive"


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


def test_existence_only_fails_get_and_getMultiple_as_HBase_2_6_does_and_exists_ignores_it(
        thrift2_client, thrift2_table):
    """HBase 2.6 runs the Get, then cannot convert the cell-less existence answer: a runtime
    error after the read, so a read error (a missing family) still comes first."""
    t = thrift2_table()
    put(thrift2_client, t, b"r", {(b"f", b"a"): b"1"})
    for row in (b"r", b"missing"):
        with pytest.raises(TApplicationException) as e:
            thrift2_client.get(t, TGet(row=row, existence_only=True))
        assert e.value.type == TApplicationException.INTERNAL_ERROR
    with pytest.raises(TApplicationException) as e:
        thrift2_client.getMultiple(t, [TGet(row=b"r"), TGet(row=b"r", existence_only=True)])
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    with pytest.raises(TIOError):
        thrift2_client.get(t, TGet(row=b"r", existence_only=True, columns=[TColumn(b"nope")]))
    assert thrift2_client.get(t, TGet(row=b"r", existence_only=False)).row == b"r"
    assert thrift2_client.exists(t, TGet(row=b"r", existence_only=True)) is True
    assert thrift2_client.existsAll(t, [TGet(row=b"missing", existence_only=True)]) == [False]


def keys_of(result):
    return [b"%s:%s@%d" % (c.family, c.qualifier, c.timestamp) for c in result.columnValues]


def put_store_row(client, t):
    """f:a, f:b, f:c at ts 2 and 1 (six cells in f); g:a, g:b, g:c at ts 1 (three in g)."""
    put(client, t, b"r", [(b"f", q, b"v" + q, ts) for q in (b"a", b"b", b"c") for ts in (1, 2)]
        + [(b"g", q, b"g" + q, 1) for q in (b"a", b"b", b"c")])


def test_get_storeLimit_and_storeOffset_count_the_returned_cells_of_each_family(
        thrift2_client, thrift2_table):
    t = thrift2_table(families=("f", "g"), maxVersions=5)
    put_store_row(thrift2_client, t)

    def get(**kw):
        return keys_of(thrift2_client.get(t, TGet(row=b"r", maxVersions=5, **kw)))

    assert get(storeLimit=1) == [b"f:a@2", b"g:a@1"]
    assert get(storeLimit=2, storeOffset=1) == [b"f:a@1", b"f:b@2", b"g:b@1", b"g:c@1"]
    assert get(storeOffset=4) == [b"f:c@2", b"f:c@1"]
    assert get(storeLimit=1, storeOffset=5) == [b"f:c@1"]
    # A limit of 0 returns one cell, like 1; a negative limit is none; a negative offset is 0.
    assert get(storeLimit=0, storeOffset=2) == [b"f:b@2", b"g:c@1"]
    assert len(get(storeLimit=-1)) == 9
    assert get(storeLimit=2, storeOffset=-1) == [b"f:a@2", b"f:a@1", b"g:a@1", b"g:b@1"]
    # Past every cell: an empty result, and exists() says no.
    assert thrift2_client.get(t, TGet(row=b"r", storeOffset=10)).row is None
    assert thrift2_client.existsAll(t, [TGet(row=b"r", storeOffset=10), TGet(row=b"r")]) == \
        [False, True]


def test_get_storeLimit_counts_after_the_per_cell_filter_which_never_sees_the_rest_of_the_family(
        thrift2_client, thrift2_table):
    t = thrift2_table(families=("f", "g"), maxVersions=5)
    put_store_row(thrift2_client, t)
    r = thrift2_client.get(t, TGet(row=b"r", maxVersions=5, storeLimit=2,
                                   filterString=b"QualifierFilter(>=, 'binary:b')"))
    assert keys_of(r) == [b"f:b@2", b"f:b@1", b"g:b@1", b"g:c@1"]
    r = thrift2_client.get(t, TGet(row=b"r", storeLimit=1,
                                   filterString=b"ColumnCountGetFilter(2)"))
    assert keys_of(r) == [b"f:a@2", b"g:a@1"]
    r = thrift2_client.get(t, TGet(row=b"r", storeOffset=1, filterString=(
        b"SingleColumnValueFilter('f', 'a', =, 'binary:va')")))
    assert keys_of(r) == [b"f:b@2", b"f:c@2", b"g:b@1", b"g:c@1"]


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
    assert e.value.message.split("\n")[0] == ("org.apache.hadoop.hbase.DoNotRetryIOException: "
                                              "Field is not a long, it's 3 bytes wide")
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


# Measured on HBase 2.6.1: stored absent / empty / "m" against expected "", "a", "m", "z".
CHECK_AND_MUTATE_MATRIX = {
    TCompareOp.LESS: ("1000", "1000", "0100"),
    TCompareOp.LESS_OR_EQUAL: ("1000", "1000", "0110"),
    TCompareOp.EQUAL: ("1000", "1000", "0010"),
    TCompareOp.NOT_EQUAL: ("0000", "0111", "1101"),
    TCompareOp.GREATER_OR_EQUAL: ("1000", "1111", "0011"),
    TCompareOp.GREATER: ("1000", "1111", "0001"),
}


def test_checkAndMutate_compares_expected_op_stored_with_every_operator(thrift2_client,
                                                                        thrift2_table):
    """LESS passes when the expected value sorts before the stored one; an empty expected value
    stands for "absent or empty" (NOT_EQUAL: a non-empty value is there)."""
    t = thrift2_table()
    n = 0
    for op, per_state in CHECK_AND_MUTATE_MATRIX.items():
        for stored, wanted in zip((None, b"", b"m"), per_state):
            for expected, want in zip((b"", b"a", b"m", b"z"), wanted):
                n += 1
                row = b"r%d" % n
                if stored is not None:
                    put(thrift2_client, t, row, {(b"f", b"q"): stored})
                rm = TRowMutations(row=row, mutations=[TMutation(put=TPut(row=row, columnValues=[
                    TColumnValue(b"f", b"applied", b"1")]))])
                got = thrift2_client.checkAndMutate(t, row, b"f", b"q", op, expected, rm)
                assert got is (want == "1"), (op, stored, expected)
                applied = thrift2_client.exists(t, TGet(row=row, columns=[
                    TColumn(b"f", b"applied")]))
                assert applied is got


def test_checkAndMutate_NO_OP_passes_without_a_comparison_and_fails_when_it_must_compare(
        thrift2_client, thrift2_table, hbase_endpoint, thrift2_wire):
    """HBase's region server throws "Unknown Compare op NO_OP" when it has to compare; its
    client retries, then the gateway answers a retryable TIOError (after about 150 s on HBase;
    at once here)."""
    import hbcompat
    from hbase2 import THBaseService

    t = thrift2_table()

    def rm(row):
        return TRowMutations(row=row, mutations=[TMutation(put=TPut(row=row, columnValues=[
            TColumnValue(b"f", b"applied", b"1")]))])

    assert thrift2_client.checkAndMutate(t, b"absent", b"f", b"q", TCompareOp.NO_OP, b"",
                                         rm(b"absent")) is True
    assert thrift2_client.checkAndMutate(t, b"absent2", b"f", b"q", TCompareOp.NO_OP, b"a",
                                         rm(b"absent2")) is False
    put(thrift2_client, t, b"m", {(b"f", b"q"): b"m"})
    assert thrift2_client.checkAndMutate(t, b"m", b"f", b"q", TCompareOp.NO_OP, b"",
                                         rm(b"m")) is False
    patient, transport = hbcompat.open_raw_client(hbase_endpoint.host, hbase_endpoint.thrift2_port,
                                                  THBaseService, wire=thrift2_wire,
                                                  timeout_ms=300_000)
    try:
        with pytest.raises(TIOError) as e:
            patient.checkAndMutate(t, b"m", b"f", b"q", TCompareOp.NO_OP, b"a", rm(b"m"))
        assert e.value.canRetry is True
        # (HBase drops the other connection, idle for that long.)
        assert patient.exists(t, TGet(row=b"m", columns=[TColumn(b"f", b"applied")])) is False
    finally:
        transport.close()


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


def put_wide_rows(client, t):
    """a: 5 cells, b: 4, c: 1, d: one in f and one in g."""
    for row, n in ((b"a", 5), (b"b", 4), (b"c", 1)):
        client.put(t, TPut(row=row, columnValues=[
            TColumnValue(b"f", b"%d" % i, b"v") for i in range(n)]))
    client.put(t, TPut(row=b"d", columnValues=[TColumnValue(b"f", b"0", b"v"),
                                               TColumnValue(b"g", b"0", b"v")]))


def shape(results):
    """row:cells per TResult, + when partial."""
    return ["%s:%d%s" % (r.row.decode(), len(r.columnValues), "+" if r.partial else "")
            for r in results]


def test_scan_batchSize_marks_every_piece_but_the_last_of_a_row_partial(thrift2_client,
                                                                        thrift2_table):
    t = thrift2_table(families=("f", "g"))
    put_wide_rows(thrift2_client, t)
    rows = thrift2_client.getScannerResults(t, TScan(batchSize=2), 20)
    # b splits into two full pieces; the second is its last, so not partial.
    assert shape(rows) == ["a:2+", "a:2+", "a:1", "b:2+", "b:2", "c:1", "d:2"]
    sid = thrift2_client.openScanner(t, TScan(batchSize=3, caching=1))
    assert shape(thrift2_client.getScannerRows(sid, 3)) == ["a:3+", "a:2", "b:3+"]
    assert shape(thrift2_client.getScannerRows(sid, 3)) == ["b:1", "c:1", "d:2"]
    assert thrift2_client.getScannerRows(sid, 3) == []
    thrift2_client.closeScanner(sid)
    for batch in (0, -1):
        rows = thrift2_client.getScannerResults(t, TScan(batchSize=batch), 20)
        assert shape(rows) == ["a:5", "b:4", "c:1", "d:2"]


def test_scan_batch_piece_that_fills_the_batch_is_partial_when_hidden_cells_follow(
        thrift2_client, thrift2_table):
    """HBase's region server stops right after the batch's last cell and peeks at the next
    stored one: a surplus version or a deleted cell of the same row makes the piece partial."""
    t = thrift2_table()
    put(thrift2_client, t, b"a", [(b"f", b"%d" % i, b"v", 1) for i in range(4)])
    put(thrift2_client, t, b"a", [(b"f", b"3", b"new", 2)])
    put(thrift2_client, t, b"b", [(b"f", b"%d" % i, b"v", 1) for i in range(5)])
    thrift2_client.deleteSingle(t, TDelete(row=b"b", columns=[TColumn(b"f", b"4")]))
    put(thrift2_client, t, b"c", [(b"f", b"0", b"v", 1)])
    rows = thrift2_client.getScannerResults(t, TScan(batchSize=2), 20)
    assert shape(rows) == ["a:2+", "a:2+", "b:2+", "b:2+", "c:1"]


def test_scan_limit_counts_whole_rows_after_filters_across_getScannerRows(thrift2_client,
                                                                          thrift2_table):
    t = thrift2_table(families=("f", "g"))
    put_wide_rows(thrift2_client, t)
    assert shape(thrift2_client.getScannerResults(t, TScan(limit=2), 20)) == ["a:5", "b:4"]
    assert shape(thrift2_client.getScannerResults(t, TScan(limit=2, reversed=True), 20)) == \
        ["d:2", "c:1"]
    # Every piece of a batched row belongs to one row of the limit.
    assert shape(thrift2_client.getScannerResults(t, TScan(limit=1, batchSize=2), 20)) == \
        ["a:2+", "a:2+", "a:1"]
    # numRows still caps one call.
    assert shape(thrift2_client.getScannerResults(t, TScan(limit=3), 1)) == ["a:5"]
    rows = thrift2_client.getScannerResults(t, TScan(
        limit=2, columns=[TColumn(b"g")], filterString=b"QualifierFilter(=, 'binary:0')"), 20)
    assert shape(rows) == ["d:1"]
    for limit in (0, -1):
        assert len(thrift2_client.getScannerResults(t, TScan(limit=limit), 20)) == 4
    sid = thrift2_client.openScanner(t, TScan(limit=3))
    assert shape(thrift2_client.getScannerRows(sid, 2)) == ["a:5", "b:4"]
    assert shape(thrift2_client.getScannerRows(sid, 2)) == ["c:1"]
    assert thrift2_client.getScannerRows(sid, 2) == []
    thrift2_client.closeScanner(sid)


def test_scan_colFamTimeRangeMap_replaces_the_time_range_for_its_families(thrift2_client,
                                                                          thrift2_table):
    t = thrift2_table(families=("f", "g"), maxVersions=5)
    for row in (b"r1", b"r2"):
        put(thrift2_client, t, row, [(fam, b"a", fam + b"%d" % ts, ts)
                                     for fam in (b"f", b"g") for ts in (10, 20, 30)])
    put(thrift2_client, t, b"r3", [(b"g", b"a", b"g30", 30)])

    def scan(**kw):
        return [r.row + b"/" + k for r in thrift2_client.getScannerResults(t, TScan(**kw), 10)
                for k in keys_of(r)]

    assert scan(colFamTimeRangeMap={b"f": TTimeRange(15, 25)}) == [
        b"r1/f:a@20", b"r1/g:a@30", b"r2/f:a@20", b"r2/g:a@30", b"r3/g:a@30"]
    assert scan(colFamTimeRangeMap={b"f": TTimeRange(15, 25)}, timeRange=TTimeRange(0, 15)) == [
        b"r1/f:a@20", b"r1/g:a@10", b"r2/f:a@20", b"r2/g:a@10"]
    assert scan(colFamTimeRangeMap={b"g": TTimeRange(0, 25)}, timeRange=TTimeRange(25, 100),
                maxVersions=5) == [b"r1/f:a@30", b"r1/g:a@20", b"r1/g:a@10",
                                   b"r2/f:a@30", b"r2/g:a@20", b"r2/g:a@10"]
    # An unknown family is ignored; an empty map changes nothing.
    assert len(scan(colFamTimeRangeMap={b"zz": TTimeRange(0, 15)})) == 5
    assert len(scan(colFamTimeRangeMap={})) == 5
    # With a filter, older versions inside the family's range reach it.
    assert scan(colFamTimeRangeMap={b"f": TTimeRange(0, 15)},
                filterString=b"ValueFilter(=, 'substring:1')") == [
        b"r1/f:a@10", b"r1/g:a@10", b"r2/f:a@10", b"r2/g:a@10"]
    for bad in (TTimeRange(-1, 15), TTimeRange(20, 15)):
        with pytest.raises(TApplicationException) as e:
            thrift2_client.getScannerResults(t, TScan(colFamTimeRangeMap={b"f": bad}), 10)
        assert e.value.type == TApplicationException.INTERNAL_ERROR


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
