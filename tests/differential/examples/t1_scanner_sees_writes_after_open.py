# hbase-emulator differential replay script: Thrift1 scanners see rows written between open and first fetch (HBase opens lazily)
# seed 15233, 300 calls shrunk to 5 in 163 runs
# divergence: scannerGetList | value | value |  len 1/2
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift1'
CALLS = [
    Call('createTable', Tab(0), [t1.ColumnDescriptor(name=b'f:', maxVersions=5)]),
    Call('increment', t1.TIncrement(table=Tab(0), row=b'r3', column=b'f:', ammount=0)),
    Call('scannerOpenWithStop', Tab(0), b'r1', b'r5', [b'f:', b'f:'], {}, opens_scanner=7),
    Call('mutateRow', Tab(0), b'r2', [t1.Mutation(column=b'f:', value=b'\x00\x00\x00\x00\x00\x00\x00\x01')], {}),
    Call('scannerGetList', Scanner(7), 2),
]
