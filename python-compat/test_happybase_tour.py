"""A tour of happybase 1.3.0 against the server: every Connection, Table, Batch and
ConnectionPool call, with exact results as real HBase 2.x (Thrift1 gateway) gives them.

Default test table (conftest.DEFAULT_HB_FAMILIES): cf1 max_versions=10, cf2 IDL defaults
(max_versions=3), cf3 max_versions=1.
"""

import hashlib
import random
import threading
import time
from collections import OrderedDict

import happybase
import pytest
from thriftpy2.thrift import TException

import hbcompat
from hbcompat import text

import Hbase_thrift  # registered by `import happybase` (thriftpy2.load)

HBIOError = Hbase_thrift.IOError
FOREVER = 2147483647


def now_ms():
    return int(time.time() * 1000)


def scan_list(table, **kwargs):
    return list(table.scan(**kwargs))


def scan_keys(table, **kwargs):
    return [k for k, _ in table.scan(**kwargs)]


# --------------------------------------------------------------------------------------------
# Connection


def test_connection_open_close_reopen_and_tables(hbase_endpoint, hb_table, happybase_options):
    table = hb_table(tag="conn")
    conn = happybase.Connection(hbase_endpoint.host, hbase_endpoint.port, autoconnect=False,
                                **happybase_options)
    assert not conn.transport.is_open()
    conn.open()
    names = conn.tables()
    assert isinstance(names, list)
    assert table.name in names
    conn.close()
    assert not conn.transport.is_open()
    conn.open()  # a closed connection can be opened again
    assert table.name in conn.tables()
    conn.close()


def test_table_prefix_is_added_on_create_and_stripped_by_tables(hbase_endpoint, connection,
                                                                happybase_options):
    prefix = hbcompat.unique_table_name("pfx")
    pconn = happybase.Connection(hbase_endpoint.host, hbase_endpoint.port, table_prefix=prefix,
                                 **happybase_options)
    try:
        pconn.create_table("inner", {"f": {}})
        assert pconn.table("inner").name == (prefix + "_inner").encode()
        assert pconn.table("x", use_prefix=False).name == b"x"
        assert pconn.tables() == [b"inner"]
        assert (prefix + "_inner").encode() in connection.tables()
        pconn.table("inner").put(b"r", {b"f:q": b"v"})
        assert connection.table(prefix + "_inner").row(b"r") == {b"f:q": b"v"}
    finally:
        pconn.delete_table("inner", disable=True)
        pconn.close()
    assert (prefix + "_inner").encode() not in connection.tables()


def test_create_table_stores_family_options_and_families_reports_them(connection, hb_table):
    table = hb_table({
        "cf1": {"max_versions": 10},
        "cf2": {"max_versions": 1, "compression": "GZ", "in_memory": True,
                "bloom_filter_type": "ROW", "block_cache_enabled": True, "time_to_live": 3600},
        "cf3": {"bloom_filter_type": "ROWCOL", "bloom_filter_vector_size": 1000,
                "bloom_filter_nb_hashes": 3},
        "cf4": {},
    }, tag="opts")
    assert table.name in connection.tables()

    def desc(name, **over):
        d = {"name": name, "max_versions": 3, "compression": b"NONE", "in_memory": False,
             "bloom_filter_type": b"NONE", "bloom_filter_vector_size": 0,
             "bloom_filter_nb_hashes": 0, "block_cache_enabled": False, "time_to_live": FOREVER}
        d.update(over)
        return d

    families = table.families()
    # happybase's IDL copy defaults timeToLive to -1, which HBase stores as "forever".
    assert families == {
        b"cf1": desc(b"cf1:", max_versions=10),
        b"cf2": desc(b"cf2:", max_versions=1, compression=b"GZ", in_memory=True,
                     bloom_filter_type=b"ROW", block_cache_enabled=True, time_to_live=3600),
        b"cf3": desc(b"cf3:", bloom_filter_type=b"ROWCOL"),  # vector size / hashes are not kept
        b"cf4": desc(b"cf4:"),
    }


def test_time_to_live_hides_cells_older_than_ttl(hb_table):
    table = hb_table({"f": {"time_to_live": 3600, "max_versions": 5}}, tag="ttl")
    now = now_ms()
    table.put(b"old", {b"f:q": b"expired"}, timestamp=now - 2 * 3600 * 1000)
    table.put(b"fresh", {b"f:q": b"ok"}, timestamp=now - 1800 * 1000)
    table.put(b"mixed", {b"f:q": b"expired"}, timestamp=now - 2 * 3600 * 1000)
    table.put(b"mixed", {b"f:q": b"live"}, timestamp=now - 60 * 1000)
    assert table.row(b"old") == {}
    assert table.row(b"fresh") == {b"f:q": b"ok"}
    assert table.cells(b"mixed", b"f:q") == [b"live"]
    assert scan_keys(table) == [b"fresh", b"mixed"]


