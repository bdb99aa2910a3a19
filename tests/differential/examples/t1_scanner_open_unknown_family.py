# hbase-emulator differential replay script: Thrift1 scanner open with an unknown family succeeds in HBase (fails at the first fetch)
# seed 11, 200 calls shrunk to 2 in 33 runs
# divergence: scannerOpenWithPrefix | !IOError org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException False | value
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift1'
CALLS = [
    Call('createTable', Tab(0), [t1.ColumnDescriptor(name=b'g:'), t1.ColumnDescriptor(name=b'h:', maxVersions=1, timeToLive=172800)]),
    Call('scannerOpenWithPrefix', Tab(0), b's', [b'zz:a', b'g', b'h:c'], {}, opens_scanner=0),
]
