"""Runs only when the project configures hbase_emulator_init = schema.hbase (the suite passes it
with -o): the server ran the script before the first test."""

import pytest


def test_init_script_created_schema_and_data(request, hbase_connection, record_server):
    if not request.config.getini("hbase_emulator_init"):
        pytest.skip("no hbase_emulator_init configured")
    assert b"sample:events" in hbase_connection.tables()
    events = hbase_connection.table("sample:events")
    assert events.families()[b"e"]["max_versions"] == 2
    assert events.row(b"seed-1") == {b"e:kind": b"fixture"}
