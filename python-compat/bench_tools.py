"""Measures the reset and the export/import tools against fresh in-memory emulators.

    .venv/bin/python bench_tools.py reset [--tables 100 --rows 1000 --repeat 5]
    .venv/bin/python bench_tools.py transfer [--rows 100000 --columns 5 --versions 2]
                                             [--binary] [--base64 | --sequencefile]
    .venv/bin/python bench_tools.py happybase [--seconds 3 --repeat 3]

Uses HBASE_EMULATOR_BIN (else build/hbase-emulator). Prints one line per figure.
"""

import argparse
import hashlib
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


def binary_value(r):
    """24 bytes spread over all 256 values: what the text form escapes most (--binary)."""
    return hashlib.sha256(b"%d" % r).digest()[:24]


def fill(client, table, rows, columns=1, versions=1, batch=1000, value=lambda r: b"v%08d" % r):
    cells = 0
    for start_row in range(0, rows, batch):
        puts = []
        for r in range(start_row, min(rows, start_row + batch)):
            cvs = [T.TColumnValue(family=b"f", qualifier=b"q%d" % c, value=value(r), timestamp=1000 + v)
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
            cells = fill(c, b"bench", args.rows, args.columns, args.versions,
                         value=binary_value if args.binary else (lambda r: b"v%08d" % r))
        seq = ["--format", "sequencefile", "-t", "bench"] if args.sequencefile else []
        if args.sequencefile:
            # HBase's Import writes into an existing table.
            with thrift2.client(dst.host, dst.thrift2_port) as d:
                create(d, "bench", max_versions=args.versions)
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "export" if args.sequencefile else "dump.jsonl")
            for verb, argv in (
                    ("export", [str(bindir / "hbase-emulator-export"), "--host", src.host, "--port",
                                str(src.thrift2_port), "-o", dump, "-q"] + seq
                     + (["--base64"] if args.base64 else [])
                     + (["--all-versions"] if args.sequencefile else [])),
                    ("import", [str(bindir / "hbase-emulator-import"), "--host", dst.host, "--port",
                                str(dst.thrift2_port), "-i", dump, "-q"] + seq)):
                began = time.perf_counter()
                subprocess.run(argv, check=True)
                elapsed = time.perf_counter() - began
                print("%s of %d cells: %.1f s, %.0f cells/s" % (verb, cells, elapsed, cells / elapsed))
            size = (sum(os.path.getsize(os.path.join(dump, f)) for f in os.listdir(dump))
                    if os.path.isdir(dump) else os.path.getsize(dump))
            print("file: %.0f MB; largest tool process RSS: %.0f MB" % (
                size / 1e6,
                resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0))
    finally:
        src.stop()
        dst.stop()


def _noop_hbase_server(port_queue):
    """A do-nothing Hbase server on thriftpy2, the library happybase itself uses: getRow answers
    one 100-byte cell, mutateRow returns at once. Runs in its own process (no shared GIL)."""
    import happybase  # noqa: F401  (loads the Hbase_thrift module happybase bundles)
    import Hbase_thrift
    from thriftpy2.protocol import TBinaryProtocolFactory
    from thriftpy2.rpc import make_server
    from thriftpy2.transport import TBufferedTransportFactory

    class Handler:
        def getRow(self, table, row, attributes):
            cell = Hbase_thrift.TCell(value=b"v" * 100, timestamp=1)
            return [Hbase_thrift.TRowResult(row=row, columns={b"f:q": cell})]

        def getRowWithColumns(self, table, row, columns, attributes):
            return self.getRow(table, row, attributes)

        def mutateRow(self, table, row, mutations, attributes):
            return None

        def mutateRows(self, table, batches, attributes):  # happybase's put
            return None

    import socket
    with socket.socket() as probe:  # thriftpy2 takes no port 0
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = make_server(Hbase_thrift.Hbase, Handler(), "127.0.0.1", port,
                         trans_factory=TBufferedTransportFactory(),
                         proto_factory=TBinaryProtocolFactory())
    port_queue.put(port)
    server.serve()


def _happybase_rate(port, op, seconds):
    import happybase
    connection = happybase.Connection("127.0.0.1", port, autoconnect=True)
    table = connection.table("feel")
    value = b"v" * 100
    calls = {"get": lambda i: table.row(b"row%06d" % (i % 1000)),
             "put": lambda i: table.put(b"row%06d" % (i % 1000), {b"f:q": value})}[op]
    calls(0)  # warm-up
    n, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        calls(n)
        n += 1
    rate = n / (time.perf_counter() - start)
    connection.close()
    return rate


def bench_happybase(args):
    """What users feel: one happybase connection against us and against a do-nothing server
    written with happybase's own Thrift library, alternated, best of --repeat."""
    import multiprocessing
    import happybase
    server = start()
    queue = multiprocessing.Queue()
    noop = multiprocessing.Process(target=_noop_hbase_server, args=(queue,), daemon=True)
    noop.start()
    try:
        noop_port = queue.get(timeout=30)
        connection = happybase.Connection(server.host, server.port)
        connection.create_table("feel", {"f": dict(max_versions=1)})
        table = connection.table("feel")
        for i in range(1000):
            table.put(b"row%06d" % i, {b"f:q": b"v" * 100})
        connection.close()
        for op in ("get", "put"):
            ours, reference = 0.0, 0.0
            for _ in range(args.repeat):
                ours = max(ours, _happybase_rate(server.port, op, args.seconds))
                reference = max(reference, _happybase_rate(noop_port, op, args.seconds))
            # Above 1: a happybase user waits less on this server than on one that does nothing
            # in the client's own Thrift library.
            name = {"get": "table.row, 1 cell of 100 B", "put": "table.put, 1 cell"}[op]
            print("happybase %-27s 1 conn [mem]: %6.0f/s   do-nothing thriftpy2 server %6.0f/s"
                  "   ratio %.2f" % (name + ",", ours, reference, ours / reference), flush=True)
    finally:
        noop.terminate()
        server.stop()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["reset", "transfer", "happybase"])
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rows", type=int, default=None)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--columns", type=int, default=5)
    p.add_argument("--versions", type=int, default=2)
    p.add_argument("--binary", action="store_true", help="transfer: random-looking byte values")
    p.add_argument("--base64", action="store_true", help="transfer: export in base64")
    p.add_argument("--sequencefile", action="store_true",
                   help="transfer: in HBase's Export format (a SequenceFile folder)")
    args = p.parse_args()
    if args.what == "happybase":
        bench_happybase(args)
    elif args.what == "reset":
        args.rows = args.rows or 1000
        bench_reset(args)
    else:
        args.rows = args.rows or 100000
        bench_transfer(args)


if __name__ == "__main__":
    main()