def test_regions_reports_one_region_spanning_the_table(hb_table):
    table = hb_table(tag="regions")
    regions = table.regions()
    assert len(regions) == 1
    region = regions[0]
    assert set(region) == {"start_key", "end_key", "id", "name", "version", "server_name", "port"}
    assert region["start_key"] == b""
    assert region["end_key"] == b""
    assert region["version"] == 1
    assert isinstance(region["id"], int) and region["id"] > 0
    assert isinstance(region["port"], int) and region["port"] > 0
    assert region["server_name"]
    # <table>,<startKey>,<regionId>.<md5 of the part before the dot>.
    base = table.name + b",," + str(region["id"]).encode()
    assert region["name"] == base + b"." + hashlib.md5(base).hexdigest().encode() + b"."


def test_enable_disable_and_is_table_enabled(connection, hb_table):
    table = hb_table(tag="enable")
    name = table.name
    table.put(b"r", {b"cf1:a": b"1"})
    assert connection.is_table_enabled(name) is True

    connection.disable_table(name)
    assert connection.is_table_enabled(name) is False
    with pytest.raises(HBIOError) as err:
        table.row(b"r")
    assert "TableNotEnabledException" in text(err.value.message)
    with pytest.raises(HBIOError) as err:
        connection.disable_table(name)
    assert "TableNotEnabledException" in text(err.value.message)
    assert set(table.families()) == {b"cf1", b"cf2", b"cf3"}  # schema readable while disabled
    assert name in connection.tables()  # disabled tables are still listed

    connection.enable_table(name)
    assert connection.is_table_enabled(name) is True
    assert table.row(b"r") == {b"cf1:a": b"1"}
    with pytest.raises(HBIOError) as err:
        connection.enable_table(name)
    assert "TableNotDisabledException" in text(err.value.message)


def test_delete_table_needs_disable_and_disable_true_does_it(connection):
    name = hbcompat.unique_table_name("drop")
    connection.create_table(name, {"f": {}})
    with pytest.raises(HBIOError) as err:
        connection.delete_table(name)  # still enabled
    assert "TableNotDisabledException" in text(err.value.message)
    assert name.encode() in connection.tables()

    connection.delete_table(name, disable=True)
    assert name.encode() not in connection.tables()
    with pytest.raises(HBIOError) as err:
        connection.is_table_enabled(name)
    assert "TableNotFoundException" in text(err.value.message)
    with pytest.raises(HBIOError):
        connection.delete_table(name)  # "table does not exist"

    # The name can be reused, and the new table starts empty.
    connection.create_table(name, {"g": {}})
    try:
        table = connection.table(name)
        assert set(table.families()) == {b"g"}
        assert scan_list(table) == []
    finally:
        connection.delete_table(name, disable=True)


def test_compact_table_minor_and_major_keep_visible_data(connection, hb_table):
    table = hb_table(tag="compact")
    for ts in (100, 200, 300):
        table.put(b"r", {b"cf1:v": b"v%d" % ts}, timestamp=ts)
    table.put(b"r", {b"cf1:gone": b"x", b"cf2:keep": b"k"})
    table.delete(b"r", [b"cf1:gone"])
    expected_row = {b"cf1:v": b"v300", b"cf2:keep": b"k"}

    connection.compact_table(table.name)
    assert table.row(b"r") == expected_row
    assert table.cells(b"r", b"cf1:v") == [b"v300", b"v200", b"v100"]

    connection.compact_table(table.name, major=True)
    assert table.row(b"r") == expected_row
    assert table.cells(b"r", b"cf1:v") == [b"v300", b"v200", b"v100"]

    with pytest.raises(HBIOError):
        connection.compact_table(hbcompat.unique_table_name("missing"))


# --------------------------------------------------------------------------------------------
# Reads: row / rows / cells


def test_row_returns_latest_versions_and_timestamp_reads_exclude_the_timestamp(hb_table):
    table = hb_table(tag="row")
    r = b"row-test"
    table.put(r, {b"cf1:col1": b"v1old"}, timestamp=1234)
    table.put(r, {b"cf1:col1": b"v1new"}, timestamp=3456)
    before = now_ms()
    table.put(r, {b"cf1:col2": b"v2", b"cf2:col1": b"v3"})
    after = now_ms()
    table.put(r, {b"cf2:col2": b"v4"}, timestamp=1234)

    assert table.row(r) == {b"cf1:col1": b"v1new", b"cf1:col2": b"v2",
                            b"cf2:col1": b"v3", b"cf2:col2": b"v4"}
    assert table.row(r, [b"cf1"]) == {b"cf1:col1": b"v1new", b"cf1:col2": b"v2"}
    assert table.row(r, [b"cf1:col1", b"cf2:col2"]) == {b"cf1:col1": b"v1new", b"cf2:col2": b"v4"}
    assert table.row(r, [b"cf1:nope"]) == {}
    assert table.row(b"no-such-row") == {}

    # Timestamp reads are [0, ts): the cell *at* ts is excluded.
    assert table.row(r, timestamp=2345) == {b"cf1:col1": b"v1old", b"cf2:col2": b"v4"}
    assert table.row(r, timestamp=3456) == {b"cf1:col1": b"v1old", b"cf2:col2": b"v4"}
    assert table.row(r, timestamp=3457) == {b"cf1:col1": b"v1new", b"cf2:col2": b"v4"}
    assert table.row(r, timestamp=1235) == {b"cf1:col1": b"v1old", b"cf2:col2": b"v4"}
    assert table.row(r, timestamp=1234) == {}
    assert table.row(r, timestamp=123) == {}
    assert table.row(r, [b"cf2"], timestamp=3456) == {b"cf2:col2": b"v4"}

    res = table.row(r, include_timestamp=True)
    assert set(res) == {b"cf1:col1", b"cf1:col2", b"cf2:col1", b"cf2:col2"}
    assert res[b"cf1:col1"] == (b"v1new", 3456)
    assert res[b"cf2:col2"] == (b"v4", 1234)
    v2, ts2 = res[b"cf1:col2"]
    v3, ts3 = res[b"cf2:col1"]
    assert (v2, v3) == (b"v2", b"v3")
    assert before - 1000 <= ts2 <= after + 1000  # server "now" in ms
    assert ts2 == ts3  # all cells of one put share one server timestamp


