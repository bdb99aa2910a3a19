"""Builds the source table of the Export fixtures on a Thrift2 gateway, or records what a
Thrift2 scan of it shows (every version), for make_export_fixtures.sh.

    python export_fixture_table.py create HOST:PORT TABLE
    python export_fixture_table.py record HOST:PORT TABLE OUT.json

The table holds what the SequenceFile import must carry over: binary row keys, an empty
qualifier, several versions with explicit timestamps, a value holding every byte, and delete
markers of all four kinds (each masking some puts and sparing others), all with explicit
timestamps so that the fixtures are the same on every run.
"""

import json
import sys

from hbase_emulator import bytes_text, thrift2

T = thrift2.ttypes
ALL_VERSIONS = 2147483647


def _put(row, family, qualifier, ts, value):
    return T.TPut(row=row, columnValues=[T.TColumnValue(family=family, qualifier=qualifier,
                                                        value=value, timestamp=ts)])


def create(client, name):
    tname = thrift2.split_table_name(name)
    client.createTable(T.TTableDescriptor(tableName=tname, columns=[
        T.TColumnFamilyDescriptor(name=b"f", maxVersions=5),
        T.TColumnFamilyDescriptor(name=b"g", maxVersions=3)]), None)
    table = thrift2.table_name_bytes(name)
    puts = [
        _put(b"\x00\x01bin\xff", b"f", b"q", 1000, b"v1000"),
        _put(b"\x00\x01bin\xff", b"f", b"q", 2000, b"v2000"),
        _put(b"\x00\x01bin\xff", b"f", b"q", 3000, b"v3000"),
        _put(b"\x00\x01bin\xff", b"f", b"", 1500, b"empty qualifier"),
        _put(b"\x00\x01bin\xff", b"g", b"\x00\xff", 1500, b""),
        _put(b"all-bytes", b"f", b"v", 4000, bytes(range(256))),
        _put(b"\xff\xfe", b"g", b"x", 100, b"a"),
        _put(b"\xff\xfe", b"g", b"x", 200, b"b"),
        # DeleteColumn f:a at 20 masks 10 and 20, spares 30.
        _put(b"dc", b"f", b"a", 10, b"x"), _put(b"dc", b"f", b"a", 20, b"y"),
        _put(b"dc", b"f", b"a", 30, b"z"),
        # Delete (one version) f:a at 10 spares 20.
        _put(b"dv", b"f", b"a", 10, b"x"), _put(b"dv", b"f", b"a", 20, b"y"),
        # DeleteFamily f at 20 masks f:a@10, spares f:b@50 and g.
        _put(b"df", b"f", b"a", 10, b"x"), _put(b"df", b"f", b"b", 50, b"y"),
        _put(b"df", b"g", b"c", 10, b"z"),
        # DeleteFamilyVersion f at 10 masks f:a@10 and f:b@10, spares f:b@20.
        _put(b"dfv", b"f", b"a", 10, b"x"), _put(b"dfv", b"f", b"b", 10, b"y"),
        _put(b"dfv", b"f", b"b", 20, b"z"),
        # A whole-row delete at 100 (a DeleteFamily marker per family) masks everything.
        _put(b"gone", b"f", b"a", 5, b"x"), _put(b"gone", b"g", b"b", 6, b"y"),
    ]
    for p in puts:
        client.put(table, p)
    deletes = [
        T.TDelete(row=b"dc", columns=[T.TColumn(family=b"f", qualifier=b"a", timestamp=20)],
                  deleteType=T.TDeleteType.DELETE_COLUMNS),
        T.TDelete(row=b"dv", columns=[T.TColumn(family=b"f", qualifier=b"a", timestamp=10)],
                  deleteType=T.TDeleteType.DELETE_COLUMN),
        T.TDelete(row=b"df", columns=[T.TColumn(family=b"f", timestamp=20)],
                  deleteType=T.TDeleteType.DELETE_FAMILY),
        T.TDelete(row=b"dfv", columns=[T.TColumn(family=b"f", timestamp=10)],
                  deleteType=T.TDeleteType.DELETE_FAMILY_VERSION),
        T.TDelete(row=b"gone", timestamp=100),
    ]
    for d in deletes:
        client.deleteSingle(table, d)


def record(client, name):
    scanner = client.openScanner(thrift2.table_name_bytes(name), T.TScan(maxVersions=ALL_VERSIONS))
    tsb = bytes_text.to_string_binary
    cells = []
    try:
        while True:
            rows = client.getScannerRows(scanner, 1000)
            if not rows:
                break
            for r in rows:
                cells += [{"row": tsb(r.row), "family": tsb(c.family), "qualifier": tsb(c.qualifier),
                           "timestamp": c.timestamp, "value": tsb(c.value)} for c in r.columnValues]
    finally:
        client.closeScanner(scanner)
    return {"table": name, "scan": "Thrift2 scan, every version (byte strings as toStringBinary)",
            "cells": cells}


def main(argv):
    action, endpoint, name = argv[:3]
    host, _, port = endpoint.rpartition(":")
    with thrift2.client(host, int(port)) as client:
        if action == "create":
            create(client, name)
        elif action == "record":
            with open(argv[3], "w") as out:
                json.dump(record(client, name), out, indent=1)
                out.write("\n")
        else:
            raise SystemExit("unknown action %r" % action)


if __name__ == "__main__":
    main(sys.argv[1:])
