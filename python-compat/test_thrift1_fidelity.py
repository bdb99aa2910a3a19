"""Thrift1 answers measured on HBase 2.6.1 where the request is refused while HBase builds it,
before any table is looked up, and where the scanner is looked up before its arguments are
checked. Each test passes against the oracle (HBASE_THRIFT_TARGET).
"""

import pytest
from thrift.Thrift import TApplicationException

from hbase.ttypes import IllegalArgument, IOError, TAppend, TScan

NO_ATTRS = {}
MISSING = b"thrift1_fidelity_missing"


def assert_internal_error(call):
    with pytest.raises(TApplicationException) as failure:
        call()
    assert failure.value.type == TApplicationException.INTERNAL_ERROR


def test_an_append_without_columns_is_refused_before_the_table_is_looked_up(raw_client, raw_table):
    t = raw_table()
    for table in (t, MISSING):
        assert_internal_error(lambda: raw_client.append(TAppend(table=table, row=b"r", columns=[],
                                                                values=[])))


def test_mutateRowTs_checks_its_timestamp_even_without_mutations(raw_client, raw_table):
    t = raw_table()
    with pytest.raises(IllegalArgument) as failure:
        raw_client.mutateRowTs(t, b"r", [], -1, NO_ATTRS)
    assert failure.value.message.splitlines()[0] == (
        "java.lang.IllegalArgumentException: Timestamp cannot be negative. ts=-1")


def test_reads_before_a_negative_timestamp_are_refused_before_the_table_is_looked_up(raw_client):
    calls = [lambda: raw_client.scannerOpenTs(MISSING, b"", [], -1, NO_ATTRS),
             lambda: raw_client.scannerOpenWithStopTs(MISSING, b"", b"z", [], -1, NO_ATTRS),
             lambda: raw_client.scannerOpenWithScan(MISSING, TScan(timestamp=-1), NO_ATTRS),
             lambda: raw_client.getRowTs(MISSING, b"r", -1, NO_ATTRS),
             lambda: raw_client.getVerTs(MISSING, b"r", b"f:a", -1, 1, NO_ATTRS)]
    for call in calls:
        assert_internal_error(call)


def test_getVer_of_no_versions_is_refused_before_the_table_is_looked_up(raw_client):
    for call in (lambda: raw_client.getVer(MISSING, b"r", b"f:a", 0, NO_ATTRS),
                 lambda: raw_client.getVerTs(MISSING, b"r", b"f:a", 5, 0, NO_ATTRS)):
        with pytest.raises(IOError) as failure:
            call()
        assert failure.value.message.splitlines()[0] == (
            "java.io.IOException: versions must be positive")
        assert failure.value.canRetry is True


def test_an_unknown_scanner_is_reported_before_a_negative_row_count(raw_client):
    with pytest.raises(IllegalArgument):
        raw_client.scannerGetList(2 ** 31 - 7, -1)


def test_deletes_of_an_empty_row_or_a_negative_timestamp_are_refused_before_the_lookup(raw_client):
    calls = [lambda: raw_client.deleteAll(MISSING, b"", b"f:a", NO_ATTRS),
             lambda: raw_client.deleteAllTs(MISSING, b"", b"f:a", 5, NO_ATTRS),
             lambda: raw_client.deleteAllRow(MISSING, b"", NO_ATTRS),
             lambda: raw_client.deleteAllRowTs(MISSING, b"", 5, NO_ATTRS),
             lambda: raw_client.deleteAllTs(MISSING, b"r", b"f:a", -5, NO_ATTRS),
             lambda: raw_client.deleteAllRowTs(MISSING, b"r", -5, NO_ATTRS)]
    for call in calls:
        assert_internal_error(call)


def test_a_read_of_no_rows_checks_no_timestamp_and_an_empty_row_comes_first(raw_client):
    assert raw_client.getRowsTs(MISSING, [], -1, NO_ATTRS) == []
    assert_internal_error(lambda: raw_client.getVer(MISSING, b"", b"f:b", 2, NO_ATTRS))
    assert_internal_error(lambda: raw_client.getVerTs(MISSING, b"", b"f:b", 5, 0, NO_ATTRS))


def test_mutateRowsTs_at_a_negative_timestamp_is_refused_before_the_lookup(raw_client, raw_table):
    from hbase.ttypes import BatchMutation, Mutation

    t = raw_table()
    batch = [BatchMutation(row=b"r", mutations=[Mutation(column=b"f:a", value=b"v")])]
    for table in (t, MISSING):
        assert_internal_error(lambda: raw_client.mutateRowsTs(table, batch, -1, NO_ATTRS))
    raw_client.mutateRowsTs(t, [], -1, NO_ATTRS)  # no rows: no Put is built
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []
