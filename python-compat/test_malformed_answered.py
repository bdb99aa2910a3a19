"""Malformed messages HBase 2.6.1's gateways answer rather than drop (buffered binary): a field of
an unknown type or a negative string or container size makes Java's processor throw a
TProtocolException while it reads the arguments; it answers TApplicationException(PROTOCOL_ERROR)
and reads on right after the bytes it had read. HBase's Java client leaves such a message behind
when it fails to write a call half-way (`put(new Put(row))` with no columns). Other malformed
input (an unknown element type) closes the connection, as it does there. Each test passes against
the oracle (HBASE_THRIFT_TARGET/HBASE_THRIFT2_TARGET).
"""

import socket
import struct

import pytest
from thrift.Thrift import TApplicationException, TMessageType
from thrift.protocol import TBinaryProtocol
from thrift.transport import TTransport

VERSION_1 = 0x80010000


def header(name, seqid):
    return struct.pack(">II", VERSION_1 | TMessageType.CALL, len(name)) + name + struct.pack(">i", seqid)


def read_message(sock_file):
    """(message type, name, seqid, TApplicationException or None) of the next reply."""
    protocol = TBinaryProtocol.TBinaryProtocol(TTransport.TFileObjectTransport(sock_file))
    name, mtype, seqid = protocol.readMessageBegin()
    if mtype == TMessageType.EXCEPTION:
        error = TApplicationException()
        error.read(protocol)
        return mtype, name, seqid, error
    protocol.skip(12)  # the result struct
    return mtype, name, seqid, None


def table_exists(seqid):
    # tableExists(TTableName{qualifier: "missing_malformed"})
    qualifier = b"missing_malformed"
    args = b"\x0c\x00\x01" + b"\x0b\x00\x02" + struct.pack(">I", len(qualifier)) + qualifier + b"\x00\x00"
    return header(b"tableExists", seqid) + args


@pytest.fixture
def thrift2_socket(hbase_endpoint):
    if hbase_endpoint.thrift2_port is None:
        pytest.skip("the target serves no Thrift2")
    sock = socket.create_connection((hbase_endpoint.host, hbase_endpoint.thrift2_port), timeout=10)
    yield sock
    sock.close()


@pytest.mark.parametrize("bad, message", [
    # field 1 (a TTableName) holds a string of length -1
    (b"\x0c\x00\x01\x0b\x00\x01\xff\xff\xff\xff", "Negative length: -1"),
    # field 1 is a list of strings of size -1
    (b"\x0f\x00\x01\x0b\xff\xff\xff\xff", "Negative length: -1"),
    # a field of type 0x7f, then a field id
    (b"\x7f\x00\x09", "Unrecognized type 127"),
], ids=["negative-string", "negative-list", "unknown-field-type"])
def test_a_malformed_call_is_answered_and_the_connection_reads_on_after_it(thrift2_socket, bad,
                                                                           message):
    thrift2_socket.sendall(header(b"tableExists", 5) + bad + table_exists(6))
    replies = thrift2_socket.makefile("rb")
    mtype, name, seqid, error = read_message(replies)
    assert (mtype, name, seqid) == (TMessageType.EXCEPTION, "tableExists", 5)
    assert (error.type, error.message) == (TApplicationException.PROTOCOL_ERROR, message)
    # The next call starts right after the bytes the failed read took.
    mtype, name, seqid, error = read_message(replies)
    assert (mtype, name, seqid, error) == (TMessageType.REPLY, "tableExists", 6, None)


def test_a_call_cut_off_by_the_next_one_is_answered_as_HBase_answers_it(thrift2_socket):
    # What the Java client leaves behind: put(table, TPut{row: "r", ... and then the next call.
    half_put = (header(b"put", 7) + b"\x0b\x00\x01" + struct.pack(">I", 5) + b"table"
                + b"\x0c\x00\x02" + b"\x0b\x00\x01" + struct.pack(">I", 1) + b"r")
    thrift2_socket.sendall(half_put + table_exists(8))
    mtype, name, seqid, error = read_message(thrift2_socket.makefile("rb"))
    # The next call's version byte (0x80) is read as a field type.
    assert (mtype, name, seqid) == (TMessageType.EXCEPTION, "put", 7)
    assert (error.type, error.message) == (TApplicationException.PROTOCOL_ERROR,
                                           "Unrecognized type -128")


def test_a_list_of_an_unknown_element_type_closes_the_connection(thrift2_socket):
    thrift2_socket.sendall(header(b"tableExists", 5) + b"\x0f\x00\x01\x7f\x00\x00\x00\x01"
                           + table_exists(6))
    try:
        assert thrift2_socket.recv(100) == b""
    except ConnectionResetError:
        pass
