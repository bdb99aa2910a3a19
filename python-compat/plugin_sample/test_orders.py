"""A second file, so that the other xdist worker gets work and starts its own server."""

import pytest


@pytest.mark.hbase_reset(drop=True)
def test_own_server_per_worker(hbase_connection, record_server):
    hbase_connection.create_table("orders", {"o": dict()})
    orders = hbase_connection.table("orders")
    orders.put(b"o-1", {b"o:total": b"42"})
    assert orders.row(b"o-1") == {b"o:total": b"42"}


def test_thrift2_client(hbase_emulator, record_server):
    from hbase_emulator import thrift2

    client = hbase_emulator.thrift2()
    try:
        names = [thrift2.full_table_name(t) for t in client.getTableNamesByPattern(".*", False)]
    finally:
        client.close()
    assert "orders" in names
