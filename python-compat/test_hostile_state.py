"""Hostile clients against the state the server keeps between and within calls: scanners left
open by the hundred thousand, scanners abandoned, a scanner fetch asking for 2^31 rows, a batch
whose rows fail for 40,000 different reasons, and a 2M-row mutateRows to a table that does not
exist. Each test starts its own server, attacks it, and checks that the process is alive, that a
bystander connection still gets answers, that its memory stays under a stated bound (VmRSS, or
VmHWM for a peak, from /proc) and that the attacker gets the documented answer (docs/limits.md,
COMPATIBILITY.md).
"""

import os
import socket
import struct
import time

import pytest

import hbcompat

from hbase import Hbase
from hbase.ttypes import BatchMutation, ColumnDescriptor, IllegalArgument, IOError, Mutation, TScan
from hbase2 import THBaseService
from hbase2.ttypes import TIllegalArgument, TScan as T2Scan

MIB = 1 << 20
BATCH_FAILED = "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: "


def rss_mib(server):
    return hbcompat.server_rss_mib(server.proc.pid)


def peak_mib(server):
    return hbcompat.proc_status_kib(server.proc.pid, "VmHWM") / 1024.0


class Bystander:
    """A client connected before the attack, on a table of its own, on both services."""

    def __init__(self, server):
        self.t1, self._tr1 = hbcompat.open_raw_client(server.host, server.port, Hbase)
        self.t2, self._tr2 = hbcompat.open_raw_client(server.host, server.thrift2_port,
                                                      THBaseService)
        self.table = b"bystander"
        self.t1.createTable(self.table, [ColumnDescriptor(name=b"f:")])
        self.t1.mutateRow(self.table, b"row", [Mutation(column=b"f:q", value=b"still here")], {})

    def check(self, server):
        assert server.proc.poll() is None, "the server died: " + server.stderr_text()
        rows = self.t1.getRow(self.table, b"row", {})
        assert rows and rows[0].columns[b"f:q"].value == b"still here"
        from hbase2.ttypes import TGet
        assert self.t2.get(self.table, TGet(row=b"row")).columnValues[0].value == b"still here"

    def close(self):
        self._tr1.close()
        self._tr2.close()


def start(server_factory, *flags):
    server = server_factory(flags=list(flags))
    return server, Bystander(server)


def open_scanners(client, open_one, count, chunk=500):
    """Opens `count` scanners over one connection, pipelining `chunk` calls at a time."""
    ids = []
    send, recv = open_one
    while len(ids) < count:
        n = min(chunk, count - len(ids))
        for _ in range(n):
            send()
        ids.extend(recv() for _ in range(n))
    return ids


def scanner_openers(server, table):
    t1, tr1 = hbcompat.open_raw_client(server.host, server.port, Hbase)
    t2, tr2 = hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService)
    thrift1 = (lambda: t1.send_scannerOpenWithScan(table, TScan(), {}), t1.recv_scannerOpenWithScan)
    thrift2 = (lambda: t2.send_openScanner(table, T2Scan()), t2.recv_openScanner)
    return t1, t2, thrift1, thrift2, (tr1, tr2)


def fill(client, table, rows, value=b"v"):
    client.createTable(table, [ColumnDescriptor(name=b"f:")])
    for start in range(0, rows, 500):
        client.mutateRows(table, [BatchMutation(row=b"r%06d" % i,
                                                mutations=[Mutation(column=b"f:q", value=value)])
                                  for i in range(start, min(rows, start + 500))], {})


# ---------------------------------------------------------------- open scanners

