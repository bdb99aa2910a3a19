"""A table name HBase refuses (TableName's rules: empty, a character other than [A-Za-z0-9_.-],
a leading '.' or '-', an empty namespace or qualifier, two ':') over Thrift1 and Thrift2, call by
call, answered as HBase 2.6.1's gateways answer it (each case was run against them).

HBase makes a TableName of the call's table before anything else, and the
IllegalArgumentException that throws escapes the handler as TApplicationException(INTERNAL_ERROR,
"Internal error processing <method>") - scanner opens and availability questions included, which
look nothing up. Thrift1's mutateRow(s)(Ts) and checkAndPut catch it and answer IllegalArgument
with the Java message. The connection stays usable after each.

Nothing here creates a table, so the file runs unchanged against a real HBase
(HBASE_THRIFT_TARGET, HBASE_THRIFT2_TARGET).
"""

import pytest
from thrift.Thrift import TApplicationException

import hbase.ttypes as t1
import hbase2.ttypes as t2

BAD_NAMES = [b"", b"bad name!", b".dot", b"-dash", b"ns:", b":t", b"a:b:c", b"t\x00"]
NO_ATTRS = {}
PUT = [t1.Mutation(column=b"f:a", value=b"1")]

THRIFT1_CALLS = {
    "isTableEnabled": lambda c, n: c.isTableEnabled(n),
    "createTable": lambda c, n: c.createTable(n, [t1.ColumnDescriptor(name=b"f:")]),
    "getColumnDescriptors": lambda c, n: c.getColumnDescriptors(n),
    "getTableRegions": lambda c, n: c.getTableRegions(n),
    "enableTable": lambda c, n: c.enableTable(n),
    "disableTable": lambda c, n: c.disableTable(n),
    "deleteTable": lambda c, n: c.deleteTable(n),
    "compact": lambda c, n: c.compact(n),
    "majorCompact": lambda c, n: c.majorCompact(n),
    "get": lambda c, n: c.get(n, b"r", b"f:a", NO_ATTRS),
    "getVer": lambda c, n: c.getVer(n, b"r", b"f:a", 1, NO_ATTRS),
    "getVerTs": lambda c, n: c.getVerTs(n, b"r", b"f:a", 5, 1, NO_ATTRS),
    "getRow": lambda c, n: c.getRow(n, b"r", NO_ATTRS),
    "getRowTs": lambda c, n: c.getRowTs(n, b"r", 5, NO_ATTRS),
    "getRowWithColumns": lambda c, n: c.getRowWithColumns(n, b"r", [b"f:a"], NO_ATTRS),
    "getRows": lambda c, n: c.getRows(n, [b"r"], NO_ATTRS),
    "getRowsWithColumns": lambda c, n: c.getRowsWithColumns(n, [b"r"], [b"f:a"], NO_ATTRS),
    "deleteAll": lambda c, n: c.deleteAll(n, b"r", b"f:a", NO_ATTRS),
    "deleteAllRow": lambda c, n: c.deleteAllRow(n, b"r", NO_ATTRS),
    "deleteAllRowTs": lambda c, n: c.deleteAllRowTs(n, b"r", 5, NO_ATTRS),
    "atomicIncrement": lambda c, n: c.atomicIncrement(n, b"r", b"f:a", 1),
    "increment": lambda c, n: c.increment(t1.TIncrement(table=n, row=b"r", column=b"f:a", ammount=1)),
    "incrementRows": lambda c, n: c.incrementRows([t1.TIncrement(table=n, row=b"r", column=b"f:a", ammount=1)]),
    "append": lambda c, n: c.append(t1.TAppend(table=n, row=b"r", columns=[b"f:a"], values=[b"x"])),
    "scannerOpen": lambda c, n: c.scannerOpen(n, b"", [], NO_ATTRS),
    "scannerOpenWithStop": lambda c, n: c.scannerOpenWithStop(n, b"", b"z", [], NO_ATTRS),
    "scannerOpenWithPrefix": lambda c, n: c.scannerOpenWithPrefix(n, b"a", [], NO_ATTRS),
    "scannerOpenTs": lambda c, n: c.scannerOpenTs(n, b"", [], 5, NO_ATTRS),
    "scannerOpenWithStopTs": lambda c, n: c.scannerOpenWithStopTs(n, b"", b"z", [], 5, NO_ATTRS),
    "scannerOpenWithScan": lambda c, n: c.scannerOpenWithScan(n, t1.TScan(), NO_ATTRS),
}

