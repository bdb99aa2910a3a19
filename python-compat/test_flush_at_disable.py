"""HBase flushes a region when it closes it: at disableTable, and when a schema change reopens
the regions of an enabled table (issue 11 item 14). A flush keeps, per column, what a read of
every version sees at that moment and every delete marker: versions beyond VERSIONS, expired
cells and cells masked by markers (unless KEEP_DELETED_CELLS) are gone afterwards, which reads
with a time range (or a raised VERSIONS) can tell. Every expectation is HBase 2.6.1's;
run against a real one with HBASE_THRIFT_TARGET / HBASE_THRIFT2_TARGET.
"""

import time

from hbase.ttypes import Mutation
from hbase2.ttypes import (TColumn, TColumnFamilyDescriptor, TColumnValue, TDelete, TDeleteType,
                           TDurability, TGet, TKeepDeletedCells, TPut, TTableDescriptor,
                           TTableName, TTimeRange)

NO_ATTRS = {}
FOREVER = 2147483647


class Table:
    """One Thrift2 table with family f and row r."""

    def __init__(self, client, name):
        self.client, self.name, self.tname = client, name, TTableName(qualifier=name)

    def put(self, ts, qualifier=b"q"):
        self.client.put(self.name, TPut(row=b"r", columnValues=[
            TColumnValue(family=b"f", qualifier=qualifier, value=b"v%d" % ts, timestamp=ts)]))

    def delete(self, kind, ts, qualifier=b"q"):
        self.client.deleteSingle(self.name, TDelete(row=b"r", deleteType=kind, timestamp=ts, columns=[
            TColumn(family=b"f", qualifier=qualifier, timestamp=ts)]))

    def read(self, lo=0, hi=2 ** 63 - 1):
        got = self.client.get(self.name, TGet(row=b"r", maxVersions=100, timeRange=TTimeRange(lo, hi)))
        return [(c.qualifier, c.timestamp) for c in got.columnValues]

    def cycle(self):
        self.client.disableTable(self.tname)
        self.client.enableTable(self.tname)

    def modify_family(self, **fields):
        self.client.modifyColumnFamily(self.tname, TColumnFamilyDescriptor(name=b"f", **fields))


def make(thrift2_client, thrift2_table, **fields):
    return Table(thrift2_client, thrift2_table(**fields))


def test_disable_drops_the_versions_beyond_VERSIONS_a_getVerTs_used_to_see(raw_client, raw_table):
    t = raw_table(maxVersions=2)
    for ts in (1, 2, 3):
        raw_client.mutateRowTs(t, b"r", [Mutation(column=b"f:q", value=b"v%d" % ts)], ts, NO_ATTRS)
    assert [c.value for c in raw_client.getVerTs(t, b"r", b"f:q", 3, 10, NO_ATTRS)] == [b"v2", b"v1"]
    raw_client.disableTable(t)
    raw_client.enableTable(t)
    assert [c.value for c in raw_client.getVerTs(t, b"r", b"f:q", 3, 10, NO_ATTRS)] == [b"v2"]
    assert [c.value for c in raw_client.getVer(t, b"r", b"f:q", 10, NO_ATTRS)] == [b"v3", b"v2"]


def test_MIN_VERSIONS_does_not_keep_versions_beyond_VERSIONS(thrift2_client, thrift2_table):
    t = make(thrift2_client, thrift2_table, maxVersions=2, minVersions=1)
    for ts in (1, 2, 3):
        t.put(ts)
    t.cycle()
    assert t.read(0, 3) == [(b"q", 2)]


def test_deleted_versions_do_not_count_against_VERSIONS(thrift2_client, thrift2_table):
    t = make(thrift2_client, thrift2_table, maxVersions=2)
    for ts in (1, 2, 3):
        t.put(ts)
    t.delete(TDeleteType.DELETE_COLUMN, 3)
    t.cycle()
    assert t.read() == [(b"q", 2), (b"q", 1)]
    assert t.read(0, 3) == [(b"q", 2), (b"q", 1)]


def test_delete_markers_survive_and_mask_puts_written_later(thrift2_client, thrift2_table):
    t = make(thrift2_client, thrift2_table, maxVersions=5)
    t.put(5, b"a")
    t.delete(TDeleteType.DELETE_COLUMNS, 5, b"a")
    t.put(5, b"b")
    t.put(5, b"c")
    t.put(4, b"c")
    for kind, ts in ((TDeleteType.DELETE_FAMILY, 3), (TDeleteType.DELETE_FAMILY_VERSION, 4)):
        thrift2_client.deleteSingle(t.name, TDelete(row=b"r", deleteType=kind, timestamp=ts,
                                                    columns=[TColumn(family=b"f", timestamp=ts)]))
    t.cycle()
    t.put(4, b"a")
    t.put(2, b"b")
    t.put(4, b"c")
    t.put(6, b"a")
    assert t.read() == [(b"a", 6), (b"b", 5), (b"c", 5)]
    t.cycle()
    assert t.read() == [(b"a", 6), (b"b", 5), (b"c", 5)]


