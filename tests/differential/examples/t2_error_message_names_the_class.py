# hbase-emulator differential replay script: Thrift2 region-server errors name the Java class
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase: org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: ...; we: the bare text.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('createTable', t2.TTableDescriptor(tableName=t2.TTableName(qualifier=Tab(0, full=False)), columns=[t2.TColumnFamilyDescriptor(name=b'f'), t2.TColumnFamilyDescriptor(name=b'h')]), None),
    Call('put', Tab(0), t2.TPut(row=b'r1', columnValues=[t2.TColumnValue(family=b'zz', qualifier=b'a', value=b'v')])),
]