def test_row_columns_family_vs_empty_qualifier_vs_qualifier(hb_table):
    table = hb_table(tag="colsel")
    r = b"r"
    table.put(r, {b"cf1:": b"empty-qualifier", b"cf1:a": b"x", b"cf1:b": b"y", b"cf2:c": b"z"})
    all_cf1 = {b"cf1:": b"empty-qualifier", b"cf1:a": b"x", b"cf1:b": b"y"}
    assert table.row(r, [b"cf1"]) == all_cf1                        # bare family = whole family
    assert table.row(r, [b"cf1:"]) == {b"cf1:": b"empty-qualifier"}  # trailing colon = qualifier ''
    assert table.row(r, [b"cf1:a"]) == {b"cf1:a": b"x"}
    assert table.row(r, [b"cf1:a", b"cf2"]) == {b"cf1:a": b"x", b"cf2:c": b"z"}
    assert table.row(r, []) == {**all_cf1, b"cf2:c": b"z"}  # empty list = all columns
    # Family then column narrows to the column; column then family widens to the family.
    assert table.row(r, [b"cf1", b"cf1:a"]) == {b"cf1:a": b"x"}
    assert table.row(r, [b"cf1:a", b"cf1"]) == all_cf1


def test_rows_returns_existing_rows_in_request_order_with_timestamp_reads(hb_table):
    table = hb_table(tag="rows")
    keys = [b"rows-row1", b"rows-row2", b"rows-row3"]
    data_old = {b"cf1:col1": b"v1old", b"cf1:col2": b"v2old"}
    data_new = {b"cf1:col1": b"v1new", b"cf1:col2": b"v2new"}
    for k in keys:
        table.put(k, data_old, timestamp=4000)
    for k in keys:
        table.put(k, data_new)
    table.put(b"rows-other", {b"cf2:x": b"only-cf2"}, timestamp=4000)

    assert table.rows([]) == {}
    assert table.rows(keys) == [(k, data_new) for k in keys]
    # Missing rows are left out; order follows the request; a repeated key comes back twice.
    request = [b"rows-row3", b"missing", b"rows-row1", b"rows-row3"]
    assert table.rows(request) == [(b"rows-row3", data_new), (b"rows-row1", data_new),
                                   (b"rows-row3", data_new)]
    # timestamp without columns: happybase lists the families first (getColumnDescriptors).
    assert table.rows(keys + [b"rows-other"], timestamp=5000) == (
        [(k, data_old) for k in keys] + [(b"rows-other", {b"cf2:x": b"only-cf2"})])
    assert table.rows(keys, timestamp=4000) == []
    assert table.rows(keys, [b"cf1:col2"], timestamp=5000) == [(k, {b"cf1:col2": b"v2old"})
                                                               for k in keys]
    assert table.rows(keys[:1], [b"cf1:col1"], include_timestamp=True)[0][1][b"cf1:col1"][0] == b"v1new"
    assert table.rows(keys[:1], timestamp=5000, include_timestamp=True) == [
        (keys[0], {b"cf1:col1": (b"v1old", 4000), b"cf1:col2": (b"v2old", 4000)})]


def test_cells_versions_timestamp_and_include_timestamp(hb_table):
    table = hb_table(tag="cells")
    r, col = b"cell-test", b"cf1:col"
    for i in range(1, 6):
        table.put(r, {col: b"v%d" % i}, timestamp=i * 1000)

    assert table.cells(r, col) == [b"v5", b"v4", b"v3", b"v2", b"v1"]
    assert table.cells(r, col, versions=2) == [b"v5", b"v4"]
    assert table.cells(r, col, versions=1) == [b"v5"]
    assert table.cells(r, col, timestamp=4000) == [b"v3", b"v2", b"v1"]  # 4000 itself excluded
    assert table.cells(r, col, versions=1, timestamp=4000) == [b"v3"]
    assert table.cells(r, col, versions=2, timestamp=4001, include_timestamp=True) == [
        (b"v4", 4000), (b"v3", 3000)]
    assert table.cells(r, col, timestamp=1000) == []
    assert table.cells(r, col, include_timestamp=True) == [(b"v%d" % i, i * 1000)
                                                           for i in range(5, 0, -1)]
    assert table.cells(r, b"cf1:missing") == []
    assert table.cells(b"missing-row", col) == []

    # Reads never return more than the family keeps: cf2 has 3 versions, cf3 has 1.
    for i in range(1, 6):
        table.put(r, {b"cf2:c": b"v%d" % i, b"cf3:c": b"v%d" % i}, timestamp=i * 1000)
    assert table.cells(r, b"cf2:c") == [b"v5", b"v4", b"v3"]
    assert table.cells(r, b"cf3:c") == [b"v5"]

    # The largest timestamp wins, not the last write; rewriting a timestamp replaces that version.
    table.put(r, {b"cf1:col": b"late-but-old"}, timestamp=500)
    table.put(r, {b"cf1:col": b"v3-rewritten"}, timestamp=3000)
    assert table.row(r, [b"cf1:col"]) == {b"cf1:col": b"v5"}
    assert table.cells(r, col, include_timestamp=True) == [
        (b"v5", 5000), (b"v4", 4000), (b"v3-rewritten", 3000), (b"v2", 2000), (b"v1", 1000),
        (b"late-but-old", 500)]


