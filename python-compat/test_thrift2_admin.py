"""Thrift2 (THBaseService) administration through the wire: namespaces, table descriptors,
online schema changes, truncate, pre-split regions, table listing by pattern and namespace,
and one store behind both doors (a table made through Thrift2 is usable at once through
Thrift1 as "ns:table", and the other way round).

Expectations are HBase 2.6.1's, read off its Thrift2 gateway. Errors raised
on HBase's master carry "<exception class>: <message>" as their first line; only the first
line is compared (HBase appends a Java stack trace).
"""

import uuid

import pytest
from thrift.Thrift import TApplicationException

from hbase2.ttypes import (TColumnFamilyDescriptor, TColumnValue, TDataBlockEncoding,
                           TDurability, TGet, TIOError, TNamespaceDescriptor, TPut,
                           TTableDescriptor, TTableName)
from hbase.ttypes import ColumnDescriptor, Mutation

import hbcompat


def first_line(error):
    return error.message.split("\n")[0]


@pytest.fixture
def t2(hbase_endpoint):
    """A Thrift2 client over buffered binary (the data tests cover the other wires)."""
    from hbase2 import THBaseService

    if hbase_endpoint.thrift2_port is None:
        pytest.skip("the target serves no Thrift2 (set HBASE_THRIFT2_TARGET)")
    client, transport = hbcompat.open_raw_client(hbase_endpoint.host,
                                                 hbase_endpoint.thrift2_port, THBaseService)
    yield client
    transport.close()


@pytest.fixture
def t1(hbase_endpoint):
    from hbase import Hbase

    client, transport = hbcompat.open_raw_client(hbase_endpoint.host, hbase_endpoint.port, Hbase)
    yield client
    transport.close()


@pytest.fixture
def namespace(t2):
    """A fresh namespace; its tables and itself are dropped afterwards."""
    name = "hbc_ns_" + uuid.uuid4().hex[:10]
    t2.createNamespace(TNamespaceDescriptor(name=name))
    yield name
    for table in t2.getTableNamesByNamespace(name):
        try:
            t2.disableTable(table)
        except TIOError:
            pass
        t2.deleteTable(table)
    t2.deleteNamespace(name)


def tname(ns, qualifier):
    return TTableName(ns=ns.encode(), qualifier=qualifier)


def create(t2, ns, qualifier, families=(TColumnFamilyDescriptor(name=b"f"),), splits=None,
           **table_fields):
    t2.createTable(TTableDescriptor(tableName=tname(ns, qualifier), columns=list(families),
                                    **table_fields), splits)
    return tname(ns, qualifier)


def family(descriptor, name):
    return next(c for c in descriptor.columns if c.name == name)


# ---------------------------------------------------------------- namespaces

def test_namespace_configuration_is_stored_replaced_and_listed(t2):
    name = "hbc_ns_" + uuid.uuid4().hex[:10]
    t2.createNamespace(TNamespaceDescriptor(name=name, configuration={"a": "b"}))
    try:
        assert t2.getNamespaceDescriptor(name).configuration == {"a": "b"}
        t2.modifyNamespace(TNamespaceDescriptor(name=name, configuration={"c": "d"}))
        assert t2.getNamespaceDescriptor(name).configuration == {"c": "d"}
        listed = {d.name: d.configuration for d in t2.listNamespaceDescriptors()}
        assert listed[name] == {"c": "d"}
        assert listed["default"] is None and listed["hbase"] is None  # empty: not set
        assert {"default", "hbase", name} <= set(t2.listNamespaces())
    finally:
        t2.deleteNamespace(name)
    assert name not in t2.listNamespaces()


def test_a_namespace_with_tables_cannot_be_dropped(t2, namespace):
    create(t2, namespace, b"t")
    with pytest.raises(TIOError) as e:
        t2.deleteNamespace(namespace)
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.constraint.ConstraintException: Only empty namespaces can be "
        "removed. Namespace %s has 1 tables" % namespace)


