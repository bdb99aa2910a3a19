"""Thrift2 TGet/TScan.filterBytes: HBase's protobuf-serialized Filter, which HBase's own Java
client (ThriftConnection's ThriftTable) sends for every filter. The bytes are built here by hand
from the wire format, as that client builds them. Every test passes against HBase 2.6.1
(HBASE_THRIFT_TARGET/HBASE_THRIFT2_TARGET), answers and error texts included.
"""

import pytest

from hbase2.ttypes import TColumnValue, TGet, TIOError, TPut, TScan

PKG = b"org.apache.hadoop.hbase.filter."
TRUNCATED = ("While parsing a protocol message, the input ended unexpectedly in the middle of a "
             "field.  This could mean either that the input has been truncated or that an "
             "embedded message misreported its own length.")
DESERIALIZATION = "org.apache.hadoop.hbase.exceptions.DeserializationException: "
INVALID_PROTOBUF = "org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException: "
NESTED = DESERIALIZATION + "org.apache.hadoop.hbase.DoNotRetryIOException: "
EQUAL, NOT_EQUAL = 2, 3
MUST_PASS_ALL, MUST_PASS_ONE = 1, 2


def varint(n):
    n &= (1 << 64) - 1
    out = b""
    while n >= 0x80:
        out += bytes([(n & 0x7F) | 0x80])
        n >>= 7
    return out + bytes([n])


def num(field, n):
    return varint(field << 3) + varint(n)


def ld(field, data):
    return varint((field << 3) | 2) + varint(len(data)) + data


def filt(simple, body=b""):
    return ld(1, PKG + simple) + ld(2, body)


def binary(value):
    return filt(b"BinaryComparator", ld(1, ld(1, value)))


def compare(op, comparator):
    return ld(1, num(1, op) + ld(2, comparator))


def filter_list(op, *filters):
    return filt(b"FilterList", num(1, op) + b"".join(ld(2, f) for f in filters))


def prefix(p):
    return filt(b"PrefixFilter", ld(1, p))


@pytest.fixture
def table(thrift2_client, thrift2_table):
    t = thrift2_table()
    for i in range(1, 6):
        row = b"r%d" % i
        cells = [TColumnValue(b"f", b"a", b"v%d" % i)]
        if i % 2:
            cells.append(TColumnValue(b"f", b"b", b"odd"))
        thrift2_client.put(t, TPut(row=row, columnValues=cells))
    return t


def scan_rows(client, table, filter_bytes=None, filter_string=None):
    scanner = client.openScanner(table, TScan(filterBytes=filter_bytes, filterString=filter_string))
    try:
        rows = client.getScannerRows(scanner, 100)
    finally:
        client.closeScanner(scanner)
    return [(r.row, [(c.qualifier, c.value) for c in r.columnValues]) for r in rows]


@pytest.mark.parametrize("filter_bytes, filter_string", [
    (prefix(b"r2"), b"PrefixFilter('r2')"),
    (filter_list(MUST_PASS_ONE, prefix(b"r1"), prefix(b"r4")),
     b"PrefixFilter('r1') OR PrefixFilter('r4')"),
    (filter_list(MUST_PASS_ALL, filt(b"QualifierFilter", compare(EQUAL, binary(b"b"))),
                 filt(b"RowFilter", compare(NOT_EQUAL, binary(b"r3")))),
     b"QualifierFilter(=, 'binary:b') AND RowFilter(!=, 'binary:r3')"),
    (filt(b"SingleColumnValueFilter", ld(1, b"f") + ld(2, b"b") + num(3, EQUAL) +
          ld(4, binary(b"odd")) + num(5, 1) + num(6, 1)),
     b"SingleColumnValueFilter('f', 'b', =, 'binary:odd', true, true)"),
    (filt(b"PageFilter", num(1, 2)), b"PageFilter(2)"),
    (filt(b"SkipFilter", ld(1, filt(b"ValueFilter", compare(NOT_EQUAL, binary(b"odd"))))),
     b"SKIP ValueFilter(!=, 'binary:odd')"),
], ids=["prefix", "list-one", "list-all", "scvf", "page", "skip"])
def test_a_protobuf_filter_selects_what_the_same_filter_string_selects(
        thrift2_client, table, filter_bytes, filter_string):
    expected = scan_rows(thrift2_client, table, filter_string=filter_string)
    assert expected, "the case should select something"
    assert scan_rows(thrift2_client, table, filter_bytes=filter_bytes) == expected


def test_a_filtered_get_uses_filter_bytes_and_they_win_over_filter_string(thrift2_client, table):
    only_a = filt(b"QualifierFilter", compare(EQUAL, binary(b"a")))
    got = thrift2_client.get(table, TGet(row=b"r1", filterBytes=only_a))
    assert [(c.qualifier, c.value) for c in got.columnValues] == [(b"a", b"v1")]
    # HBase sets the string's filter first, then replaces it with the protobuf one.
    got = thrift2_client.get(table, TGet(row=b"r1", filterString=b"PrefixFilter('zz')",
                                         filterBytes=only_a))
    assert [(c.qualifier, c.value) for c in got.columnValues] == [(b"a", b"v1")]


def expect_tioerror(call, message, can_retry):
    with pytest.raises(TIOError) as failure:
        call()
    assert (failure.value.message, failure.value.canRetry) == (message, can_retry)


@pytest.mark.parametrize("filter_bytes, message, can_retry", [
    (ld(1, b"org.example.NoSuchFilter") + ld(2, b""),
     "java.lang.ClassNotFoundException: org.example.NoSuchFilter", False),
    (b"\xff\xff\xff", TRUNCATED, True),
    (b"", "Message missing required fields: name", True),
    (filt(b"PageFilter"),
     DESERIALIZATION + INVALID_PROTOBUF + "Message missing required fields: page_size", False),
    (filt(b"PageFilter", num(1, -1)), "java.lang.IllegalArgumentException: must be positive -1",
     False),
    (filt(b"PrefixFilter", ld(1, b"r") + b"\x00"),
     DESERIALIZATION + INVALID_PROTOBUF + "Protocol message contained an invalid tag (zero).",
     False),
    (filter_list(MUST_PASS_ALL, filter_list(MUST_PASS_ONE, ld(1, b"org.example.NoSuchFilter"))),
     NESTED + NESTED + "java.lang.ClassNotFoundException: org.example.NoSuchFilter", False),
    (filt(b"ValueFilter", compare(EQUAL, ld(1, b"org.example.NoCmp"))),
     DESERIALIZATION + "java.io.IOException: java.lang.ClassNotFoundException: org.example.NoCmp",
     False),
], ids=["unknown-class", "garbage", "empty", "missing-field", "refused-argument", "zero-tag",
        "nested-unknown-class", "unknown-comparator"])
def test_a_filter_that_cannot_be_built_fails_get_and_openScanner_as_hbase_does(
        thrift2_client, table, filter_bytes, message, can_retry):
    expect_tioerror(lambda: thrift2_client.get(table, TGet(row=b"r1", filterBytes=filter_bytes)),
                    message, can_retry)
    expect_tioerror(lambda: thrift2_client.openScanner(table, TScan(filterBytes=filter_bytes)),
                    message, can_retry)
