"""A bounded soak: 64 connections of mixed calls (puts, gets, scans, increments on shared
counters, checkAndPut races) against one on-disk server, then invariants: each counter equals
the increments acknowledged, no acknowledged put is missing, every checkAndPut claim has exactly
one winner, and the server's RSS levels off instead of growing with time.

HBEMU_SOAK_SECONDS sets the duration (default 20).
"""

import os
import random
import threading
import time

import pytest

import hbcompat

SECONDS = float(os.environ.get("HBEMU_SOAK_SECONDS", "20"))
CONNECTIONS = 64
COUNTERS = 8
CLAIMS = 200
NO_ATTRS = {}



def test_soak_64_connections_of_mixed_calls(tmp_path, capsys):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    from hbase import Hbase
    from hbase.ttypes import ColumnDescriptor, Mutation

    server = hbcompat.EmulatorProcess(["--data-dir", tmp_path / "data", "--port", "0"])
    server.start()
    admin, admin_transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    table = b"soak"
    admin.createTable(table, [ColumnDescriptor(name=b"f:")])

    lock = threading.Lock()
    acked_puts = {}
    acked_increments = [0] * COUNTERS
    claim_wins = {}
    ops = [0]
    errors = []
    stop = threading.Event()

    def worker(n):
        rng = random.Random(n)
        client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
        mine = []
        done = 0
        try:
            while not stop.is_set():
                choice = rng.random()
                if choice < 0.35:
                    row = b"p%02d-%07d" % (n, done)
                    client.mutateRow(table, row, [Mutation(column=b"f:v", value=row)], NO_ATTRS)
                    mine.append(row)
                    with lock:
                        acked_puts[row] = row
                elif choice < 0.55 and mine:
                    row = rng.choice(mine)
                    cells = client.get(table, row, b"f:v", NO_ATTRS)
                    assert [c.value for c in cells] == [row]
                elif choice < 0.65:
                    sid = client.scannerOpenWithPrefix(table, b"p%02d-" % n, [b"f:v"], NO_ATTRS)
                    rows = client.scannerGetList(sid, 50)
                    client.scannerClose(sid)
                    assert [r.row for r in rows] == mine[:50]
                elif choice < 0.9:
                    k = rng.randrange(COUNTERS)
                    client.atomicIncrement(table, b"counter-%d" % k, b"f:n", 1)
                    with lock:
                        acked_increments[k] += 1
                else:
                    k = rng.randrange(CLAIMS)
                    owner = b"worker-%d" % n
                    if client.checkAndPut(table, b"claim-%d" % k, b"f:owner", None,
                                          Mutation(column=b"f:owner", value=owner), NO_ATTRS):
                        with lock:
                            assert k not in claim_wins, "two checkAndPut winners for one claim"
                            claim_wins[k] = owner
                done += 1
        except Exception as e:  # reported below; the main thread asserts on it
            errors.append("worker %d: %r" % (n, e))
        finally:
            transport.close()
            with lock:
                ops[0] += done

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(CONNECTIONS)]
    started = time.monotonic()
    for t in threads:
        t.start()
    samples = []
    while time.monotonic() - started < SECONDS:
        time.sleep(SECONDS / 20)
        samples.append(hbcompat.proc_status_kib(server.proc.pid, "VmRSS"))
    stop.set()
    for t in threads:
        t.join(timeout=30)
    elapsed = time.monotonic() - started
    assert not errors, errors[:5]

    # Invariants.
    for k in range(COUNTERS):
        cells = admin.get(table, b"counter-%d" % k, b"f:n", NO_ATTRS)
        value = int.from_bytes(cells[0].value, "big", signed=True) if cells else 0
        assert value == acked_increments[k], (k, value, acked_increments[k])
    rows = sorted(acked_puts)
    for i in range(0, len(rows), 1000):
        chunk = rows[i:i + 1000]
        got = {r.row for r in admin.getRowsWithColumns(table, chunk, [b"f:v"], NO_ATTRS)}
        assert got == set(chunk), "acknowledged puts missing"
    for k, owner in claim_wins.items():
        assert admin.get(table, b"claim-%d" % k, b"f:owner", NO_ATTRS)[0].value == owner

    # RSS levels off: the last third grows little over the middle third.
    third = len(samples) // 3
    middle, last = max(samples[third:2 * third]), max(samples[2 * third:])
    admin_transport.close()
    assert server.stop() == 0
    with capsys.disabled():
        print("\nsoak: %d connections, %d operations in %.1f s (%.0f ops/s); %d puts, %d increments, "
              "%d claims verified; RSS %d -> %d -> %d KiB (first, middle max, last max)"
              % (CONNECTIONS, ops[0], elapsed, ops[0] / elapsed, len(rows), sum(acked_increments),
                 len(claim_wins), samples[0], middle, last))
    if os.environ.get("HBEMU_UNDER_SANITIZER") != "1":  # ASan's quarantine grows RSS by design
        assert last <= middle * 1.25 + 8192, "RSS keeps growing: %s" % samples
