"""A second file, so that the other xdist worker gets work and starts its own server."""

import pytest


@pytest.mark.hbase_reset(drop=True)
def test_own_server_per_worker(hbase_connection, record_server):
    hbase_connection.create_table("orders", {"o": dict()})
    orders = hbase_connection.table("orders")
    orders.put(b"o-1", {b"o:total": b"42"})
    assert orders.row(b"o-1") == {b"o:total": b"42"}


@pytest.mark.hbase_shared  # reads the table the test before it made
def test_thrift2_client(hbase_emulator, record_server):
    from hbase_emulator import thrift2

    client = hbase_emulator.thrift2()
    try:
        names = [thrift2.full_table_name(t) for t in client.getTableNamesByPattern(".*", False)]
    finally:
        client.close()
    assert "orders" in names


def test_reset_after_the_server_dropped_the_idle_admin_connection(request, hbase_emulator):
    if "--idle-timeout-ms" not in request.config.getini("hbase_emulator_args"):
        pytest.skip("run with -o 'hbase_emulator_args=--idle-timeout-ms 200'")
    import time

    hbase_emulator.reset()
    time.sleep(1.0)  # the server closes the admin connection meanwhile
    hbase_emulator.reset()