def test_scanners_past_the_cap_close_the_longest_idle_and_memory_stays_flat(server_factory):
    # Before: 100k + 100k scanners took RSS from 8 to 296 MiB (300k + 300k: 866 MiB).
    server, bystander = start(server_factory, "--limit", "open_scanners=1000")
    fill(bystander.t1, b"scanned", 10)
    baseline = rss_mib(server)
    t1, t2, thrift1, thrift2, transports = scanner_openers(server, b"scanned")
    try:
        ids1 = open_scanners(t1, thrift1, 100000)
        ids2 = open_scanners(t2, thrift2, 100000)
        bystander.check(server)
        assert rss_mib(server) < baseline + 40, "RSS %.0f MiB from %.0f" % (rss_mib(server),
                                                                            baseline)
        # The newest scanners are open; the longest idle were closed, and their next use gets
        # the error an expired scanner gets.
        assert len(t1.scannerGetList(ids1[-1], 100)) == 10
        assert len(t2.getScannerRows(ids2[-1], 100)) == 10
        with pytest.raises(IllegalArgument) as e:
            t1.scannerGet(ids1[0])
        assert e.value.message == "scanner ID is invalid"
        with pytest.raises(TIllegalArgument) as e:
            t2.getScannerRows(ids2[0], 1)
        assert e.value.message == "Invalid scanner Id"
        bystander.check(server)
    finally:
        for transport in transports:
            transport.close()
        bystander.close()


@pytest.mark.skipif(os.environ.get("HBEMU_UNDER_SANITIZER") == "1",
                    reason="timing and memory of a 2-core release build; ASan is 5-10x slower")
def test_idle_scanners_expire_on_a_timer_without_another_scanner_call(server_factory):
    # Before: scanners expired only at that service's next scanner call; 30k + 30k abandoned
    # scanners held RSS at 95 MiB for as long as no scanner call came.
    server, bystander = start(server_factory, "--scanner-timeout-ms", "1500",
                              "--limit", "open_scanners=100000")
    fill(bystander.t1, b"scanned", 10)
    baseline = rss_mib(server)
    t1, t2, thrift1, thrift2, transports = scanner_openers(server, b"scanned")
    try:
        ids1 = open_scanners(t1, thrift1, 30000)
        ids2 = open_scanners(t2, thrift2, 30000)
        grown = rss_mib(server)
        # No scanner call from here on: only bystander reads, which touch no scanner. Scanners
        # open at their first fetch (as HBase's), so these hold little: wait past the timeout too.
        idle_until = time.monotonic() + 3
        deadline = time.monotonic() + 60
        while ((rss_mib(server) > baseline + 20 or time.monotonic() < idle_until)
               and time.monotonic() < deadline):
            bystander.check(server)
            time.sleep(0.5)
        assert rss_mib(server) < baseline + 20, (
            "RSS %.0f MiB (baseline %.0f, %.0f with the scanners open)"
            % (rss_mib(server), baseline, grown))
        with pytest.raises(IllegalArgument) as e:
            t1.scannerGet(ids1[-1])
        assert e.value.message == "scanner ID is invalid"
        with pytest.raises(TIllegalArgument) as e:
            t2.getScannerRows(ids2[-1], 1)
        assert e.value.message == "Invalid scanner Id"
        bystander.check(server)
    finally:
        for transport in transports:
            transport.close()
        bystander.close()


# ---------------------------------------------------------------- scanner fetches

def test_a_fetch_of_two_billion_rows_returns_a_bounded_reply_and_the_scan_goes_on(server_factory):
    # 2,000 rows of 20 KB (40 MB). Before, one fetch of numRows 2^31-1 gathered every row, then
    # converted and wrote them (the reply alone was 40 MB).
    server, bystander = start(server_factory, "--limit", "reply_bytes=1M",
                              "--limit", "scanner_rows_per_call=1500")
    value = b"x" * 20000
    fill(bystander.t1, b"big", 2000, value)
    t1, t2, _, _, transports = scanner_openers(server, b"big")
    try:
        peak_before = peak_mib(server)
        id1 = t1.scannerOpenWithScan(b"big", TScan(), {})
        id2 = t2.openScanner(b"big", T2Scan())
        sizes1, sizes2 = [], []
        while not sizes1 or sizes1[-1]:
            sizes1.append(len(t1.scannerGetList(id1, 2 ** 31 - 1)))
        while not sizes2 or sizes2[-1]:
            sizes2.append(len(t2.getScannerRows(id2, 2 ** 31 - 1)))
        once = t2.getScannerResults(b"big", T2Scan(), 2 ** 31 - 1)
        # Each fetch stops once it holds 1 MiB: 53 rows of 20 KB; the scan goes on.
        assert sum(sizes1) == 2000 and sum(sizes2) == 2000
        assert max(sizes1) == 53 and max(sizes2) == 53 and len(once) == 53
        # Under AddressSanitizer freed blocks wait in its quarantine instead of being reused, so
        # the peak follows the bytes allocated, not the bytes held at once: measured on the
        # release build (the suite's first run) only. The ASan build's peak used to pass here
        # only because filling the table had peaked higher (a 40 MB receive buffer copied when
        # it grew, which now moves its pages).
        if os.environ.get("HBEMU_UNDER_SANITIZER") != "1":
            assert peak_mib(server) < peak_before + 25, "peak %.0f MiB from %.0f" % (
                peak_mib(server), peak_before)
        # The row cap, with small rows: scanner_rows_per_call rows, then the rest.
        fill(bystander.t1, b"small", 2000)
        id1 = t1.scannerOpenWithScan(b"small", TScan(), {})
        assert [len(t1.scannerGetList(id1, 2 ** 31 - 1)) for _ in range(3)] == [1500, 500, 0]
        bystander.check(server)
    finally:
        for transport in transports:
            transport.close()
        bystander.close()