@pytest.mark.parametrize("reserved", ["default", "hbase"])
def test_reserved_namespaces_cannot_be_dropped(t2, reserved):
    with pytest.raises(TIOError) as e:
        t2.deleteNamespace(reserved)
    assert first_line(e.value) == ("org.apache.hadoop.hbase.constraint.ConstraintException: "
                                   "Reserved namespace %s cannot be removed." % reserved)


def test_modifying_a_missing_namespace_is_NamespaceNotFound(t2):
    with pytest.raises(TIOError) as e:
        t2.modifyNamespace(TNamespaceDescriptor(name="hbc_no_such_ns", configuration={}))
    assert first_line(e.value) == \
        "org.apache.hadoop.hbase.NamespaceNotFoundException: hbc_no_such_ns"


# ---------------------------------------------------------------- descriptors

def test_family_descriptor_reads_back_every_field_and_HBase_attribute_map(t2, namespace):
    f = TColumnFamilyDescriptor(name=b"f", maxVersions=3, timeToLive=100, blockSize=8192,
                                scope=1, dataBlockEncoding=TDataBlockEncoding.FAST_DIFF,
                                configuration={"k": "v"}, attributes={b"X": b"Y"})
    t = create(t2, namespace, b"t", [f, TColumnFamilyDescriptor(name=b"g")],
               attributes={b"TA": b"tv"}, durability=TDurability.ASYNC_WAL)
    desc = t2.getTableDescriptor(t)
    got = family(desc, b"f")
    assert (got.maxVersions, got.minVersions, got.timeToLive, got.blockSize, got.scope) == \
        (3, 0, 100, 8192, 1)
    assert got.dataBlockEncoding == TDataBlockEncoding.FAST_DIFF
    assert got.configuration == {"k": "v"}
    assert (got.blockCacheEnabled, got.inMemory, got.compressTags, got.cacheDataOnWrite) == \
        (True, False, True, False)
    assert got.attributes == {
        b"VERSIONS": b"3", b"KEEP_DELETED_CELLS": b"FALSE", b"BLOCKSIZE": b"8192",
        b"BLOCKCACHE": b"true", b"MIN_VERSIONS": b"0", b"TTL": b"100",
        b"REPLICATION_SCOPE": b"1", b"IN_MEMORY": b"false", b"INDEX_BLOCK_ENCODING": b"NONE",
        b"BLOOMFILTER": b"ROW", b"DATA_BLOCK_ENCODING": b"FAST_DIFF", b"X": b"Y",
        b"COMPRESSION": b"NONE"}
    plain = family(desc, b"g")
    assert plain.configuration is None
    assert plain.attributes[b"TTL"] == b"2147483647"
    assert plain.attributes[b"BLOCKSIZE"] == b"65536"
    assert desc.attributes == {b"TA": b"tv", b"IS_META": b"false", b"DURABILITY": b"ASYNC_WAL",
                               b"hbase.store.file-tracker.impl": b"DEFAULT"}
    assert desc.durability == TDurability.ASYNC_WAL


def test_a_table_created_through_thrift1_has_thrift1_family_defaults(t1, t2, namespace):
    t1.createTable(("%s:t1" % namespace).encode(), [ColumnDescriptor(name=b"a:", maxVersions=2)])
    got = family(t2.getTableDescriptor(tname(namespace, b"t1")), b"a")
    assert (got.maxVersions, got.blockCacheEnabled) == (2, False)
    assert got.attributes[b"BLOOMFILTER"] == b"NONE"


# ---------------------------------------------------------------- online schema changes

