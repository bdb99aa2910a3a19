# hbase-emulator differential replay script: Thrift2 checks HBase makes while converting
# Against HBase 2.6.1 on main e3df648 (2026-11-26): row mismatch before the empty put (TIOError canRetry true); an empty row in getMultiple and in get on a missing table is INTERNAL_ERROR; DELETE_FAMILY_VERSION at Long.MAX_VALUE with TDelete.timestamp -1 is accepted.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f'), t2.TColumnFamilyDescriptor(name=b'h')]), None),
    Call('mutateRow', Tab(0), t2.TRowMutations(row=b'r1', mutations=[t2.TMutation(put=t2.TPut(row=b'r9', columnValues=[]))])),
    Call('getMultiple', Tab(0), [t2.TGet(row=b''), t2.TGet(row=b'r1')]),
    Call('get', Tab(9), t2.TGet(row=b'')),
    Call('deleteSingle', Tab(0), t2.TDelete(row=b'r1', columns=[t2.TColumn(family=b'f', timestamp=9223372036854775807)], timestamp=-1, deleteType=3)),
]
