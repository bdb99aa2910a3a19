"""A put right after a restart that came inside a burst of increments is the newest version of
its column: the marks that date server writes past the burst's counter survive the restart.

These tests start their own servers, so they skip when HBASE_THRIFT_TARGET is set.
"""

import time

import happybase

import hbcompat

BURST = 4000  # increments of one column, far faster than one per millisecond


def connect(server):
    return happybase.Connection(server.host, server.port, timeout=hbcompat.CLIENT_TIMEOUT_MS)


def test_put_after_restart_inside_an_increment_burst_is_visible(server_factory, tmp_path):
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    conn.create_table("burst", {"f": {"max_versions": 1}})
    table = conn.table("burst")
    started = time.time()
    for _ in range(BURST):
        table.counter_inc(b"r", b"f:n")
    _, counter_ts = table.row(b"r", include_timestamp=True)[b"f:n"]
    lead_ms = counter_ts - time.time() * 1000
    conn.close()
    assert server.stop() == 0

    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    restarted_in = time.time() * 1000 - counter_ts
    table = conn.table("burst")
    table.counter_set(b"r", b"f:n", 7)
    assert table.counter_get(b"r", b"f:n") == 7, (
        "burst of %d took %.0f ms, lead %.0f ms, restart %.0f ms after the counter" %
        (BURST, (time.time() - started) * 1000, lead_ms, restarted_in))
    conn.close()
