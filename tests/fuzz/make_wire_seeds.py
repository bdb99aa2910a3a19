"""Writes the wire fuzzer's seed corpus (tests/fuzz/wire_seeds/): real Hbase calls serialized by
Apache Thrift's Python library in every mode the server detects (buffered/framed x
binary/compact, HTTP, chunked HTTP, Expect: 100-continue, old non-strict binary). The first byte
of each seed is the fuzzer's read size (0 = everything at once).

Run from python-compat/ after ./run.sh has set up its venv:
    PYTHONPATH=.venv/gen-py .venv/bin/python ../tests/fuzz/make_wire_seeds.py
"""

import os
import struct

from hbase import Hbase
from hbase.ttypes import BatchMutation, ColumnDescriptor, Mutation, TAppend, TIncrement, TScan
from thrift.protocol import TBinaryProtocol, TCompactProtocol
from thrift.transport import TTransport

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wire_seeds")


def calls(protocol_class):
    sends = [
        lambda c: c.send_getTableNames(),
        lambda c: c.send_createTable(b"t2", [ColumnDescriptor(name=b"f:", maxVersions=3)]),
        lambda c: c.send_mutateRow(b"t", b"r1", [Mutation(column=b"f:a", value=b"v1"),
                                                 Mutation(isDelete=True, column=b"f:b")], {}),
        lambda c: c.send_mutateRows(b"t", [BatchMutation(row=b"r%d" % i, mutations=[
            Mutation(column=b"f:q", value=b"x" * i)]) for i in range(3)], {}),
        lambda c: c.send_getRow(b"t", b"r1", {}),
        lambda c: c.send_getRowWithColumnsTs(b"t", b"r1", [b"f:a", b"f"], 100, {}),
        lambda c: c.send_atomicIncrement(b"t", b"r1", b"f:n", 5),
        lambda c: c.send_checkAndPut(b"t", b"r1", b"f:a", b"v1",
                                     Mutation(column=b"f:c", value=b"z"), {}),
        lambda c: c.send_scannerOpenWithScan(b"t", TScan(
            startRow=b"r", stopRow=b"s", columns=[b"f"], caching=10, reversed=False,
            filterString=b"PrefixFilter('r') AND ValueFilter(=, 'substring:x')"), {}),
        lambda c: c.send_scannerGetList(0, 10),
        lambda c: c.send_scannerClose(0),
        lambda c: c.send_getVer(b"t", b"r1", b"f:a", 2, {}),
        lambda c: c.send_deleteAllRow(b"t", b"r2", {}),
        lambda c: c.send_getColumnDescriptors(b"t"),
        lambda c: c.send_increment(TIncrement(table=b"t", row=b"r3", column=b"f:n", ammount=2)),
        lambda c: c.send_append(TAppend(table=b"t", row=b"r3", columns=[b"f:s"], values=[b"ab"])),
    ]
    messages = []
    for send in sends:
        buffer = TTransport.TMemoryBuffer()
        send(Hbase.Client(protocol_class(buffer)))
        messages.append(buffer.getvalue())
    return messages


def framed(message):
    return struct.pack(">I", len(message)) + message


def http(message):
    return (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-thrift\r\n"
            b"Content-Length: %d\r\n\r\n" % len(message)) + message


def write(name, data, piece=0):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([piece]) + data)


def main():
    os.makedirs(OUT, exist_ok=True)
    binary = calls(TBinaryProtocol.TBinaryProtocol)
    compact = calls(TCompactProtocol.TCompactProtocol)
    write("buffered_binary_all", b"".join(binary))
    write("framed_binary_all", b"".join(framed(m) for m in binary), 7)
    write("buffered_compact_all", b"".join(compact), 64)
    write("framed_compact_all", b"".join(framed(m) for m in compact))
    write("http_binary_all", b"".join(http(m) for m in binary), 100)
    write("http_compact_all", b"".join(http(m) for m in compact))
    for i, message in enumerate(binary):
        write("binary_%02d" % i, message)
        write("http_%02d" % i, http(message), 13)
    write("http_chunked", b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          + b"%x\r\n" % len(binary[4]) + binary[4] + b"\r\n0\r\n\r\n")
    write("http_expect", b"POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
          + b"Content-Length: %d\r\n\r\n" % len(binary[0]) + binary[0])
    old = TTransport.TMemoryBuffer()
    Hbase.Client(TBinaryProtocol.TBinaryProtocol(old, strictWrite=False)).send_getRow(b"t", b"r1", {})
    write("nonstrict_binary", old.getvalue())
    write("nonstrict_framed", framed(old.getvalue()))


if __name__ == "__main__":
    main()
