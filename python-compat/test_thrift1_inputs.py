"""Thrift1 calls not exercised elsewhere (mutateRowsTs, increment, incrementRows, grant, revoke)
and the bad inputs HBase answers with a specific exception type: every one must get HBase's
answer and leave the server serving.

HBase's handler turns IllegalArgumentException into the declared IllegalArgument only in
createTable, mutateRow(s)(Ts) and checkAndPut; elsewhere it escapes as
TApplicationException(INTERNAL_ERROR) (docs/thrift-api.md#thrift1-errors).
"""

import struct

import pytest
from thrift.Thrift import TApplicationException

from hbase.ttypes import (AlreadyExists, BatchMutation, IllegalArgument, Mutation, TAccessControlEntity,
                          TIncrement, TPermissionScope)
from hbase.ttypes import IOError as HIOError

NO_ATTRS = {}
MAX_ROW = 32767


def long_bytes(v):
    return struct.pack(">q", v)


def assert_internal_error(excinfo, method):
    assert excinfo.value.type == TApplicationException.INTERNAL_ERROR
    assert excinfo.value.message == "Internal error processing " + method


def test_mutateRowsTs_puts_at_the_timestamp_and_deletes_up_to_it(raw_client, raw_table):
    t = raw_table()
    raw_client.mutateRowsTs(t, [BatchMutation(row=b"r1", mutations=[Mutation(column=b"f:a", value=b"old")]),
                                BatchMutation(row=b"r2", mutations=[Mutation(column=b"f:a", value=b"x")])],
                            100, NO_ATTRS)
    assert [(c.value, c.timestamp) for c in raw_client.get(t, b"r1", b"f:a", NO_ATTRS)] == [(b"old", 100)]
    raw_client.mutateRowsTs(t, [BatchMutation(row=b"r1", mutations=[Mutation(column=b"f:a", value=b"new")])],
                            200, NO_ATTRS)
    # A delete at 150 covers the version at 100 but not the one at 200.
    raw_client.mutateRowsTs(t, [BatchMutation(row=b"r1", mutations=[Mutation(isDelete=True, column=b"f:a")])],
                            150, NO_ATTRS)
    assert [(c.value, c.timestamp) for c in raw_client.getVer(t, b"r1", b"f:a", 5, NO_ATTRS)] == [(b"new", 200)]


def test_increment_and_incrementRows_add_to_8_byte_counters(raw_client, raw_table):
    t = raw_table()
    raw_client.increment(TIncrement(table=t, row=b"r", column=b"f:n", ammount=5))
    raw_client.incrementRows([TIncrement(table=t, row=b"r", column=b"f:n", ammount=-2),
                              TIncrement(table=t, row=b"s", column=b"f:n", ammount=7)])
    assert raw_client.get(t, b"r", b"f:n", NO_ATTRS)[0].value == long_bytes(3)
    assert raw_client.get(t, b"s", b"f:n", NO_ATTRS)[0].value == long_bytes(7)


def test_increment_without_row_or_qualifier_is_an_application_error(raw_client, raw_table):
    t = raw_table()
    with pytest.raises(TApplicationException) as excinfo:
        raw_client.increment(TIncrement(table=t, row=b"", column=b"f:n", ammount=1))
    assert_internal_error(excinfo, "increment")
    with pytest.raises(TApplicationException):
        raw_client.increment(TIncrement(table=t, row=b"r", column=b"f", ammount=1))
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []


def test_increment_of_a_value_that_is_not_8_bytes_is_a_non_retryable_IOError(raw_client, raw_table):
    t = raw_table()
    raw_client.mutateRow(t, b"r", [Mutation(column=b"f:n", value=b"abc")], NO_ATTRS)
    with pytest.raises(HIOError) as excinfo:
        raw_client.increment(TIncrement(table=t, row=b"r", column=b"f:n", ammount=1))
    assert "Field is not a long, it's 3 bytes wide" in excinfo.value.message
    assert excinfo.value.canRetry is False


def test_grant_and_revoke_fail_as_without_access_control(raw_client):
    entity = TAccessControlEntity(username="bob", scope=TPermissionScope.TABLE, actions="RW",
                                  tableName=b"t")
    for call in (raw_client.grant, raw_client.revoke):
        with pytest.raises(HIOError) as excinfo:
            call(entity)
        assert excinfo.value.canRetry is False