# --------------------------------------------------------------------------------------------
# Scans


def _fill_scan_rows(table):
    with table.batch() as b:
        for i in range(2000):
            b.put(b"row-scan-a%05d" % i, {b"cf1:col1": b"v1", b"cf1:col2": b"v2",
                                           b"cf2:col1": b"v1", b"cf2:col2": b"v2"})
            b.put(b"row-scan-b%05d" % i, {b"cf1:col1": b"v1", b"cf1:col2": b"v2"})


def test_scan_2000_rows_bounds_columns_limit_and_batch_size(hb_table):
    table = hb_table(tag="scan")
    _fill_scan_rows(table)
    a_keys = [b"row-scan-a%05d" % i for i in range(2000)]
    b_keys = [b"row-scan-b%05d" % i for i in range(2000)]

    assert scan_keys(table, row_start=b"row-scan-a00012", row_stop=b"row-scan-a00022") == a_keys[12:22]
    assert scan_keys(table, row_start=b"xyz") == []
    assert scan_keys(table, row_start=b"xyz", row_stop=b"zyx") == []
    assert scan_keys(table, row_start=b"row-scan-b01990") == b_keys[1990:]
    assert scan_keys(table, row_stop=b"row-scan-a00003") == a_keys[:3]

    rows = scan_list(table, row_start=b"row-scan-", row_stop=b"row-scan-a999",
                     columns=[b"cf1:col1", b"cf2:col2"])
    assert [k for k, _ in rows] == a_keys
    assert all(row == {b"cf1:col1": b"v1", b"cf2:col2": b"v2"} for _, row in rows)

    # Rows without any cell in the requested columns are not returned at all.
    assert scan_keys(table, columns=[b"cf2"]) == a_keys
    assert scan_list(table, row_prefix=b"row-scan-a0000", columns=[b"cf2:col1"]) == [
        (k, {b"cf2:col1": b"v1"}) for k in a_keys[:10]]

    assert scan_keys(table, row_prefix=b"row-scan-a", batch_size=499, limit=1000) == a_keys[:1000]
    assert scan_keys(table, row_prefix=b"row-scan-b", batch_size=1, limit=10) == b_keys[:10]
    assert scan_keys(table, row_prefix=b"row-scan-b", batch_size=5, limit=10) == b_keys[:10]
    assert scan_keys(table, row_prefix=b"row-scan-b", batch_size=7) == b_keys
    assert scan_keys(table, batch_size=1000) == a_keys + b_keys
    assert scan_keys(table, limit=1) == a_keys[:1]

    first = scan_list(table, limit=1)[0]
    assert first == (a_keys[0], {b"cf1:col1": b"v1", b"cf1:col2": b"v2",
                                 b"cf2:col1": b"v1", b"cf2:col2": b"v2"})

    assert scan_list(table, timestamp=123) == []
    assert scan_list(table, row_prefix=b"row", timestamp=123) == []


def test_scan_in_compat_090_mode_uses_the_old_scanner_calls(hbase_endpoint, hb_table,
                                                           happybase_options):
    # compat='0.90' scans through scannerOpen / scannerOpenTs / scannerOpenWithStop(Ts).
    name = hb_table(tag="compat090").name
    old = happybase.Connection(hbase_endpoint.host, hbase_endpoint.port, compat="0.90",
                               **happybase_options)
    try:
        table = old.table(name)
        for i in range(30):
            table.put(b"k%02d" % i, {b"cf1:a": b"new%d" % i, b"cf2:b": b"b"}, timestamp=200)
            table.put(b"k%02d" % i, {b"cf1:a": b"old%d" % i}, timestamp=100)
        keys = [b"k%02d" % i for i in range(30)]
        assert scan_keys(table) == keys
        assert scan_keys(table, row_start=b"k05", row_stop=b"k09") == keys[5:9]
        assert scan_list(table, row_start=b"k28", columns=[b"cf1"]) == [
            (b"k28", {b"cf1:a": b"new28"}), (b"k29", {b"cf1:a": b"new29"})]
        assert scan_list(table, row_start=b"k28", timestamp=200, columns=[b"cf1:a"]) == [
            (b"k28", {b"cf1:a": b"old28"}), (b"k29", {b"cf1:a": b"old29"})]
        assert scan_list(table, row_prefix=b"k1", timestamp=150, batch_size=3, limit=4) == [
            (b"k1%d" % i, {b"cf1:a": b"old1%d" % i}) for i in range(4)]
        with pytest.raises(NotImplementedError):
            scan_list(table, filter=b"KeyOnlyFilter()")
    finally:
        old.close()