# The calls that answer IllegalArgument, with the Java message's text per name.
THRIFT1_ILLEGAL_ARGUMENT_CALLS = {
    "mutateRow": lambda c, n: c.mutateRow(n, b"r", PUT, NO_ATTRS),
    "mutateRowTs": lambda c, n: c.mutateRowTs(n, b"r", PUT, 5, NO_ATTRS),
    "mutateRows": lambda c, n: c.mutateRows(n, [t1.BatchMutation(row=b"r", mutations=PUT)], NO_ATTRS),
    "mutateRowsTs": lambda c, n: c.mutateRowsTs(n, [t1.BatchMutation(row=b"r", mutations=PUT)], 5, NO_ATTRS),
    "checkAndPut": lambda c, n: c.checkAndPut(n, b"r", b"f:a", b"1", PUT[0], NO_ATTRS),
}
ILLEGAL_NAME_MESSAGES = {
    b"": "Table qualifier must not be empty",
    b"bad name!": "Illegal character code:32, < > at 3. User-space table qualifiers may only "
                  "contain 'alphanumeric characters' and digits: bad name!",
    b".dot": "Illegal first character <46> at 0. User-space table qualifiers can only start with "
             "'alphanumeric characters' from any language: .dot",
    b"-dash": "Illegal first character <45> at 0. User-space table qualifiers can only start with "
              "'alphanumeric characters' from any language: -dash",
    b"ns:": "Table qualifier must not be empty",
    b":t": "Namespace name must not be empty",
    b"a:b:c": "Illegal character code:58, <:> at 1. User-space table qualifiers may only contain "
              "'alphanumeric characters' and digits: b:c",
    b"t\x00": "Illegal character code:0, <\x00> at 1. User-space table qualifiers may only contain "
              "'alphanumeric characters' and digits: t\x00",
}

COLUMNS = [t2.TColumnValue(family=b"f", qualifier=b"a", value=b"1")]
# Thrift2 calls that take the table as "ns:qualifier" bytes.
THRIFT2_DATA_CALLS = {
    "get": lambda c, n: c.get(n, t2.TGet(row=b"r")),
    "getMultiple": lambda c, n: c.getMultiple(n, [t2.TGet(row=b"r")]),
    "exists": lambda c, n: c.exists(n, t2.TGet(row=b"r")),
    "existsAll": lambda c, n: c.existsAll(n, [t2.TGet(row=b"r")]),
    "put": lambda c, n: c.put(n, t2.TPut(row=b"r", columnValues=COLUMNS)),
    "putMultiple": lambda c, n: c.putMultiple(n, [t2.TPut(row=b"r", columnValues=COLUMNS)]),
    "deleteSingle": lambda c, n: c.deleteSingle(n, t2.TDelete(row=b"r")),
    "deleteMultiple": lambda c, n: c.deleteMultiple(n, [t2.TDelete(row=b"r")]),
    "checkAndPut": lambda c, n: c.checkAndPut(n, b"r", b"f", b"a", b"1",
                                              t2.TPut(row=b"r", columnValues=COLUMNS)),
    "checkAndDelete": lambda c, n: c.checkAndDelete(n, b"r", b"f", b"a", b"1", t2.TDelete(row=b"r")),
    "increment": lambda c, n: c.increment(n, t2.TIncrement(
        row=b"r", columns=[t2.TColumnIncrement(family=b"f", qualifier=b"a")])),
    "append": lambda c, n: c.append(n, t2.TAppend(row=b"r", columns=COLUMNS)),
    "mutateRow": lambda c, n: c.mutateRow(n, t2.TRowMutations(
        row=b"r", mutations=[t2.TMutation(put=t2.TPut(row=b"r", columnValues=COLUMNS))])),
    "openScanner": lambda c, n: c.openScanner(n, t2.TScan()),
    "getScannerResults": lambda c, n: c.getScannerResults(n, t2.TScan(), 1),
    "getRegionLocation": lambda c, n: c.getRegionLocation(n, b"r", False),
    "getAllRegionLocations": lambda c, n: c.getAllRegionLocations(n),
}
# Thrift2 calls that take a TTableName.
THRIFT2_ADMIN_CALLS = {
    "tableExists": lambda c, t: c.tableExists(t),
    "createTable": lambda c, t: c.createTable(t2.TTableDescriptor(
        tableName=t, columns=[t2.TColumnFamilyDescriptor(name=b"f")]), []),
    "getTableDescriptor": lambda c, t: c.getTableDescriptor(t),
    "getTableDescriptors": lambda c, t: c.getTableDescriptors([t2.TTableName(qualifier=b"ok_name"), t]),
    "isTableEnabled": lambda c, t: c.isTableEnabled(t),
    "isTableDisabled": lambda c, t: c.isTableDisabled(t),
    "isTableAvailable": lambda c, t: c.isTableAvailable(t),
    "enableTable": lambda c, t: c.enableTable(t),
    "disableTable": lambda c, t: c.disableTable(t),
    "deleteTable": lambda c, t: c.deleteTable(t),
    "truncateTable": lambda c, t: c.truncateTable(t, False),
    "addColumnFamily": lambda c, t: c.addColumnFamily(t, t2.TColumnFamilyDescriptor(name=b"g")),
    "deleteColumnFamily": lambda c, t: c.deleteColumnFamily(t, b"f"),
    "modifyTable": lambda c, t: c.modifyTable(t2.TTableDescriptor(
        tableName=t, columns=[t2.TColumnFamilyDescriptor(name=b"f")])),
}