# ---------------------------------------------------------------- batches

def test_forty_thousand_distinct_row_failures_are_reported_each_once(server_factory):
    # Before: building the failure text compared every cause with every other (40k rows:
    # 3.7 s on an idle machine, 18 s on a busy one); it is linear now (0.5 s, mostly the client).
    server, bystander = start(server_factory)
    bystander.t1.createTable(b"t", [ColumnDescriptor(name=b"f:")])
    client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase,
                                                 timeout_ms=120000)
    baseline = rss_mib(server)
    rows = [BatchMutation(row=b"r%06d" % i, mutations=[Mutation(column=b"nf%06d:q" % i,
                                                                value=b"v")])
            for i in range(40000)]
    try:
        with pytest.raises(IOError) as e:
            client.mutateRows(b"t", rows, {})
        message = hbcompat.text(e.value.message)
        assert message.startswith(
            BATCH_FAILED + "Failed 40000 actions: org.apache.hadoop.hbase.regionserver."
            "NoSuchColumnFamilyException: Column family nf000000 does not exist")
        assert message.count(": 1 time, ") == 40000
        assert e.value.canRetry
        assert rss_mib(server) < baseline + 100
        bystander.check(server)
    finally:
        transport.close()
        bystander.close()


def mutate_rows_message(table, rows):
    """A binary mutateRows call of `rows` one-put rows, written directly (a Python client
    takes a minute to build 2M BatchMutation objects)."""
    parts = [struct.pack(">Ii", 0x80010001, 10), b"mutateRows", struct.pack(">i", 1),
             b"\x0b\x00\x01", struct.pack(">I", len(table)), table,
             b"\x0f\x00\x02\x0c", struct.pack(">i", rows)]
    mutations = (b"\x0f\x00\x02\x0c" + struct.pack(">i", 1) + b"\x02\x00\x01\x00" +
                 b"\x0b\x00\x02" + struct.pack(">I", 3) + b"f:q" +
                 b"\x0b\x00\x03" + struct.pack(">I", 1) + b"v" + b"\x00" + b"\x00")
    parts.extend(b"\x0b\x00\x01\x00\x00\x00\x08" + b"r%07d" % i + mutations for i in range(rows))
    parts.append(b"\x0d\x00\x03\x0b\x0b\x00\x00\x00\x00\x00")  # empty attributes, stop
    return b"".join(parts)


@pytest.mark.skipif(os.environ.get("HBEMU_UNDER_SANITIZER") == "1",
                    reason="timing and memory of a 2-core release build; ASan is 5-10x slower")