def test_scan_generator_closed_early_stops(hb_table):
    table = hb_table(tag="scanclose")
    with table.batch() as b:
        for i in range(50):
            b.put(b"k%03d" % i, {b"cf1:q": b"v"})
    scanner = table.scan(batch_size=20)
    assert next(scanner) == (b"k000", {b"cf1:q": b"v"})
    scanner.close()  # runs scannerClose on the server
    with pytest.raises(StopIteration):
        next(scanner)
    assert len(scan_list(table)) == 50


def test_scan_reverse_2000_rows(hb_table):
    table = hb_table(tag="reverse")
    with table.batch() as b:
        for i in range(2000):
            b.put(b"row-scan-reverse-%04d" % i, {b"cf1:col1": b"v1", b"cf1:col2": b"v2"})
    keys = [b"row-scan-reverse-%04d" % i for i in range(2000)]

    assert scan_keys(table, row_prefix=b"row-scan-reverse", reverse=True) == keys[::-1]
    assert scan_keys(table, limit=10, reverse=True) == keys[::-1][:10]
    assert scan_keys(table, reverse=True, batch_size=3, limit=7) == keys[::-1][:7]
    # Reverse: row_start is the larger (inclusive) bound, row_stop the smaller (exclusive) one.
    got = scan_keys(table, row_start=b"row-scan-reverse-1999", row_stop=b"row-scan-reverse-0000",
                    reverse=True)
    assert got[0] == b"row-scan-reverse-1999"
    assert got[-1] == b"row-scan-reverse-0001"
    assert got == keys[1:][::-1]
    assert scan_keys(table, row_start=b"row-scan-reverse-0010x", row_stop=b"row-scan-reverse-0007",
                     reverse=True) == [keys[10], keys[9], keys[8]]
    rows = scan_list(table, row_prefix=b"row-scan-reverse-000", reverse=True, columns=[b"cf1:col2"])
    assert rows == [(k, {b"cf1:col2": b"v2"}) for k in keys[:10][::-1]]


def test_scan_sorted_columns_returns_cells_in_hbase_order(hb_table):
    table = hb_table(tag="sorted")
    input_row = {b"cf1:col-%03d" % i: b"" for i in range(100)}
    input_row.update({b"cf2:a": b"2a", b"cf1:": b"empty"})
    key = b"row-scan-sorted"
    table.put(key, input_row)
    table.put(b"row-scan-sorted-2", {b"cf1:z": b"1"})

    scan = table.scan(row_start=key, sorted_columns=True)
    k, row = next(scan)
    scan.close()
    assert k == key
    assert isinstance(row, OrderedDict)
    assert list(row.items()) == sorted(input_row.items())  # cf1: < cf1:col-000 < ... < cf2:a

    rows = scan_list(table, row_start=key, sorted_columns=True, include_timestamp=True,
                     columns=[b"cf2", b"cf1:col-001"])
    assert [k for k, _ in rows] == [key]
    assert list(rows[0][1]) == [b"cf1:col-001", b"cf2:a"]
    assert rows[0][1][b"cf2:a"][0] == b"2a"


def test_scan_timestamp_and_include_timestamp(hb_table):
    table = hb_table(tag="scants")
    table.put(b"ts-row", {b"cf1:c": b"old"}, timestamp=100)
    table.put(b"ts-row", {b"cf1:c": b"new"}, timestamp=200)
    table.put(b"ts-row2", {b"cf1:c": b"only"}, timestamp=300)

    assert scan_list(table, timestamp=200) == [(b"ts-row", {b"cf1:c": b"old"})]
    assert scan_list(table, timestamp=201) == [(b"ts-row", {b"cf1:c": b"new"})]
    assert scan_list(table, timestamp=301, include_timestamp=True) == [
        (b"ts-row", {b"cf1:c": (b"new", 200)}), (b"ts-row2", {b"cf1:c": (b"only", 300)})]
    assert scan_list(table, include_timestamp=True, row_prefix=b"ts-row2") == [
        (b"ts-row2", {b"cf1:c": (b"only", 300)})]
    assert scan_list(table, timestamp=100) == []


def test_scan_batching_splits_wide_row_into_same_key_results(hb_table):
    table = hb_table(tag="batching")
    table.put(b"r", {b"cf1:c%d" % i: b"%d" % i for i in range(1, 6)})
    table.put(b"s", {b"cf1:c1": b"s1"})
    assert scan_list(table, scan_batching=2) == [
        (b"r", {b"cf1:c1": b"1", b"cf1:c2": b"2"}),
        (b"r", {b"cf1:c3": b"3", b"cf1:c4": b"4"}),
        (b"r", {b"cf1:c5": b"5"}),
        (b"s", {b"cf1:c1": b"s1"}),
    ]
    # limit counts results (partial rows), not rows.
    assert [k for k, _ in table.scan(scan_batching=2, limit=2)] == [b"r", b"r"]