def test_add_modify_and_delete_family_on_an_enabled_table(t2, namespace):
    t = create(t2, namespace, b"t", [TColumnFamilyDescriptor(name=b"f")])
    t2.addColumnFamily(t, TColumnFamilyDescriptor(name=b"h", maxVersions=2))
    with pytest.raises(TIOError) as e:
        t2.addColumnFamily(t, TColumnFamilyDescriptor(name=b"h"))
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.InvalidFamilyOperationException: Column family 'h' in table "
        "'%s:t' already exists so cannot be added" % namespace)
    t2.modifyColumnFamily(t, TColumnFamilyDescriptor(name=b"h", maxVersions=5))
    assert family(t2.getTableDescriptor(t), b"h").maxVersions == 5
    with pytest.raises(TIOError) as e:
        t2.modifyColumnFamily(t, TColumnFamilyDescriptor(name=b"zz"))
    assert first_line(e.value) == ("org.apache.hadoop.hbase.InvalidFamilyOperationException: "
                                   "Family 'zz' does not exist, so it cannot be modified")
    with pytest.raises(TIOError) as e:
        t2.deleteColumnFamily(t, b"zz")
    assert first_line(e.value) == ("org.apache.hadoop.hbase.InvalidFamilyOperationException: "
                                   "Family 'zz' does not exist, so it cannot be deleted")
    t2.deleteColumnFamily(t, b"h")
    assert [c.name for c in t2.getTableDescriptor(t).columns] == [b"f"]


def test_lowering_VERSIONS_takes_effect_on_the_next_read(t2, namespace):
    t = create(t2, namespace, b"t", [TColumnFamilyDescriptor(name=b"f", maxVersions=3)])
    full = ("%s:t" % namespace).encode()
    for ts in (1, 2, 3):
        t2.put(full, TPut(row=b"r", columnValues=[
            TColumnValue(family=b"f", qualifier=b"q", value=b"v%d" % ts, timestamp=ts)]))
    assert len(t2.get(full, TGet(row=b"r", maxVersions=10)).columnValues) == 3
    t2.modifyColumnFamily(t, TColumnFamilyDescriptor(name=b"f", maxVersions=1))
    assert [c.value for c in t2.get(full, TGet(row=b"r", maxVersions=10)).columnValues] == [b"v3"]


def test_a_deleted_family_comes_back_empty(t2, namespace):
    t = create(t2, namespace, b"t", [TColumnFamilyDescriptor(name=b"f"),
                                     TColumnFamilyDescriptor(name=b"g")])
    full = ("%s:t" % namespace).encode()
    t2.put(full, TPut(row=b"r", columnValues=[TColumnValue(family=b"f", qualifier=b"q", value=b"1"),
                                             TColumnValue(family=b"g", qualifier=b"q", value=b"2")]))
    t2.deleteColumnFamily(t, b"g")
    t2.addColumnFamily(t, TColumnFamilyDescriptor(name=b"g"))
    assert [(c.family, c.value) for c in t2.get(full, TGet(row=b"r")).columnValues] == \
        [(b"f", b"1")]


def test_modifyTable_replaces_families_and_attributes(t2, namespace):
    t = create(t2, namespace, b"t", [TColumnFamilyDescriptor(name=b"f"),
                                     TColumnFamilyDescriptor(name=b"g")], splits=[b"m"])
    t2.modifyTable(TTableDescriptor(tableName=t, attributes={b"TB": b"x"},
                                    columns=[TColumnFamilyDescriptor(name=b"f", maxVersions=7)]))
    desc = t2.getTableDescriptor(t)
    assert [(c.name, c.maxVersions) for c in desc.columns] == [(b"f", 7)]
    assert desc.attributes == {b"TB": b"x", b"IS_META": b"false"}
    assert desc.durability == TDurability.USE_DEFAULT
    regions = t2.getAllRegionLocations(("%s:t" % namespace).encode())
    assert len(regions) == 2  # splits stay


# ---------------------------------------------------------------- truncate and regions

def test_truncate_needs_a_disabled_table_and_enables_it_keeping_splits_on_request(t2, namespace):
    t = create(t2, namespace, b"t", splits=[b"m", b"b"])
    full = ("%s:t" % namespace).encode()
    t2.put(full, TPut(row=b"r", columnValues=[TColumnValue(family=b"f", qualifier=b"q",
                                                           value=b"1")]))
    with pytest.raises(TIOError) as e:
        t2.truncateTable(t, True)
    assert first_line(e.value) == \
        "org.apache.hadoop.hbase.TableNotDisabledException: %s:t" % namespace
    t2.disableTable(t)
    t2.truncateTable(t, True)
    assert t2.isTableEnabled(t)
    assert t2.get(full, TGet(row=b"r")).columnValues == []
    bounds = [(r.regionInfo.startKey, r.regionInfo.endKey) for r in t2.getAllRegionLocations(full)]
    assert bounds == [(b"", b"b"), (b"b", b"m"), (b"m", b"")]
    t2.disableTable(t)
    t2.truncateTable(t, False)
    bounds = [(r.regionInfo.startKey, r.regionInfo.endKey) for r in t2.getAllRegionLocations(full)]
    assert bounds == [(b"", b"")]


