# hbase-emulator differential replay script: Thrift2 reversed scan with ColumnValueFilter
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase: DoNotRetryIOException Reverse scan with loading CFs on demand is not supported; we return rows (and [] under WHILE).
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f'), t2.TColumnFamilyDescriptor(name=b'h')]), None),
    Call('put', Tab(0), t2.TPut(row=b'r1', columnValues=[t2.TColumnValue(family=b'h', qualifier=b'c', value=b'v2'), t2.TColumnValue(family=b'f', qualifier=b'a', value=b'x')])),
    Call('getScannerResults', Tab(0), t2.TScan(columns=[t2.TColumn(family=b'f', qualifier=b'a'), t2.TColumn(family=b'h')], filterString=b"WHILE ColumnValueFilter('h', 'c', =, 'binary:v2')", reversed=True), 5),
    Call('getScannerResults', Tab(0), t2.TScan(columns=[t2.TColumn(family=b'f', qualifier=b'a'), t2.TColumn(family=b'h')], filterString=b"ColumnValueFilter('h', 'c', =, 'binary:v2')", reversed=True), 5),
]
