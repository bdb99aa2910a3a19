"""Tests in one file run in order on one worker (--dist loadfile)."""

import pytest


def ensure_table(conn, name, families):
    if name.encode() not in conn.tables():
        conn.create_table(name, families)
    return conn.table(name)


def test_write_then_read(hbase_connection, record_server):
    users = ensure_table(hbase_connection, "users", {"info": dict(max_versions=3)})
    users.put(b"alice", {b"info:email": b"alice@example.com"})
    assert users.row(b"alice") == {b"info:email": b"alice@example.com"}


@pytest.mark.hbase_shared  # sees the table the test before it made
@pytest.mark.hbase_reset
def test_marker_empties_tables_but_keeps_them(hbase_connection, record_server):
    # The previous test left a row; the marker removed it and kept the table and its families.
    assert b"users" in hbase_connection.tables()
    users = hbase_connection.table("users")
    assert list(users.scan()) == []
    assert set(users.families()) == {b"info"}


@pytest.mark.hbase_shared
def test_fixture_resets_on_request(hbase_reset, record_server):
    conn = hbase_reset.connection()
    users = ensure_table(conn, "users", {"info": dict()})
    users.put(b"bob", {b"info:email": b"bob@example.com"})
    hbase_reset.reset()
    assert list(users.scan()) == []


@pytest.mark.hbase_reset(drop=True)
def test_drop_marker_leaves_nothing(hbase_connection, record_server):
    assert hbase_connection.tables() == []