def test_split_keys_make_one_region_per_range_for_both_services(t1, t2, namespace):
    create(t2, namespace, b"t", splits=[b"m", b"b"])
    full = ("%s:t" % namespace).encode()
    locations = t2.getAllRegionLocations(full)
    assert [(r.regionInfo.startKey, r.regionInfo.endKey, r.regionInfo.tableName,
             r.regionInfo.regionId) for r in locations] == [
        (b"", b"b", full, 0), (b"b", b"m", full, 0), (b"m", b"", full, 0)]
    assert t2.getRegionLocation(full, b"c", False).regionInfo.startKey == b"b"
    regions = t1.getTableRegions(full)
    assert [(r.startKey, r.endKey) for r in regions] == [(b"", b"b"), (b"b", b"m"), (b"m", b"")]
    region_id = regions[0].id
    assert [r.name.split(b".")[0] for r in regions] == [
        full + b",,%d" % region_id, full + b",b,%d" % region_id, full + b",m,%d" % region_id]
    assert all(len(r.name.split(b".")[1]) == 32 for r in regions)  # md5 hex
    info = t1.getRegionInfo(full + b",c,99999999999999")
    assert (info.startKey, info.endKey, info.name) == (b"b", b"m", regions[1].name)


@pytest.mark.parametrize("bad", [[b"a", b"a"], [b""]])
def test_bad_split_keys_are_an_internal_error(t2, namespace, bad):
    with pytest.raises(TApplicationException) as e:
        create(t2, namespace, b"t", splits=bad)
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    assert not t2.tableExists(tname(namespace, b"t"))


def test_pagefilter_counts_afresh_in_each_region(t2, t1, namespace):
    create(t2, namespace, b"t", splits=[b"2"])
    full = ("%s:t" % namespace).encode()
    for row in (b"1", b"2", b"3", b"4"):
        t1.mutateRow(full, row, [Mutation(column=b"f:q", value=b"v")], None)
    from hbase.ttypes import TScan as T1Scan
    scanner = t1.scannerOpenWithScan(full, T1Scan(filterString=b"PageFilter(2)"), None)
    rows = [r.row for r in t1.scannerGetList(scanner, 100)]
    t1.scannerClose(scanner)
    # Region [,2) runs out after one row, so region [2,) counts from 0 again.
    assert rows == [b"1", b"2", b"3"]


# ---------------------------------------------------------------- one store, two doors

def test_a_table_made_through_one_service_is_usable_through_the_other(t1, t2, namespace):
    create(t2, namespace, b"t")
    full = ("%s:t" % namespace).encode()
    t1.mutateRow(full, b"r", [Mutation(column=b"f:q", value=b"from1")], None)
    assert t2.get(full, TGet(row=b"r")).columnValues[0].value == b"from1"
    assert full in t1.getTableNames()
    t1.createTable(("%s:u" % namespace).encode(), [ColumnDescriptor(name=b"a:")])
    assert t2.tableExists(tname(namespace, b"u"))
    assert sorted(n.qualifier for n in t2.getTableNamesByNamespace(namespace)) == [b"t", b"u"]
    assert [n.qualifier for n in t2.getTableNamesByPattern("%s:.*" % namespace, False)] == \
        [b"t", b"u"]


def test_isTableAvailable_follows_existence_and_enabled_state(t2, namespace):
    t = create(t2, namespace, b"t", splits=[b"m"])
    assert t2.isTableAvailable(t) and t2.isTableAvailableWithSplit(t, [b"m"])
    t2.disableTable(t)
    assert t2.isTableDisabled(t) and not t2.isTableAvailable(t)
    assert not t2.isTableAvailable(tname(namespace, b"nope"))


