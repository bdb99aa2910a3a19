"""Hostile bytes on the wire: truncated messages, wrong field types, huge length prefixes,
unknown methods, random bytes and half-open connections. Each must get a Thrift application
error or a closed connection, and the server must keep serving everybody else.

HBEMU_CORPUS_RANDOM sets how many random inputs are sent (default 300).
"""

import os
import random
import socket
import struct
import time

import pytest
from thrift.Thrift import TApplicationException, TMessageType

import hbcompat

RANDOM_INPUTS = int(os.environ.get("HBEMU_CORPUS_RANDOM", "300"))
VERSION_1 = 0x80010000


def call_header(name, mtype=TMessageType.CALL, seqid=1):
    return struct.pack(">II", VERSION_1 | mtype, len(name)) + name + struct.pack(">i", seqid)


def field_string(fid, value):
    return struct.pack(">bhI", 11, fid, len(value)) + value


STOP = b"\x00"


def exchange(endpoint, payload, half_close=True, timeout=3.0):
    """Sends payload; returns ('closed', b'') or ('reply', bytes) or ('silent', b'')."""
    s = socket.create_connection((endpoint.host, endpoint.port), timeout=timeout)
    try:
        s.sendall(payload)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    return ("reply", data) if data else ("closed", b"")
                data += chunk
                if not half_close and len(data) >= 4:
                    return "reply", data
        except socket.timeout:
            return ("reply", data) if data else ("silent", b"")
        except ConnectionResetError:
            return "closed", b""
    finally:
        s.close()


def decode_exception(reply):
    """The TApplicationException in a binary-protocol reply, or None if it is not one."""
    from thrift.protocol import TBinaryProtocol
    from thrift.transport import TTransport

    proto = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(reply))
    _, mtype, _ = proto.readMessageBegin()
    if mtype != TMessageType.EXCEPTION:
        return None
    x = TApplicationException()
    x.read(proto)
    return x


def reply_type(reply):
    """The message type of a binary-protocol reply."""
    from thrift.protocol import TBinaryProtocol
    from thrift.transport import TTransport

    return TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(reply)).readMessageBegin()[1]


@pytest.fixture
def control(raw_client):
    """A well-behaved client on its own connection: it must keep working throughout."""
    def check():
        assert isinstance(raw_client.getTableNames(), list)
    return check


def test_unknown_method_gets_unknown_method_error(hbase_endpoint, control):
    kind, reply = exchange(hbase_endpoint, call_header(b"noSuchMethod") + STOP)
    assert kind == "reply"
    x = decode_exception(reply)
    assert x is not None and x.type == TApplicationException.UNKNOWN_METHOD
    control()


def test_wrong_field_types_get_an_error_or_a_closed_connection(hbase_endpoint, control):
    # getRow(tableName: i32, row: list<i64>): the generated reader skips fields of the wrong
    # type, so the call runs with empty arguments and fails like HBase would.
    body = struct.pack(">bhi", 8, 1, 42) + struct.pack(">bhbi", 15, 2, 10, 1) + struct.pack(">q", 7) + STOP
    kind, reply = exchange(hbase_endpoint, call_header(b"getRow") + body)
    assert kind in ("reply", "closed")
    if kind == "reply":
        from hbase import Hbase
        from thrift.protocol import TBinaryProtocol
        from thrift.transport import TTransport
        proto = TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(reply))
        _, mtype, _ = proto.readMessageBegin()
        if mtype == TMessageType.REPLY:
            result = Hbase.getRow_result()
            result.read(proto)
            assert result.io is not None, "a call with unusable arguments must not succeed"
    control()


def test_huge_length_prefixes_close_the_connection(hbase_endpoint, control):
    for payload in (call_header(b"getRow") + struct.pack(">bhI", 11, 1, 0x7FFFFFF0),          # string
                    call_header(b"getRows") + struct.pack(">bhbI", 15, 2, 11, 0x7FFFFFF0),    # list
                    struct.pack(">II", VERSION_1 | 1, 0x7FFFFFF0)):                         # method name
        kind, _ = exchange(hbase_endpoint, payload, half_close=False)
        assert kind == "closed"
    control()


def test_truncated_messages_and_half_open_connections_are_dropped(hbase_endpoint, control):
    full = call_header(b"getRow") + field_string(1, b"t") + field_string(2, b"r") + STOP
    for cut in range(1, len(full)):
        kind, _ = exchange(hbase_endpoint, full[:cut])
        assert kind == "closed", "a client that half-closes mid-message just goes away"
    # Many connections that send nothing (or half a message) and stay open.
    idle = []
    for i in range(200):
        s = socket.create_connection((hbase_endpoint.host, hbase_endpoint.port))
        if i % 2:
            s.sendall(full[: len(full) // 2])
        idle.append(s)
    control()
    for s in idle:
        s.close()
    control()


def test_random_bytes_never_take_the_server_down(hbase_endpoint, control, capsys):
    rng = random.Random(5)
    outcomes = {"closed": 0, "reply": 0, "silent": 0}
    started = time.monotonic()
    for i in range(RANDOM_INPUTS):
        size = rng.choice([1, 3, 8, 17, 64, 300, 4096])
        payload = bytes(rng.getrandbits(8) for _ in range(size))
        if i % 3 == 0:  # make it look like a message so the decoder gets further
            payload = call_header(rng.choice([b"getRow", b"mutateRows", b"scannerOpenWithScan"])) + payload
        kind, reply = exchange(hbase_endpoint, payload, timeout=2.0)
        if kind == "reply" and reply.startswith(b"HTTP/1.1 "):
            # A first byte that is an upper-case letter reads as an HTTP method: the server
            # answers as an HTTP server would, with a 4xx, and closes.
            kind = "http error"
            assert reply[9:10] == b"4", reply[:40]
        elif kind == "reply":
            assert reply_type(reply) in (TMessageType.REPLY, TMessageType.EXCEPTION)
        outcomes[kind] = outcomes.get(kind, 0) + 1
        if i % 50 == 0:
            control()
    control()
    with capsys.disabled():
        print("\nhostile input corpus: %d random inputs (%s) plus the structured cases; server "
              "kept serving (%.1f s)" % (RANDOM_INPUTS, ", ".join("%s %d" % kv for kv in sorted(outcomes.items())),
                                          time.monotonic() - started))


def test_hostile_http_requests_get_http_errors_and_the_server_keeps_serving(hbase_endpoint, control):
    call = call_header(b"getTableNames") + STOP
    cases = [
        # (request bytes, expected status or "closed")
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 405),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n", 413),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nnot thrift", 500),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -3\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n", 431),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (len(call) + 50) + call, "closed"),
        (b"POST / HTTP/9.9\r\n\r\n", 400),
    ]
    for request, expected in cases:
        kind, reply = exchange(hbase_endpoint, request)
        if expected == "closed":
            assert kind == "closed", (request[:60], reply[:80])
        else:
            assert kind == "reply", (request[:60], kind)
            assert reply.startswith(b"HTTP/1.1 %d " % expected), (request[:60], reply[:80])
    # A well-formed request on the same kind of connection still works.
    kind, reply = exchange(hbase_endpoint, b"POST /any/path HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                           % len(call) + call)
    assert kind == "reply" and reply.startswith(b"HTTP/1.1 200 "), reply[:80]
    body = reply.split(b"\r\n\r\n", 1)[1]
    assert reply_type(body) == TMessageType.REPLY
    control()
