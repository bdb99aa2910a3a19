# hbase-emulator differential replay script: Thrift2 scanners open lazily
# Against HBase 2.6.1 on main e3df648 (2026-11-26): openScanner on a missing table succeeds and the first getScannerRows fails; getScannerResults with numRows 0 is []; an unknown id with numRows -1 is TIllegalArgument. We fail at open and answer INTERNAL_ERROR for -1.
# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE
SERVICE = 'thrift2'
CALLS = [
    Call('openScanner', Tab(9), t2.TScan(), opens_scanner=0),
    Call('getScannerRows', Scanner(0), 1),
    Call('getScannerResults', Tab(9), t2.TScan(), 0),
    Call('getScannerRows', Scanner(None), -1),
]
