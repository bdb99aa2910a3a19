"""Thrift2 (THBaseService) through the client the hbase_emulator package ships."""

from hbase_emulator import thrift2

T = thrift2.ttypes


def test_put_get_and_filtered_scan(target, table_name):
    client = thrift2.connect(target.host, target.thrift2, timeout_ms=60000)
    try:
        tname = thrift2.split_table_name(table_name)
        client.createTable(T.TTableDescriptor(
            tableName=tname, columns=[T.TColumnFamilyDescriptor(name=b"f")]), None)
        assert client.tableExists(tname)
        table = table_name.encode()
        for i in range(5):
            client.put(table, T.TPut(row=b"row%d" % i, columnValues=[
                T.TColumnValue(family=b"f", qualifier=b"n", value=b"%d" % (i * i))]))

        got = client.get(table, T.TGet(row=b"row3"))
        assert got.row == b"row3"
        assert [(c.family, c.qualifier, c.value) for c in got.columnValues] == [(b"f", b"n", b"9")]
        assert client.exists(table, T.TGet(row=b"row9")) is False

        scan = T.TScan(startRow=b"row1", stopRow=b"row4")
        assert [r.row for r in client.getScannerResults(table, scan, 10)] == [b"row1", b"row2", b"row3"]
        filtered = T.TScan(filterString=b"ValueFilter(=, 'binary:16')")
        assert [(r.row, r.columnValues[0].value) for r in client.getScannerResults(table, filtered, 10)] \
            == [(b"row4", b"16")]

        client.disableTable(tname)
        client.deleteTable(tname)
        assert not client.tableExists(tname)
    finally:
        client.close()