def test_scan_filter_single_column_value_keeps_matching_rows(hb_table):
    # happybase passes `filter` through as TScan.filterString (HBase's filter language).
    table = hb_table(tag="filter")
    table.put(b"r1", {b"cf1:qual1": b"val1", b"cf1:other": b"a"})
    table.put(b"r2", {b"cf1:qual1": b"val2", b"cf1:other": b"b"})
    table.put(b"r3", {b"cf1:qual1": b"val1"})
    filt = b"SingleColumnValueFilter ('cf1', 'qual1', =, 'binary:val1')"
    assert scan_list(table, filter=filt) == [
        (b"r1", {b"cf1:qual1": b"val1", b"cf1:other": b"a"}),
        (b"r3", {b"cf1:qual1": b"val1"})]


# --------------------------------------------------------------------------------------------
# Deletes


def test_delete_columns_with_timestamp_removes_versions_up_to_ts(hb_table):
    table = hb_table(tag="delete")
    r = b"row-test-delete"
    data = {b"cf1:col1": b"v1", b"cf1:col2": b"v2", b"cf1:col3": b"v3"}
    table.put(r, {b"cf1:col2": b"v2old"}, timestamp=1234)
    table.put(r, data)

    table.delete(r, [b"cf1:col2"], timestamp=2345)
    assert table.cells(r, b"cf1:col2", versions=2) == [b"v2"]
    assert table.row(r) == data

    table.delete(r, [b"cf1:col1"])
    assert table.row(r) == {b"cf1:col2": b"v2", b"cf1:col3": b"v3"}

    table.delete(r, timestamp=12345)  # whole row, cells <= 12345: nothing left there
    assert table.row(r) == {b"cf1:col2": b"v2", b"cf1:col3": b"v3"}

    table.delete(r)
    assert table.row(r) == {}
    table.delete(b"no-such-row")  # deleting a missing row is fine
    assert table.row(b"no-such-row") == {}


def test_delete_row_with_timestamp_covers_every_family_and_masks_later_older_puts(hb_table):
    table = hb_table(tag="delts")
    r = b"r"
    table.put(r, {b"cf1:a": b"a100"}, timestamp=100)
    table.put(r, {b"cf1:a": b"a300"}, timestamp=300)
    table.put(r, {b"cf2:b": b"b200"}, timestamp=200)
    table.put(r, {b"cf2:c": b"c250"}, timestamp=250)

    table.delete(r, timestamp=250)  # inclusive: the cell at 250 goes too
    assert table.cells(r, b"cf1:a", include_timestamp=True) == [(b"a300", 300)]
    assert table.row(r) == {b"cf1:a": b"a300"}

    # The delete marker keeps hiding puts at or below its timestamp, even ones written later.
    table.put(r, {b"cf2:b": b"late", b"cf1:a": b"late"}, timestamp=150)
    table.put(r, {b"cf2:c": b"at-250"}, timestamp=250)
    assert table.row(r) == {b"cf1:a": b"a300"}
    table.put(r, {b"cf2:b": b"b251"}, timestamp=251)
    assert table.row(r) == {b"cf1:a": b"a300", b"cf2:b": b"b251"}


def test_delete_family_column_spec_removes_whole_family(hb_table):
    table = hb_table(tag="delfam")
    table.put(b"r", {b"cf1:a": b"1", b"cf1:b": b"2", b"cf1:": b"e", b"cf2:c": b"3"})
    table.delete(b"r", [b"cf1:"])  # only the empty-qualifier column
    assert table.row(b"r") == {b"cf1:a": b"1", b"cf1:b": b"2", b"cf2:c": b"3"}
    table.delete(b"r", [b"cf1"])  # the whole family
    assert table.row(b"r") == {b"cf2:c": b"3"}


# --------------------------------------------------------------------------------------------
# Counters


def test_counters_are_8_byte_big_endian_and_atomic(hb_table):
    table = hb_table(tag="counter")
    r, col = b"row-with-counter", b"cf1:counter"
    # HBase stamps an increment max(now, previous cell ts + 1). Several increments inside one
    # millisecond therefore run ahead of the clock, and a counter_set (a put at "now") issued
    # right after them would be hidden behind the newer increment cell. happybase's own test
    # relies on each call taking over a millisecond; on a fast server, wait for the clock instead.
    def settle():
        time.sleep(0.005)

    def inc(value=1):
        result = table.counter_inc(r, col, value)
        settle()
        return result

    def dec(value=1):
        result = table.counter_dec(r, col, value)
        settle()
        return result

    def get():
        result = table.counter_get(r, col)
        settle()
        return result
    assert get() == 0
    assert inc(10) == 10
    assert get() == 10

    table.counter_set(r, col, 0)
    assert inc() == 1
    assert inc(3) == 4
    assert get() == 4

    table.counter_set(r, col, 3)
    assert get() == 3
    assert inc(5) == 8
    assert inc(-2) == 6
    assert dec() == 5
    assert dec(2) == 3
    assert dec(-7) == 10
    assert table.row(r, [col]) == {col: b"\x00\x00\x00\x00\x00\x00\x00\x0a"}

    assert dec(12) == -2
    assert table.row(r, [col]) == {col: b"\xff\xff\xff\xff\xff\xff\xff\xfe"}

    table.counter_set(r, col, 2 ** 63 - 1)
    assert inc() == -2 ** 63  # wraps like a Java long

    # Back-to-back increments with no pause: each returns the running total.
    other = b"cf1:burst"
    assert [table.counter_inc(r, other) for _ in range(20)] == list(range(1, 21))
    assert table.row(r, [other]) == {other: (20).to_bytes(8, "big")}

    table.put(r, {b"cf1:text": b"10"})
    with pytest.raises(HBIOError) as err:
        table.counter_inc(r, b"cf1:text")
    assert "Field is not a long, it's 2 bytes wide" in text(err.value.message)
    assert table.row(r, [b"cf1:text"]) == {b"cf1:text": b"10"}