def ttable_name(name):
    """A TTableName for an illegal name. An empty namespace means "default" in a TTableName, so
    ":t" is legal there and left out."""
    ns, sep, qualifier = name.partition(b":")
    return t2.TTableName(ns=ns, qualifier=qualifier) if sep else t2.TTableName(qualifier=name)


def assert_internal_error(call, method):
    with pytest.raises(TApplicationException) as raised:
        call()
    assert raised.value.type == TApplicationException.INTERNAL_ERROR
    assert raised.value.message == "Internal error processing " + method


@pytest.mark.parametrize("method", sorted(THRIFT1_CALLS))
def test_thrift1_call_with_an_illegal_table_name_is_an_internal_error(raw_client, method):
    for name in BAD_NAMES:
        assert_internal_error(lambda: THRIFT1_CALLS[method](raw_client, name), method)
    assert raw_client.getTableNames() is not None  # the connection goes on


@pytest.mark.parametrize("method", sorted(THRIFT1_ILLEGAL_ARGUMENT_CALLS))
def test_thrift1_mutations_with_an_illegal_table_name_are_illegal_argument(raw_client, method):
    for name in BAD_NAMES:
        with pytest.raises(t1.IllegalArgument) as raised:
            THRIFT1_ILLEGAL_ARGUMENT_CALLS[method](raw_client, name)
        message = raised.value.message
        message = message.decode("utf-8") if isinstance(message, bytes) else message
        # HBase appends the Java stack trace; its first line is the message.
        assert message.split("\n")[0] == "java.lang.IllegalArgumentException: " + ILLEGAL_NAME_MESSAGES[name]


@pytest.mark.parametrize("method", sorted(THRIFT2_DATA_CALLS))
def test_thrift2_data_call_with_an_illegal_table_name_is_an_internal_error(thrift2_client, method):
    for name in BAD_NAMES:
        assert_internal_error(lambda: THRIFT2_DATA_CALLS[method](thrift2_client, name), method)


@pytest.mark.parametrize("method", sorted(THRIFT2_ADMIN_CALLS))
def test_thrift2_admin_call_with_an_illegal_table_name_is_an_internal_error(thrift2_client, method):
    for name in BAD_NAMES:
        if name == b":t":
            continue
        assert_internal_error(lambda: THRIFT2_ADMIN_CALLS[method](thrift2_client, ttable_name(name)),
                              method)
    assert thrift2_client.tableExists(t2.TTableName(qualifier=b"no_such_table_here")) is False
