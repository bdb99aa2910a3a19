# hbase-emulator differential replay script: Thrift2 scanners see rows written between open and first fetch
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase returns r2, we do not.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f')]), None),
    Call('put', Tab(0), t2.TPut(row=b'r1', columnValues=[t2.TColumnValue(family=b'f', qualifier=b'a', value=b'v1')])),
    Call('openScanner', Tab(0), t2.TScan(), opens_scanner=0),
    Call('put', Tab(0), t2.TPut(row=b'r2', columnValues=[t2.TColumnValue(family=b'f', qualifier=b'a', value=b'v2')])),
    Call('getScannerRows', Scanner(0), 10),
]