def test_isTableAvailableWithSplit_wants_a_region_starting_at_every_key_given(t2, namespace):
    t = create(t2, namespace, b"t", splits=[b"b", b"m"])
    assert t2.isTableAvailableWithSplit(t, [b"b", b"m"])
    assert t2.isTableAvailableWithSplit(t, [b"b"])
    assert not t2.isTableAvailableWithSplit(t, [b"x"])


# ---------------------------------------------------------------- error text, call by call

def test_table_state_errors_carry_HBase_text(t2, namespace):
    t = create(t2, namespace, b"t")
    full = "%s:t" % namespace
    with pytest.raises(TIOError) as e:
        t2.enableTable(t)
    assert first_line(e.value) == "tableName=%s, state=ENABLED" % full  # unwrapped
    with pytest.raises(TIOError) as e:
        t2.deleteTable(t)
    assert first_line(e.value) == ("org.apache.hadoop.hbase.TableNotDisabledException: "
                                   "Not DISABLED; tableName=%s, state=ENABLED" % full)
    with pytest.raises(TIOError) as e:
        t2.deleteColumnFamily(t, b"f")
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.InvalidFamilyOperationException: Family 'f' is the only "
        "column family in the table, so it cannot be deleted")
    t2.disableTable(t)
    with pytest.raises(TIOError) as e:
        t2.disableTable(t)
    assert first_line(e.value) == "org.apache.hadoop.hbase.TableNotEnabledException: %s" % full


def test_missing_tables_and_namespaces_name_the_exception_when_the_master_answers(t2):
    missing = TTableName(qualifier=b"hbc_no_such_table")
    with pytest.raises(TIOError) as e:
        t2.getTableDescriptor(missing)
    assert first_line(e.value) == "hbc_no_such_table"  # found missing by the client itself
    for call in (lambda: t2.deleteTable(missing), lambda: t2.disableTable(missing),
                 lambda: t2.truncateTable(missing, True),
                 lambda: t2.addColumnFamily(missing, TColumnFamilyDescriptor(name=b"f"))):
        with pytest.raises(TIOError) as e:
            call()
        assert first_line(e.value) == \
            "org.apache.hadoop.hbase.TableNotFoundException: hbc_no_such_table"
    for call in (lambda: t2.getNamespaceDescriptor("hbc_no_ns"),
                 lambda: t2.deleteNamespace("hbc_no_ns"),
                 lambda: t2.getTableNamesByNamespace("hbc_no_ns")):
        with pytest.raises(TIOError) as e:
            call()
        assert first_line(e.value) == "org.apache.hadoop.hbase.NamespaceNotFoundException: hbc_no_ns"


def test_creating_twice_and_without_families_fails_as_in_HBase(t2, namespace):
    create(t2, namespace, b"t")
    with pytest.raises(TIOError) as e:
        create(t2, namespace, b"t")
    assert first_line(e.value) == \
        "org.apache.hadoop.hbase.TableExistsException: %s:t" % namespace
    with pytest.raises(TIOError) as e:
        create(t2, namespace, b"u", families=[])
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.DoNotRetryIOException: Table should have at least one column "
        "family. Set hbase.table.sanity.checks to false at conf or table descriptor if you want "
        "to bypass sanity checks")
    with pytest.raises(TIOError) as e:
        t2.createNamespace(TNamespaceDescriptor(name=namespace))
    assert first_line(e.value) == ("org.apache.hadoop.hbase.NamespaceExistException: Namespace "
                                   "%s already exists" % namespace)


