"""Hostile Thrift2 filterBytes: a FilterList nested far past the filter_depth limit, one far
wider than filter_count, and one huge filter body. Each gets a TIOError naming the limit (or the
filter's own answer), the server stays up, a bystander connection keeps getting answers, and the
resident memory stays bounded. Each test starts its own server.
"""

import pytest

import hbcompat
from hbase2 import THBaseService
from hbase2.ttypes import (TColumnFamilyDescriptor, TColumnValue, TGet, TIOError, TPut, TScan,
                           TTableDescriptor, TTableName)

PKG = b"org.apache.hadoop.hbase.filter."
RSS_BOUND_KB = 600 * 1024  # the in-memory server idles near 20 MB; each attack sends < 60 MB


def varint(n):
    out = b""
    while n >= 0x80:
        out += bytes([(n & 0x7F) | 0x80])
        n >>= 7
    return out + bytes([n])


def ld(field, data):
    return varint((field << 3) | 2) + varint(len(data)) + data


def filt(simple, body=b""):
    return ld(1, PKG + simple) + ld(2, body)


@pytest.fixture
def served(server_factory):
    server = server_factory()
    client, transport = hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService,
                                                 timeout_ms=120000)
    bystander, bystander_transport = hbcompat.open_raw_client(server.host, server.thrift2_port,
                                                              THBaseService)
    table = TTableName(ns=b"default", qualifier=b"hostile_fb")
    client.createTable(TTableDescriptor(tableName=table,
                                        columns=[TColumnFamilyDescriptor(name=b"f")]), None)
    client.put(b"hostile_fb", TPut(row=b"r", columnValues=[TColumnValue(b"f", b"q", b"v")]))
    yield server, client, bystander
    transport.close()
    bystander_transport.close()


def assert_still_serving(server, bystander):
    assert server.alive()
    got = bystander.get(b"hostile_fb", TGet(row=b"r"))
    assert [(c.qualifier, c.value) for c in got.columnValues] == [(b"q", b"v")]
    assert hbcompat.server_rss_mib(server.proc.pid) * 1024 < RSS_BOUND_KB


def expect_limit(call, limit):
    with pytest.raises(TIOError) as failure:
        call()
    assert "limit %s=" % limit in failure.value.message
    assert failure.value.canRetry is False


def test_a_filter_list_nested_past_filter_depth_is_refused(served):
    server, client, bystander = served
    nested = filt(b"KeyOnlyFilter", b"\x08\x00")
    for _ in range(2000):  # four times the default filter_depth of 512
        nested = filt(b"FilterList", b"\x08\x01" + ld(2, nested))
    expect_limit(lambda: client.get(b"hostile_fb", TGet(row=b"r", filterBytes=nested)),
                 "filter_depth")
    expect_limit(lambda: client.openScanner(b"hostile_fb", TScan(filterBytes=nested)),
                 "filter_depth")
    assert_still_serving(server, bystander)


def test_a_filter_list_wider_than_filter_count_is_refused(served):
    server, client, bystander = served
    # 1.5 million two-byte members (3 MB): a protobuf object each if parsed, so they are counted
    # on the wire and refused first.
    wide = filt(b"FilterList", b"\x08\x02" + ld(2, b"") * 1500000)
    expect_limit(lambda: client.get(b"hostile_fb", TGet(row=b"r", filterBytes=wide)),
                 "filter_count")
    assert_still_serving(server, bystander)


def test_filter_bytes_past_the_filter_bytes_limit_are_refused_unread(served):
    server, client, bystander = served
    huge = filt(b"PrefixFilter", ld(1, b"r" * (50 << 20)))
    expect_limit(lambda: client.get(b"hostile_fb", TGet(row=b"r", filterBytes=huge)),
                 "filter_bytes")
    assert_still_serving(server, bystander)


def test_the_largest_filter_within_the_limits_costs_bounded_memory(served):
    server, client, bystander = served
    # Just under 4 MB of one-byte timestamps: the densest body a filter here accepts.
    stamps = b"\x01" * ((4 << 20) - 200)
    many = filt(b"TimestampsFilter", ld(1, stamps))
    got = client.get(b"hostile_fb", TGet(row=b"r", filterBytes=many))
    assert got.columnValues == []  # the cell is not at timestamp 1
    assert_still_serving(server, bystander)
