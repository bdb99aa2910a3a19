"""Thrift1 through happybase, as most Python users reach HBase."""

import happybase

COLORS = {b"apple": b"red", b"banana": b"yellow", b"cherry": b"red", b"date": b"brown"}


def test_put_get_and_filtered_scan(target, table_name):
    conn = happybase.Connection(target.host, target.thrift1, timeout=60000)
    try:
        conn.create_table(table_name, {"f": dict(max_versions=2)})
        table = conn.table(table_name)
        with table.batch() as batch:
            for row, color in COLORS.items():
                batch.put(row, {b"f:color": color, b"f:len": str(len(row)).encode()})

        assert table.row(b"cherry") == {b"f:color": b"red", b"f:len": b"6"}
        assert table.row(b"cherry", columns=[b"f:len"]) == {b"f:len": b"6"}
        assert table.row(b"fig") == {}

        red = "SingleColumnValueFilter('f', 'color', =, 'binary:red', true, true)"
        assert [(k, d[b"f:color"]) for k, d in table.scan(filter=red)] == [
            (b"apple", b"red"), (b"cherry", b"red")]
        assert [k for k, _ in table.scan(row_start=b"b", row_stop=b"d")] == [b"banana", b"cherry"]
        assert [k for k, _ in table.scan(filter="PrefixFilter('da') AND KeyOnlyFilter()")] == [b"date"]

        # A second put in the same millisecond would replace the first, as in HBase: one later.
        [(_, red_ts)] = table.cells(b"apple", b"f:color", include_timestamp=True)
        table.put(b"apple", {b"f:color": b"green"}, timestamp=red_ts + 1)
        assert table.cells(b"apple", b"f:color", versions=3, include_timestamp=True) == [
            (b"green", red_ts + 1), (b"red", red_ts)]
        conn.delete_table(table_name, disable=True)
        assert table_name.encode() not in conn.tables()
    finally:
        conn.close()
