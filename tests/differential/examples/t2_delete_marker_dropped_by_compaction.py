# hbase-emulator differential replay script: Thrift2, a delete marker HBase drops when it compacts after three flushes (issue 24 item 4); the put at ts 100 reappears there
# seed 15233, 300 calls shrunk to 14 in 484 runs
# divergence: get | value | value | TResult.columnValues len 2/3
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(1, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'g', compressionType=2, maxVersions=3)], durability=0), None),
    Call('put', Tab(1), t2.TPut(row=b'r2', columnValues=[t2.TColumnValue(family=b'g', qualifier=b'', value=b'longer value'), t2.TColumnValue(family=b'g', qualifier=b'a', value=b'\xff\xff\xff\xff\xff\xff\xff\xfb'), t2.TColumnValue(family=b'g', qualifier=b'a', value=b'\x00\x00\x00\x00\x00\x00\x00\x01', timestamp=100)])),
    Call('disableTable', t2.TTableName(qualifier=Tab(1, full=False))),
    Call('enableTable', t2.TTableName(ns=b'default', qualifier=Tab(1, full=False))),
    Call('deleteSingle', Tab(1), t2.TDelete(row=b'r2', columns=[t2.TColumn(family=b'g', qualifier=b'a')], deleteType=0)),
    Call('disableTable', t2.TTableName(qualifier=Tab(1, full=False))),
    Call('enableTable', t2.TTableName(qualifier=Tab(1, full=False))),
    Call('deleteSingle', Tab(1), t2.TDelete(row=b'r2', columns=[t2.TColumn(family=b'g', qualifier=b'c'), t2.TColumn(family=b'g', qualifier=b'c')], timestamp=Now())),
    Call('disableTable', t2.TTableName(qualifier=Tab(1, full=False))),
    Call('enableTable', t2.TTableName(qualifier=Tab(1, full=False))),
    Call('put', Tab(1), t2.TPut(row=b'r2', columnValues=[t2.TColumnValue(family=b'g', qualifier=b'c', value=b'\x00\x01', timestamp=100), t2.TColumnValue(family=b'g', qualifier=b'b', value=b'', timestamp=5)])),
    Call('deleteSingle', Tab(1), t2.TDelete(row=b'r2', columns=[t2.TColumn(family=b'g', qualifier=b'b')])),
    Call('increment', Tab(1), t2.TIncrement(row=b'r4', columns=[t2.TColumnIncrement(family=b'g', qualifier=b'c')], returnResults=True)),
    Call('get', Tab(1), t2.TGet(row=b'r2', maxVersions=1)),
]