def test_two_million_row_mutate_rows_to_a_missing_table_builds_nothing_per_row(server_factory):
    # Before: the 94 MB call peaked at +507 MiB (views of every row, then a Put and a Delete
    # batch of views, then 2M copies of the table name for the failure text) for a 180-byte
    # reply. Now the rows are only counted as they are read: the peak is the message itself.
    server, bystander = start(server_factory)
    message = mutate_rows_message(b"missing", 2000000)
    peak_before = peak_mib(server)
    sock = socket.create_connection((server.host, server.port), timeout=120)
    try:
        sock.sendall(message)
        reply = b""
        while b"servers with issues: null" not in reply:
            chunk = sock.recv(65536)
            assert chunk, "connection closed; reply so far %r" % reply
            reply += chunk
    finally:
        sock.close()
    assert (BATCH_FAILED + "Failed 2000000 actions: missing: 2000000 times, servers with "
            "issues: null").encode() in reply
    growth = peak_mib(server) - peak_before
    assert growth < len(message) / MIB + 120, "peak grew %.0f MiB for a %.0f MiB call" % (
        growth, len(message) / MIB)
    bystander.check(server)
    bystander.close()


# ---------------------------------------------------------------- multi-get results

def get_rows_message(table, row, times):
    """A binary getRows call naming `row` `times` times, written directly."""
    parts = [struct.pack(">Ii", 0x80010001, 7), b"getRows", struct.pack(">i", 1),
             b"\x0b\x00\x01", struct.pack(">I", len(table)), table,
             b"\x0f\x00\x02\x0b", struct.pack(">i", times),
             (struct.pack(">I", len(row)) + row) * times,
             b"\x0d\x00\x03\x0b\x0b\x00\x00\x00\x00\x00"]  # empty attributes, stop
    return b"".join(parts)


def call_raw(server, message, until):
    sock = socket.create_connection((server.host, server.port), timeout=300)
    try:
        sock.sendall(message)
        reply = b""
        while until not in reply:
            chunk = sock.recv(65536)
            assert chunk, "connection closed; reply so far %r" % reply[:300]
            reply += chunk
        return reply
    finally:
        sock.close()


@pytest.mark.skipif(os.environ.get("HBEMU_UNDER_SANITIZER") == "1",
                    reason="memory of a 2-core release build; ASan keeps freed blocks")
def test_multi_gets_past_the_result_budget_fail_with_the_limit_and_memory_stays_bounded(
        server_factory):
    # Before: getRows naming one 40 MB row 25 times took +2.0 GB and answered 1 GB; naming one
    # small row 2M times took +0.9-1.4 GB. result_bytes (256 MiB) now fails the call first.
    from hbase2.ttypes import TGet, TIOError

    server, bystander = start(server_factory)
    t1 = bystander.t1
    t1.createTable(b"wide", [ColumnDescriptor(name=b"f:")])
    chunk = b"x" * (10 * MIB - 64)  # under hbase.client.keyvalue.maxsize per cell
    t1.mutateRow(b"wide", b"big", [Mutation(column=b"f:%d" % i, value=chunk) for i in range(4)],
                 {})
    t1.mutateRow(b"wide", b"small", [Mutation(column=b"f:q", value=b"v")], {})
    peak_before = peak_mib(server)
    # One small row named two million times: each result costs memory beyond its bytes.
    reply = call_raw(server, get_rows_message(b"wide", b"small", 2000000), b"result_bytes")
    assert b"MultiActionResultTooLarge" in reply
    growth = peak_mib(server) - peak_before
    assert growth < 350, "peak grew %.0f MiB" % growth
    with pytest.raises(IOError) as raised:
        t1.getRows(b"wide", [b"big"] * 25, {})
    assert "result_bytes limit of 268435456 bytes" in raised.value.message
    assert raised.value.message.startswith("org.apache.hadoop.hbase.MultiActionResultTooLarge: ")
    assert raised.value.canRetry is False
    with pytest.raises(TIOError) as raised2:
        bystander.t2.getMultiple(b"wide", [TGet(row=b"big")] * 25)
    assert "result_bytes limit of 268435456 bytes" in raised2.value.message
    # Thrift2 reads every row of the batch before converting: about 7 rows of 40 MB are held.
    growth = peak_mib(server) - peak_before
    assert growth < 500, "peak grew %.0f MiB" % growth
    # Under the budget the same call is answered in full.
    assert len(t1.getRows(b"wide", [b"big"] * 3, {})) == 3
    bystander.check(server)
    bystander.close()