def test_KEEP_DELETED_CELLS_keeps_masked_versions_but_counts_them(thrift2_client, thrift2_table):
    t = make(thrift2_client, thrift2_table, maxVersions=3, keepDeletedCells=TKeepDeletedCells.TRUE)
    t.put(1)
    t.put(2)
    t.delete(TDeleteType.DELETE_COLUMNS, 2)
    t.cycle()
    assert (t.read(), t.read(0, 2)) == ([], [(b"q", 1)])
    t = make(thrift2_client, thrift2_table, maxVersions=2, keepDeletedCells=TKeepDeletedCells.TRUE)
    for ts in (1, 2, 3):
        t.put(ts)
    t.delete(TDeleteType.DELETE_COLUMN, 3)
    assert t.read() == [(b"q", 2), (b"q", 1)]
    t.cycle()
    assert (t.read(), t.read(0, 3)) == ([(b"q", 2)], [(b"q", 2)])


def test_KEEP_DELETED_CELLS_TTL_lets_only_expired_markers_mask(thrift2_client, thrift2_table):
    now = int(time.time() * 1000)
    t = make(thrift2_client, thrift2_table, maxVersions=5, minVersions=1, timeToLive=5,
             keepDeletedCells=TKeepDeletedCells.TTL)
    t.put(now - 20000, b"a")
    t.put(now - 15000, b"a")
    t.delete(TDeleteType.DELETE_COLUMNS, now - 10000, b"a")  # expired: masks at the flush
    t.put(now - 1000, b"b")
    t.delete(TDeleteType.DELETE_COLUMNS, now - 500, b"b")  # live: does not
    assert t.read(0, now - 12000) == [(b"a", now - 15000)]
    t.cycle()
    assert t.read(0, now - 12000) == []
    assert t.read(0, now - 600) == [(b"b", now - 1000)]


def test_expired_cells_are_gone_beyond_MIN_VERSIONS(thrift2_client, thrift2_table):
    now = int(time.time() * 1000)
    t = make(thrift2_client, thrift2_table, maxVersions=5, timeToLive=5, minVersions=1)
    for age in (30000, 20000, 10000):
        t.put(now - age)
    thrift2_client.disableTable(t.tname)
    t.modify_family(maxVersions=5, minVersions=1, timeToLive=FOREVER)
    thrift2_client.enableTable(t.tname)
    assert t.read() == [(b"q", now - 10000)]


def test_an_online_schema_change_flushes_under_the_old_settings(thrift2_client, thrift2_table):
    def written(**fields):
        t = make(thrift2_client, thrift2_table, **fields)
        for ts in (1, 2, 3):
            t.put(ts)
        return t

    t = written(maxVersions=1)
    t.modify_family(maxVersions=5)  # the table stays enabled
    assert t.read() == [(b"q", 3)]
    t = written(maxVersions=1)
    thrift2_client.modifyTable(TTableDescriptor(tableName=t.tname, columns=[
        TColumnFamilyDescriptor(name=b"f", maxVersions=5)]))
    assert t.read() == [(b"q", 3)]
    t = written(maxVersions=2)
    thrift2_client.modifyTable(TTableDescriptor(tableName=t.tname, durability=TDurability.ASYNC_WAL,
                                                columns=[TColumnFamilyDescriptor(name=b"f", maxVersions=2)]))
    assert t.read(0, 3) == [(b"q", 2)]
    t = written(maxVersions=2)
    thrift2_client.addColumnFamily(t.tname, TColumnFamilyDescriptor(name=b"g"))
    assert t.read(0, 3) == [(b"q", 2)]
    t = make(thrift2_client, thrift2_table, families=("f", "g"), maxVersions=2)
    for ts in (1, 2, 3):
        t.put(ts)
    thrift2_client.deleteColumnFamily(t.tname, b"g")
    assert t.read(0, 3) == [(b"q", 2)]
    now = int(time.time() * 1000)
    t = make(thrift2_client, thrift2_table, maxVersions=5, timeToLive=5)
    t.put(now - 20000)
    t.modify_family(maxVersions=5, timeToLive=FOREVER)
    assert t.read() == []
