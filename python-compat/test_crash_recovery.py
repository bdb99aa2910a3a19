"""Durability under crashes: the server is killed with SIGKILL at random moments while several
clients write, restarted on the same data folder, and every acknowledged write must be there.

The default mode writes each mutation to LevelDB's log before replying, so an acknowledged write
survives the death of the process (docs/server.md#durability). Writes in flight when the process died
may or may not be there; counters must lie between the acknowledged and the attempted count.

HBEMU_CRASH_KILLS sets the number of kills (default 50).
"""

import os
import random
import threading
import time

import pytest

import hbcompat

KILLS = int(os.environ.get("HBEMU_CRASH_KILLS", "50"))
WRITERS = 4
NO_ATTRS = {}


class Ledger:
    """What the clients were told: acknowledged rows, and increments acknowledged / attempted."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rows = {}          # row -> value, acknowledged
        self.new_rows = []      # acknowledged since the last check
        self.incr_acked = 0
        self.incr_attempted = 0


def writer(client, table, ledger, worker, epoch, stop):
    from hbase.ttypes import BatchMutation, Mutation

    seq = 0
    while not stop.is_set():
        rows = [b"w%d-e%03d-s%06d-%d" % (worker, epoch, seq, i) for i in range(5)]
        seq += 1
        try:
            client.mutateRows(table, [BatchMutation(row=r, mutations=[Mutation(column=b"f:v", value=r[::-1])])
                                      for r in rows], NO_ATTRS)
        except Exception:
            return  # the server died; this batch may or may not have landed
        with ledger.lock:
            for r in rows:
                ledger.rows[r] = r[::-1]
            ledger.new_rows.extend(rows)
            ledger.incr_attempted += 1
        try:
            client.atomicIncrement(table, b"counter", b"f:n", 1)
        except Exception:
            return
        with ledger.lock:
            ledger.incr_acked += 1


def check(client, table, ledger, rows):
    for i in range(0, len(rows), 500):
        chunk = rows[i:i + 500]
        got = {r.row: r.columns[b"f:v"].value for r in client.getRowsWithColumns(table, chunk, [b"f:v"], NO_ATTRS)}
        missing = [r for r in chunk if got.get(r) != ledger.rows[r]]
        assert not missing, "%d acknowledged rows lost after a crash, e.g. %r" % (len(missing), missing[:3])
    cells = client.get(table, b"counter", b"f:n", NO_ATTRS)
    value = int.from_bytes(cells[0].value, "big", signed=True) if cells else 0
    assert ledger.incr_acked <= value <= ledger.incr_attempted, (ledger.incr_acked, value, ledger.incr_attempted)


def test_every_acknowledged_write_survives_sigkill(tmp_path, capsys):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    from hbase import Hbase
    from hbase.ttypes import ColumnDescriptor

    rng = random.Random(20261122)
    data = tmp_path / "data"
    table = b"crash_test"
    ledger = Ledger()
    started = time.monotonic()
    for epoch in range(KILLS + 1):
        server = hbcompat.EmulatorProcess(["--data-dir", data, "--port", "0"])
        server.start()
        client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
        if epoch == 0:
            client.createTable(table, [ColumnDescriptor(name=b"f:")])
        # Everything acknowledged before the last kill must be back.
        check(client, table, ledger, ledger.new_rows)
        ledger.new_rows = []
        if epoch == KILLS:
            check(client, table, ledger, sorted(ledger.rows))  # the final, full check
            transport.close()
            assert server.stop() == 0
            break
        transport.close()

        stop = threading.Event()
        threads = []
        for w in range(WRITERS):
            c, t = hbcompat.open_raw_client(server.host, server.port, Hbase)
            th = threading.Thread(target=writer, args=(c, table, ledger, w, epoch, stop), daemon=True)
            th.start()
            threads.append((th, t))
        time.sleep(rng.uniform(0.02, 0.25))
        server.proc.kill()  # SIGKILL: no chance to flush or close anything
        server.proc.wait()
        stop.set()
        for th, t in threads:
            th.join(timeout=10)
            t.close()
        server.discard_log()

    with capsys.disabled():
        print("\ncrash test: %d SIGKILLs during %d concurrent writers; %d acknowledged rows and %d "
              "acknowledged increments all present after restart (%.1f s)"
              % (KILLS, WRITERS, len(ledger.rows), ledger.incr_acked, time.monotonic() - started))
    assert len(ledger.rows) > KILLS * 5, "the writers barely wrote; the test proved little"
