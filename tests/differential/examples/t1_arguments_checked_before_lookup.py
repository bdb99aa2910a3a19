# hbase-emulator differential replay script: Thrift1 argument checks before the table or scanner lookup
# Against HBase 2.6.1 on main e3df648 (2026-11-26): HBase: versions must be positive (IOError, canRetry true), INTERNAL_ERROR for ts -1, IllegalArgument for an unknown scanner with nbRows -1; we: TableNotFound, TableNotFound, INTERNAL_ERROR.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift1'
CALLS = [
    Call('getVer', Tab(9), b'r1', b'f:a', 0, {}),
    Call('scannerOpenTs', Tab(9), b'r1', None, -1, {}, opens_scanner=0),
    Call('scannerGetList', Scanner(None), -1),
]
