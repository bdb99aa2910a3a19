"""hbase_emulator.reset against a real server process of its own (a reset empties every table),
or with HBASE_TOOLS_TARGET=host:port against that Thrift2 gateway (e.g. the HBase oracle; it
must start empty, and is emptied)."""

import os

import pytest

import hbcompat
from hbase_emulator import reset, thrift2

T = thrift2.ttypes


@pytest.fixture
def client():
    target = os.environ.get("HBASE_TOOLS_TARGET", "").strip()
    if target:
        host, _, port = target.rpartition(":")
        with thrift2.client(host, int(port), timeout_ms=300000) as c:
            yield c
            reset.reset(c, drop=True)
        return
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    try:
        with thrift2.client(server.host, server.thrift2_port) as c:
            yield c
    finally:
        server.stop()


def create(c, name, splits=None, **family):
    c.createTable(T.TTableDescriptor(tableName=thrift2.split_table_name(name), columns=[
        T.TColumnFamilyDescriptor(name=b"f", **family)]), splits)


def put_rows(c, name, n=10):
    c.putMultiple(name.encode(), [T.TPut(row=b"r%03d" % i, columnValues=[
        T.TColumnValue(family=b"f", qualifier=b"q", value=b"v")]) for i in range(n)])


def rows(c, name):
    return c.getScannerResults(name.encode(), T.TScan(), 1000)


def test_truncate_empties_every_table_and_keeps_schema_splits_and_state(client):
    client.createNamespace(T.TNamespaceDescriptor(name="app"))
    create(client, "plain", maxVersions=4)
    create(client, "app:split", splits=[b"r003", b"r006"])
    create(client, "app:off")
    for name in ("plain", "app:split", "app:off"):
        put_rows(client, name)
    client.disableTable(thrift2.split_table_name("app:off"))
    regions_before = client.getAllRegionLocations(b"app:split")

    assert reset.reset(client) == 3

    assert rows(client, "plain") == [] and rows(client, "app:split") == []
    assert client.isTableDisabled(thrift2.split_table_name("app:off"))
    client.enableTable(thrift2.split_table_name("app:off"))
    assert rows(client, "app:off") == []
    family = client.getTableDescriptor(thrift2.split_table_name("plain")).columns[0]
    assert family.name == b"f" and family.maxVersions == 4
    regions_after = client.getAllRegionLocations(b"app:split")
    assert [(r.regionInfo.startKey, r.regionInfo.endKey) for r in regions_after] == \
        [(r.regionInfo.startKey, r.regionInfo.endKey) for r in regions_before]
    # Tables work as before: writes land and read back.
    put_rows(client, "plain", 2)
    assert len(rows(client, "plain")) == 2


def test_drop_removes_every_user_table_and_namespace(client):
    client.createNamespace(T.TNamespaceDescriptor(name="app"))
    create(client, "plain")
    create(client, "app:t")
    client.disableTable(thrift2.split_table_name("plain"))

    assert reset.reset(client, drop=True) == 2

    assert client.getTableNamesByPattern(".*", False) == []
    assert sorted(client.listNamespaces()) == ["default", "hbase"]


def test_reset_of_an_empty_server_is_a_no_op(client):
    assert reset.reset(client) == 0
    assert reset.reset(client, drop=True) == 0


def test_a_real_failure_is_raised_not_swallowed(client):
    class Refusing:
        """Forwards to the client but refuses truncateTable as a server would."""

        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            if name == "truncateTable":
                def refuse(**kw):
                    raise T.TIOError(message="refused")
                return refuse
            if name == "_send":
                raise AttributeError(name)  # one call at a time, through __getattr__
            return getattr(self.inner, name)

    create(client, "plain")
    with pytest.raises(T.TIOError, match="refused"):
        reset.reset(Refusing(client))
