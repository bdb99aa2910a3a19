# hbase-emulator differential replay script: Thrift2, a row delete HBase drops at compaction (item 4): the ts-2 cell reappears, so the increment finds a 2-byte value
# seed 940105, 300 calls shrunk to 11 in 434 runs
# divergence: increment | value | !TIOError org.apache.hadoop.hbase.DoNotRetryIOException False
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f', dataBlockEncoding=4, maxVersions=1, minVersions=1, timeToLive=3600), t2.TColumnFamilyDescriptor(name=b'g', bloomnFilterType=0, maxVersions=5, timeToLive=172800, inMemory=True), t2.TColumnFamilyDescriptor(name=b'h', compressionType=2, dataBlockEncoding=0, maxVersions=3)]), None),
    Call('put', Tab(0), t2.TPut(row=b'r2', columnValues=[t2.TColumnValue(family=b'f', qualifier=b'', value=b'v3'), t2.TColumnValue(family=b'h', qualifier=b'', value=b'v1')])),
    Call('disableTable', t2.TTableName(qualifier=Tab(0, full=False))),
    Call('enableTable', t2.TTableName(ns=b'default', qualifier=Tab(0, full=False))),
    Call('put', Tab(0), t2.TPut(row=b'r1', columnValues=[t2.TColumnValue(family=b'g', qualifier=b'a', value=b'v2'), t2.TColumnValue(family=b'h', qualifier=b'a', value=b'\x00\x00\x00\x00\x00\x00\x00\x01'), t2.TColumnValue(family=b'g', qualifier=b'a', value=b'v3', timestamp=5)])),
    Call('deleteColumnFamily', t2.TTableName(ns=b'default', qualifier=Tab(0, full=False)), b'f'),
    Call('deleteMultiple', Tab(0), [t2.TDelete(row=b'r2', deleteType=3)]),
    Call('disableTable', t2.TTableName(qualifier=Tab(0, full=False))),
    Call('enableTable', t2.TTableName(ns=b'default', qualifier=Tab(0, full=False))),
    Call('put', Tab(0), t2.TPut(row=b'r2', columnValues=[t2.TColumnValue(family=b'h', qualifier=b'c', value=b'\xff\xff\xff\xff\xff\xff\xff\xfb', timestamp=2), t2.TColumnValue(family=b'h', qualifier=b'b', value=b'\x00\x01', timestamp=2)])),
    Call('increment', Tab(0), t2.TIncrement(row=b'r2', columns=[t2.TColumnIncrement(family=b'h', qualifier=b'b')], returnResults=False)),
]