# --------------------------------------------------------------------------------------------
# Batches


def test_batch_put_and_delete_are_sent_on_send(hb_table):
    table = hb_table(tag="batch")
    with pytest.raises(TypeError):
        table.batch(timestamp="invalid")
    with pytest.raises(ValueError):
        table.batch(batch_size=0)
    with pytest.raises(TypeError):
        table.batch(transaction=True, batch_size=10)

    table.put(b"row1", {b"cf1:col4": b"to-delete"})
    b = table.batch()
    b.put(b"row1", {b"cf1:col1": b"value1", b"cf1:col2": b"value2"})
    b.put(b"row2", {b"cf1:col1": b"value1", b"cf1:col2": b"value2", b"cf1:col3": b"value3"})
    b.delete(b"row1", [b"cf1:col4"])
    b.delete(b"another-row")
    assert table.row(b"row2") == {}  # nothing sent yet
    b.send()
    assert table.row(b"row1") == {b"cf1:col1": b"value1", b"cf1:col2": b"value2"}
    assert table.row(b"row2") == {b"cf1:col1": b"value1", b"cf1:col2": b"value2",
                                  b"cf1:col3": b"value3"}

    b = table.batch(timestamp=1234567)
    b.put(b"row1", {b"cf1:col5": b"value5"})
    b.send()
    assert table.row(b"row1", [b"cf1:col5"], include_timestamp=True) == {
        b"cf1:col5": (b"value5", 1234567)}


def test_batch_put_then_delete_of_same_column_ends_deleted(hb_table):
    # One mutateRows call applies every put first, then every delete.
    table = hb_table(tag="batchpd")
    with table.batch() as b:
        b.put(b"row4", {b"cf1:col3": b"value3"})
        b.put(b"row5", {b"cf1:col4": b"value4"})
        b.put(b"row", {b"cf1:col1": b"value1"})
        b.delete(b"row", [b"cf1:col1"])
        b.put(b"row", {b"cf1:col2": b"value2"})
    assert table.row(b"row") == {b"cf1:col2": b"value2"}
    assert table.row(b"row4") == {b"cf1:col3": b"value3"}
    assert table.row(b"row5") == {b"cf1:col4": b"value4"}

    with table.batch(timestamp=87654321) as b:
        b.put(b"row", {b"cf1:c3": b"somevalue", b"cf1:c5": b"anothervalue"})
        b.delete(b"row", [b"cf1:c3"])
    assert table.row(b"row") == {b"cf1:col2": b"value2", b"cf1:c5": b"anothervalue"}

    # Delete listed before the put: still puts first, so the column ends deleted.
    with table.batch() as b:
        b.delete(b"row6", [b"cf1:x"])
        b.put(b"row6", {b"cf1:x": b"x", b"cf1:y": b"y"})
    assert table.row(b"row6") == {b"cf1:y": b"y"}


def test_batch_transaction_true_not_sent_on_exception_false_sent(hb_table):
    table = hb_table(tag="txn")
    with pytest.raises(ValueError):
        with table.batch(transaction=True) as b:
            b.put(b"fooz", {b"cf1:bar": b"baz"})
            raise ValueError
    assert table.row(b"fooz", [b"cf1:bar"]) == {}

    with pytest.raises(ValueError):
        with table.batch(transaction=False) as b:
            b.put(b"fooz", {b"cf1:bar": b"baz"})
            raise ValueError
    assert table.row(b"fooz", [b"cf1:bar"]) == {b"cf1:bar": b"baz"}


def test_batch_size_sends_every_n_mutations(hb_table):
    table = hb_table(tag="batchsize")
    with table.batch(batch_size=5) as b:
        for i in range(4):
            b.put(b"row-batch0-%03d" % i, {b"cf1:": b"%d" % i})
        assert scan_keys(table, row_prefix=b"row-batch0-") == []  # 4 < 5: not sent yet
        b.put(b"row-batch0-004", {b"cf1:": b"4"})
        assert len(scan_keys(table, row_prefix=b"row-batch0-")) == 5  # 5th mutation sent them

    with table.batch(batch_size=5) as b:
        for i in range(10):
            b.put(b"row-batch1-%03d" % i, {b"cf1:": b"%d" % i})
    assert scan_list(table, row_prefix=b"row-batch1-") == [
        (b"row-batch1-%03d" % i, {b"cf1:": b"%d" % i}) for i in range(10)]

    with table.batch(batch_size=20) as b:
        for i in range(95):
            b.put(b"row-batch2-%03d" % i, {b"cf1:": b"%d" % i})
    assert len(scan_keys(table, row_prefix=b"row-batch2-")) == 95

    with table.batch(batch_size=20) as b:
        for i in range(95):
            b.delete(b"row-batch2-%03d" % i)
    assert scan_keys(table, row_prefix=b"row-batch2-") == []
    assert len(scan_keys(table, row_prefix=b"row-batch1-")) == 10


