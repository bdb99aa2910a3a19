# hbase-emulator differential replay script: Thrift2 descriptors
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase keeps durability=USE_DEFAULT as a DURABILITY attribute and answers getTableDescriptors([]) with every table; we do neither.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f')], durability=0), None),
    Call('getTableDescriptors', []),
    Call('getTableDescriptor', t2.TTableName(qualifier=Tab(0, full=False))),
]
