# hbase-emulator differential replay script: Thrift1 append without columns
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase INTERNAL_ERROR, we answer [].
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift1'
CALLS = [
    Call('createTable', Tab(0), [t1.ColumnDescriptor(name=b'f:')]),
    Call('append', t1.TAppend(table=Tab(0), row=b'r1', columns=[], values=[])),
]