def test_row_longer_than_32767_bytes_is_rejected_by_the_method_s_exception_type(raw_client, raw_table):
    t = raw_table()
    row = b"r" * (MAX_ROW + 1)
    with pytest.raises(IllegalArgument):
        raw_client.mutateRow(t, row, [Mutation(column=b"f:a", value=b"v")], NO_ATTRS)
    # mutateRows builds every Put before sending: the row check escapes as INTERNAL_ERROR.
    with pytest.raises(TApplicationException) as excinfo:
        raw_client.mutateRows(t, [BatchMutation(row=row, mutations=[Mutation(column=b"f:a", value=b"v")])],
                              NO_ATTRS)
    assert_internal_error(excinfo, "mutateRows")
    with pytest.raises(TApplicationException) as excinfo:
        raw_client.get(t, row, b"f:a", NO_ATTRS)
    assert_internal_error(excinfo, "get")
    with pytest.raises(TApplicationException):
        raw_client.deleteAllRow(t, row, NO_ATTRS)
    # The longest legal row works.
    longest = b"r" * MAX_ROW
    raw_client.mutateRow(t, longest, [Mutation(column=b"f:a", value=b"v")], NO_ATTRS)
    assert raw_client.get(t, longest, b"f:a", NO_ATTRS)[0].value == b"v"


def test_empty_row_is_rejected_by_the_method_s_exception_type(raw_client, raw_table):
    t = raw_table()
    with pytest.raises(IllegalArgument):
        raw_client.mutateRow(t, b"", [Mutation(column=b"f:a", value=b"v")], NO_ATTRS)
    with pytest.raises(IllegalArgument):
        raw_client.checkAndPut(t, b"", b"f:a", None, Mutation(column=b"f:a", value=b"v"), NO_ATTRS)
    for call, args in ((raw_client.getRow, (t, b"", NO_ATTRS)),
                       (raw_client.deleteAll, (t, b"", b"f:a", NO_ATTRS))):
        with pytest.raises(TApplicationException):
            call(*args)
    # atomicIncrement of an empty row is a retryable IOError: test_hbase_fidelity.py.


def test_negative_timestamp_is_rejected_by_the_method_s_exception_type(raw_client, raw_table):
    t = raw_table()
    with pytest.raises(IllegalArgument):
        raw_client.mutateRowTs(t, b"r", [Mutation(column=b"f:a", value=b"v")], -1, NO_ATTRS)
    with pytest.raises(TApplicationException) as excinfo:
        raw_client.getVerTs(t, b"r", b"f:a", -1, 1, NO_ATTRS)
    assert_internal_error(excinfo, "getVerTs")
    with pytest.raises(TApplicationException):
        raw_client.deleteAllTs(t, b"r", b"f:a", -5, NO_ATTRS)
    with pytest.raises(TApplicationException):
        raw_client.getRowTs(t, b"r", -1, NO_ATTRS)
    assert raw_client.getRow(t, b"r", NO_ATTRS) == []


def test_empty_lists_and_absent_optional_fields_are_accepted(raw_client, raw_table):
    t = raw_table()
    raw_client.mutateRow(t, b"r", [], NO_ATTRS)        # nothing to do
    raw_client.mutateRows(t, [], NO_ATTRS)
    assert raw_client.getRows(t, [], NO_ATTRS) == []
    raw_client.mutateRow(t, b"r", [Mutation(column=b"f:a")], None)  # no value, no attributes
    assert raw_client.get(t, b"r", b"f:a", None)[0].value == b""
    assert raw_client.getRowWithColumns(t, b"r", [], None)[0].row == b"r"
    assert raw_client.getRowWithColumns(t, b"r", None, None)[0].row == b"r"


def test_unknown_family_write_is_IOError_and_nothing_is_applied(raw_client, raw_table):
    t = raw_table()
    with pytest.raises(HIOError) as excinfo:
        raw_client.mutateRow(t, b"r", [Mutation(column=b"f:ok", value=b"1"),
                                       Mutation(column=b"nope:q", value=b"2")], NO_ATTRS)
    assert "NoSuchColumnFamilyException" in excinfo.value.message
    assert raw_client.getRow(t, b"r", NO_ATTRS) == [], "a row mutation is all or nothing"


def test_server_keeps_serving_after_every_bad_input(raw_client, raw_table):
    t = raw_table()
    raw_client.mutateRow(t, b"ok", [Mutation(column=b"f:a", value=b"fine")], NO_ATTRS)
    assert raw_client.get(t, b"ok", b"f:a", NO_ATTRS)[0].value == b"fine"
    with pytest.raises(AlreadyExists):
        raw_client.createTable(t, [])