# --------------------------------------------------------------------------------------------
# ConnectionPool


def test_connection_pool_construction_rejects_bad_sizes():
    with pytest.raises(TypeError):
        happybase.ConnectionPool(size="abc")
    with pytest.raises(ValueError):
        happybase.ConnectionPool(size=0)


def test_connection_pool_10_threads_with_random_connection_failures(hbase_endpoint, hb_table,
                                                                   happybase_options):
    table_name = hb_table(tag="pool").name
    pool = happybase.ConnectionPool(size=3, host=hbase_endpoint.host, port=hbase_endpoint.port,
                                    **happybase_options)
    errors = []
    failures_injected = []

    def run(thread_no):
        rnd = random.Random(thread_no)
        try:
            for i in range(50):
                key = b"t%02d-%03d" % (thread_no, i)
                with pool.connection() as conn:
                    conn.table(table_name).put(key, {b"cf1:v": key})

                    def inner():
                        # Nested requests in one thread get the same connection.
                        with pool.connection() as again:
                            assert again is conn
                            if rnd.random() < .25:
                                failures_injected.append(key)
                                conn.transport.close()
                                raise TException("Fake transport exception")

                    try:
                        inner()
                    except TException:
                        pass  # the pool replaced the connection with a fresh one
                    assert conn.table(table_name).row(key) == {b"cf1:v": key}
                    assert table_name in conn.tables()
        except Exception as e:  # reported below with the thread number
            errors.append((thread_no, repr(e)))

    threads = [threading.Thread(target=run, args=(n,)) for n in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "pool threads hung"
    assert errors == []
    assert failures_injected  # the test did exercise reconnects

    with pool.connection() as conn:
        rows = list(conn.table(table_name).scan())
    expected = sorted(b"t%02d-%03d" % (n, i) for n in range(10) for i in range(50))
    assert [k for k, _ in rows] == expected
    assert all(row == {b"cf1:v": k} for k, row in rows)


def test_connection_pool_exhaustion_raises_no_connections_available(hbase_endpoint,
                                                                   happybase_options):
    pool = happybase.ConnectionPool(size=1, host=hbase_endpoint.host, port=hbase_endpoint.port,
                                    **happybase_options)
    outcome = []

    def other_thread():
        try:
            with pool.connection(timeout=.1) as conn:
                conn.tables()
            outcome.append("got a connection")
        except happybase.NoConnectionsAvailable:
            outcome.append("NoConnectionsAvailable")

    with pool.connection() as conn:
        conn.tables()
        t = threading.Thread(target=other_thread)
        t.start()
        t.join(10)
    assert outcome == ["NoConnectionsAvailable"]
    with pool.connection(timeout=1) as conn:  # returned to the pool, usable again
        assert isinstance(conn.tables(), list)


# --------------------------------------------------------------------------------------------
# Transports and protocols. Every test above runs in all four modes against the one server
# started without mode flags; these start servers that insist on one mode, as HBase does.


@pytest.mark.parametrize("flags,transport,protocol", [
    (["--framed"], "framed", "binary"),
    (["--compact"], "buffered", "compact"),
    (["--framed", "--compact"], "framed", "compact"),
], ids=["framed-binary", "buffered-compact", "framed-compact"])
def test_transport_and_protocol_flags_serve_happybase(server_factory, flags, transport, protocol):
    server = server_factory(flags=flags)
    conn = happybase.Connection(server.host, server.port, transport=transport, protocol=protocol,
                                timeout=hbcompat.CLIENT_TIMEOUT_MS)
    try:
        conn.create_table("tp", {"f": {"max_versions": 2}})
        table = conn.table("tp")
        table.put(b"r1", {b"f:a": b"1"}, timestamp=10)
        table.put(b"r1", {b"f:a": b"2"}, timestamp=20)
        table.put(b"r2", {b"f:b": b"x" * 100000})
        assert conn.tables() == [b"tp"]
        assert table.cells(b"r1", b"f:a", include_timestamp=True) == [(b"2", 20), (b"1", 10)]
        assert scan_list(table) == [(b"r1", {b"f:a": b"2"}), (b"r2", {b"f:b": b"x" * 100000})]
        assert table.counter_inc(b"c", b"f:n", 3) == 3
    finally:
        conn.close()


@pytest.mark.parametrize("flags,transport,protocol", [
    (["--framed"], "buffered", "binary"),
    (["--compact"], "buffered", "binary"),
    ([], "buffered", "binary"),
], ids=["framed-server-buffered-client", "compact-server-binary-client", "control"])
def test_a_server_insisting_on_one_mode_refuses_others_as_hbase_does(server_factory, flags,
                                                                    transport, protocol):
    server = server_factory(flags=flags)
    conn = happybase.Connection(server.host, server.port, transport=transport, protocol=protocol,
                                timeout=5000)
    try:
        if flags:
            with pytest.raises((TException, EOFError, OSError)):
                conn.tables()
        else:
            assert conn.tables() == []
    finally:
        conn.close()
