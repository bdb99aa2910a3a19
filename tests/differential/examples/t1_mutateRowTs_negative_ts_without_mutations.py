# hbase-emulator differential replay script: Thrift1 mutateRowTs with no mutations and ts -1
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase IllegalArgument (Timestamp cannot be negative), we accept.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift1'
CALLS = [
    Call('createTable', Tab(0), [t1.ColumnDescriptor(name=b'f:')]),
    Call('mutateRowTs', Tab(0), b'r1', [], -1, {}),
]
