"""Measures the reset and the export/import tools against fresh in-memory emulators.

    .venv/bin/python bench_tools.py reset [--tables 100 --rows 1000 --repeat 5]
    .venv/bin/python bench_tools.py transfer [--rows 100000 --columns 5 --versions 2]

Uses HBASE_EMULATOR_BIN (else build/hbase-emulator). Prints one line per figure.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import hbcompat
from hbase_emulator import reset, thrift2

T = thrift2.ttypes


def start():
    return hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()


def fill(client, table, rows, columns=1, versions=1, batch=1000):
    cells = 0
    for start_row in range(0, rows, batch):
        puts = []
        for r in range(start_row, min(rows, start_row + batch)):
            cvs = [T.TColumnValue(family=b"f", qualifier=b"q%d" % c, value=b"v%08d" % r, timestamp=1000 + v)
                   for c in range(columns) for v in range(versions)]
            puts.append(T.TPut(row=b"row%08d" % r, columnValues=cvs))
            cells += len(cvs)
        client.putMultiple(table, puts)
    return cells


def create(client, name, max_versions=1):
    client.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name), columns=[
        T.TColumnFamilyDescriptor(name=b"f", maxVersions=max_versions)]), None)


def bench_reset(args):
    server = start()
    try:
        with thrift2.client(server.host, server.thrift2_port) as c:
            for t in range(args.tables):
                create(c, "bench%03d" % t)
            times = []
            for _ in range(args.repeat):
                for t in range(args.tables):
                    fill(c, b"bench%03d" % t, args.rows)
                began = time.perf_counter()
                n = reset.reset(c)
                times.append(time.perf_counter() - began)
                assert n == args.tables
                assert not c.getScannerResults(b"bench000", T.TScan(), 1)
            print("reset (truncate, preserve splits) of %d tables x %d rows: median %.1f ms, min %.1f ms"
                  " (%d runs, %d RPCs each)" % (args.tables, args.rows, 1000 * statistics.median(times),
                                                1000 * min(times), args.repeat, 1 + 2 * args.tables))
            began = time.perf_counter()
            for _ in range(20):
                c.getTableNamesByPattern(".*", False)
            rtt = (time.perf_counter() - began) / 20
            print("one small admin RPC (getTableNamesByPattern) round trip: %.2f ms" % (1000 * rtt))
            began = time.perf_counter()
            reset.reset(c, drop=True)
            print("reset (drop) of %d tables: %.1f ms" % (args.tables, 1000 * (time.perf_counter() - began)))
    finally:
        server.stop()


def bench_transfer(args):
    src, dst = start(), start()
    bindir = Path(sys.executable).parent
    try:
        with thrift2.client(src.host, src.thrift2_port) as c:
            create(c, "bench", max_versions=args.versions)
            cells = fill(c, b"bench", args.rows, args.columns, args.versions)
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "dump.jsonl")
            for verb, argv in (
                    ("export", [str(bindir / "hbase-emulator-export"), "--host", src.host, "--port",
                                str(src.thrift2_port), "-o", dump, "-q"]),
                    ("import", [str(bindir / "hbase-emulator-import"), "--host", dst.host, "--port",
                                str(dst.thrift2_port), "-i", dump, "-q"])):
                began = time.perf_counter()
                subprocess.run(argv, check=True)
                elapsed = time.perf_counter() - began
                print("%s of %d cells: %.1f s, %.0f cells/s" % (verb, cells, elapsed, cells / elapsed))
            print("file: %.0f MB; largest tool process RSS: %.0f MB" % (
                os.path.getsize(dump) / 1e6,
                resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0))
    finally:
        src.stop()
        dst.stop()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["reset", "transfer"])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rows", type=int, default=None)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--columns", type=int, default=5)
    p.add_argument("--versions", type=int, default=2)
    args = p.parse_args()
    if args.what == "reset":
        args.rows = args.rows or 1000
        bench_reset(args)
    else:
        args.rows = args.rows or 100000
        bench_transfer(args)


if __name__ == "__main__":
    main()