def test_system_tables_are_listed_only_when_asked_for(t2):
    def names(tables):
        return [(n.ns, n.qualifier) for n in tables]
    assert names(t2.getTableNamesByPattern("hbase:.*", True)) == [(b"hbase", b"meta"),
                                                                  (b"hbase", b"namespace")]
    assert names(t2.getTableNamesByPattern("hbase:.*", False)) == []
    assert (b"hbase", b"meta") in names(t2.getTableNamesByNamespace("hbase"))
    meta = TTableName(ns=b"hbase", qualifier=b"meta")
    assert t2.tableExists(meta)
    desc = t2.getTableDescriptor(meta)
    assert [(f.name, f.maxVersions, f.inMemory, f.blockSize) for f in desc.columns] == [
        (b"info", 3, True, 8192), (b"rep_barrier", 2147483647, True, 65536),
        (b"table", 3, True, 8192)]
    assert desc.attributes[b"IS_META"] == b"true"
    assert {(f.attributes[b"BLOOMFILTER"], f.attributes[b"DATA_BLOCK_ENCODING"])
            for f in desc.columns} == {(b"ROWCOL", b"ROW_INDEX_V1")}


def test_user_tables_may_be_created_in_the_hbase_namespace_and_count_as_system_tables(t1, t2):
    qualifier = ("hbc_" + uuid.uuid4().hex[:10]).encode()
    full = b"hbase:" + qualifier
    t1.createTable(full, [ColumnDescriptor(name=b"f:")])
    try:
        t1.mutateRow(full, b"r", [Mutation(column=b"f:q", value=b"v")], {})
        assert t1.getRow(full, b"r", {})[0].columns[b"f:q"].value == b"v"
        assert full not in t1.getTableNames()
        listed = [(n.ns, n.qualifier) for n in t2.getTableNamesByNamespace("hbase")]
        assert (b"hbase", qualifier) in listed and (b"hbase", b"meta") in listed
        assert t2.getTableNamesByPattern("hbase:.*", False) == []
        assert t2.tableExists(TTableName(ns=b"hbase", qualifier=qualifier))
    finally:
        t1.disableTable(full)
        t1.deleteTable(full)
    t2_qualifier = ("hbc_" + uuid.uuid4().hex[:10]).encode()
    name = create(t2, "hbase", t2_qualifier)
    try:
        assert t2.tableExists(name)
    finally:
        t2.disableTable(name)
        t2.deleteTable(name)


@pytest.mark.parametrize("qualifier", [b"meta", b"namespace"])
def test_the_system_tables_already_exist_for_both_services(t1, t2, qualifier):
    from hbase.ttypes import AlreadyExists

    with pytest.raises(AlreadyExists) as e:
        t1.createTable(b"hbase:" + qualifier, [ColumnDescriptor(name=b"f:")])
    assert e.value.message == "table name already in use"
    with pytest.raises(TIOError) as e:
        create(t2, "hbase", qualifier)
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.TableExistsException: hbase:" + qualifier.decode())
    with pytest.raises(TIOError) as e:
        t2.createNamespace(TNamespaceDescriptor(name="hbase"))
    assert first_line(e.value) == (
        "org.apache.hadoop.hbase.NamespaceExistException: Namespace hbase already exists")
    listed = [(n.ns, n.qualifier) for n in t2.getTableNamesByPattern("hbase:.*", True)]
    assert listed.count((b"hbase", qualifier)) == 1


def test_getRegionInfo_of_a_key_naming_no_table_answers_the_nearest_region_before_it(t1, t2,
                                                                                    namespace):
    create(t2, namespace, b"t", splits=[b"m"])
    full = ("%s:t" % namespace).encode()
    # "<ns>:t," sorts before "<ns>:t0,...": the reverse meta scan lands on t's last region.
    info = t1.getRegionInfo(full + b"0,row,99999999999999")
    assert (info.startKey, info.endKey) == (b"m", b"")
    assert info.name == t1.getTableRegions(full)[-1].name


@pytest.mark.parametrize("bad", [b"bad name", b".dot", b"x!"])
def test_table_exists_with_an_illegal_name_is_an_internal_error(t2, bad):
    # HBase's gateway builds a TableName first, which refuses the name: no answer, no false.
    with pytest.raises(TApplicationException) as e:
        t2.tableExists(TTableName(ns=b"default", qualifier=bad))
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    assert e.value.message == "Internal error processing tableExists"
