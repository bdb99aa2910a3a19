"""Durability: a server on a --data-dir stops cleanly on SIGTERM (exit code 0) and a new server
on the same folder serves exactly the same tables, schemas, cells, versions and deletes.

These tests start their own servers, so they skip when HBASE_THRIFT_TARGET is set.
"""

import time

import happybase
import pytest

import hbcompat

FAMILIES = {
    "cf1": {"max_versions": 5, "bloom_filter_type": "ROW", "block_cache_enabled": True},
    "cf2": {"max_versions": 1, "compression": "GZ", "in_memory": True, "time_to_live": 86400},
}


def connect(server):
    return happybase.Connection(server.host, server.port, timeout=hbcompat.CLIENT_TIMEOUT_MS)


def snapshot(conn, names):
    """Everything a client can see about the given tables."""
    state = {"tables": sorted(conn.tables())}
    for name in names:
        enabled = conn.is_table_enabled(name)
        table = conn.table(name)
        state[name] = {"enabled": enabled, "families": table.families(),
                       "regions": len(table.regions())}
        if enabled:
            state[name]["rows"] = list(table.scan(include_timestamp=True))
            state[name]["versions"] = table.cells(b"versioned", b"cf1:v", include_timestamp=True)
    return state


def stop_cleanly(server):
    rc = server.stop()
    assert rc == 0, "SIGTERM exit code %r; stderr:\n%s" % (rc, server.stderr_text())


def test_data_schema_versions_and_deletes_survive_sigterm_and_restart(server_factory, tmp_path):
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    conn.create_table("main", FAMILIES)
    conn.create_table("dormant", {"f": {}})
    conn.create_table("dropped", {"f": {}})
    main = conn.table("main")

    with main.batch(batch_size=100) as b:
        for i in range(500):
            b.put(b"row-%04d" % i, {b"cf1:a": b"a%d" % i, b"cf2:b": b"b%d" % i})
    for ts in (100, 200, 300, 400, 500, 600):
        main.put(b"versioned", {b"cf1:v": b"v%d" % ts}, timestamp=ts)
    main.put(b"deleted-col", {b"cf1:x": b"gone", b"cf1:y": b"stays"}, timestamp=1000)
    main.delete(b"deleted-col", [b"cf1:x"], timestamp=1500)
    main.put(b"deleted-row", {b"cf1:x": b"gone"})
    main.delete(b"deleted-row")
    main.put(b"empty-qualifier", {b"cf1:": b"e", b"cf2:": b"\x00\xff binary"})
    assert main.counter_inc(b"counter", b"cf1:n", 41) == 41
    for i in range(0, 500, 7):
        main.delete(b"row-%04d" % i)
    conn.table("dormant").put(b"r", {b"f:q": b"sleeping"})
    conn.disable_table("dormant")
    conn.delete_table("dropped", disable=True)

    before = snapshot(conn, ["main", "dormant"])
    assert before["tables"] == [b"dormant", b"main"]
    assert before["main"]["versions"] == [(b"v600", 600), (b"v500", 500), (b"v400", 400),
                                          (b"v300", 300), (b"v200", 200)]
    assert len(before["main"]["rows"]) == 500 - len(range(0, 500, 7)) + 4  # + versioned, deleted-col,
    #                                                                          empty-qualifier, counter
    conn.close()
    stop_cleanly(server)

    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    after = snapshot(conn, ["main", "dormant"])
    assert after == before

    main = conn.table("main")
    assert main.row(b"deleted-col") == {b"cf1:y": b"stays"}
    assert main.row(b"deleted-row") == {}
    # The delete marker itself was persisted: it still hides a late put at an older timestamp.
    main.put(b"deleted-col", {b"cf1:x": b"late"}, timestamp=1200)
    assert main.row(b"deleted-col") == {b"cf1:y": b"stays"}
    assert main.counter_inc(b"counter", b"cf1:n", 1) == 42
    assert b"dropped" not in conn.tables()
    conn.enable_table("dormant")
    assert conn.table("dormant").row(b"r") == {b"f:q": b"sleeping"}

    # Writes made after a restart survive the next restart too.
    main.put(b"second-life", {b"cf1:a": b"yes"})
    conn.close()
    stop_cleanly(server)

    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    main = conn.table("main")
    assert main.row(b"second-life") == {b"cf1:a": b"yes"}
    assert main.counter_get(b"counter", b"cf1:n") == 42
    assert conn.is_table_enabled("dormant") is True
    assert main.families() == before["main"]["families"]
    conn.close()
    stop_cleanly(server)


def test_sigterm_with_connected_clients_and_open_scanner_exits_zero(server_factory, tmp_path):
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    conn.create_table("t", {"f": {}})
    table = conn.table("t")
    with table.batch() as b:
        for i in range(100):
            b.put(b"r%03d" % i, {b"f:q": b"%d" % i})
    idle = connect(server)  # a second, idle connection
    scanner = table.scan(batch_size=10)
    assert next(scanner)[0] == b"r000"  # a server-side scanner is open

    started = time.monotonic()
    stop_cleanly(server)
    assert time.monotonic() - started < 10
    try:
        scanner.close()  # its scannerClose now fails: the server is gone
    except Exception:
        pass
    for c in (conn, idle):
        try:
            c.close()
        except Exception:
            pass

    server = server_factory(data_dir=data_dir)
    conn = connect(server)
    assert [k for k, _ in conn.table("t").scan()] == [b"r%03d" % i for i in range(100)]
    conn.close()
    stop_cleanly(server)


def test_in_memory_server_starts_empty_every_time(server_factory):
    server = server_factory()
    conn = connect(server)
    conn.create_table("t", {"f": {}})
    conn.close()
    stop_cleanly(server)
    server = server_factory()
    conn = connect(server)
    assert conn.tables() == []
    conn.close()
    stop_cleanly(server)
