"""Tools for testing against hbase-emulator (or any HBase Thrift gateway) from Python.

* `hbase_emulator.server`: start the server binary on free ports and wait for its readiness line.
* `hbase_emulator.thrift2`: a Thrift2 (THBaseService) client, built at run time by thriftpy2 from
  the IDL file shipped inside this package, so no Thrift compiler is needed.
* `hbase_emulator.reset`: empty every user table (keeping schemas and splits) or drop everything.
* `hbase_emulator.transfer`: export/import tables and schema as JSON Lines, bytes in HBase's
  printable form or base64 (console scripts `hbase-emulator-export` and `hbase-emulator-import`).
* `hbase_emulator.importtsv`: load a TSV file as HBase's ImportTsv does (`hbase-emulator-importtsv`).
* `hbase_emulator.pytest_plugin`: the pytest plugin (entry point `hbase_emulator`).
"""
