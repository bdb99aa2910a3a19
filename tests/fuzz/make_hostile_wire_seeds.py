"""Writes the wire fuzzer's hostile seeds (tests/fuzz/wire_seeds/hostile_*): a few bytes claiming
huge sizes (frame length, string length, list and map counts) in every mode, claims that fit the
message but not the bytes left in it, and long chains (deep nesting, many fields, many pipelined
calls). The fuzzer caps messages at 64 KiB, so each claim comes both just under that cap (the
server must wait, holding only what arrived) and far over it (refused at once). The first byte
of each seed is the fuzzer's read size (0 = everything at once).

Needs nothing but Python 3:  python3 tests/fuzz/make_hostile_wire_seeds.py
"""

import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wire_seeds")
UNDER_CAP = 60_000        # under the fuzzer's 64 KiB message cap
HUGE = 99 * 1024 * 1024 + 1


def varint(v):
    out = b""
    while v >= 0x80:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def header(compact, method):
    if compact:
        return b"\x82\x21\x01" + varint(len(method)) + method
    return struct.pack(">II", 0x80010001, len(method)) + method + struct.pack(">i", 1)


def string(compact, fid, length, body=b""):
    if compact:
        return b"\x18" + varint(length) + body
    return struct.pack(">bhI", 11, fid, length) + body


def string_list(compact, fid, count):
    if compact:
        return b"\x19\xf8" + varint(count)
    return struct.pack(">bhbI", 15, fid, 11, count)


def struct_list(compact, fid, count):
    if compact:
        return b"\x19\xfc" + varint(count)
    return struct.pack(">bhbI", 15, fid, 12, count)


def string_map(compact, fid, count):
    if compact:
        return b"\x1b" + varint(count) + b"\x88"
    return struct.pack(">bhbbI", 13, fid, 11, 11, count)


def framed(message):
    return struct.pack(">I", len(message)) + message


def seeds():
    out = {}
    for compact in (False, True):
        p = "compact" if compact else "binary"
        proto_bytes = b"\x82\x21" if compact else b"\x80\x01"
        # Claims with (almost) nothing behind them, buffered and framed.
        for size, tag in ((UNDER_CAP, "under_cap"), (HUGE, "huge")):
            out["frame_%s_%s" % (tag, p)] = struct.pack(">I", size) + proto_bytes
            out["string_%s_%s" % (tag, p)] = header(compact, b"getRow") + string(compact, 1, size)
            out["list_%s_%s" % (tag, p)] = (header(compact, b"getRows") + string(compact, 1, 1, b"t")
                                            + string_list(compact, 2, size))
            out["map_%s_%s" % (tag, p)] = (header(compact, b"getRow") + string(compact, 1, 1, b"t")
                                           + string(compact, 2, 1, b"r") + string_map(compact, 3, size))
        # Claims that fit the message but not the bytes left in it.
        pad = b"p" * 2000
        out["framed_string_past_end_%s" % p] = framed(
            header(compact, b"getRow") + string(compact, 1, len(pad), pad) + string(compact, 2, 1500)
            + b"tail")
        out["framed_list_past_end_%s" % p] = framed(
            header(compact, b"getRows") + string(compact, 1, len(pad), pad) + string_list(compact, 2, 1500)
            + b"tail")
        out["framed_structs_past_end_%s" % p] = framed(
            header(compact, b"mutateRow") + string(compact, 1, len(pad), pad) + string(compact, 2, 1, b"r")
            + struct_list(compact, 3, 1500) + b"\x00" * 8)
        out["framed_map_past_end_%s" % p] = framed(
            header(compact, b"getRow") + string(compact, 1, len(pad), pad) + string(compact, 2, 1, b"r")
            + string_map(compact, 3, 1500) + b"tail")
        # Long chains: lists nested past the recursion limit, and thousands of calls in a row.
        nest = header(compact, b"getRow") + (b"\x19" if compact else struct.pack(">bh", 15, 1))
        for _ in range(100):  # each a list of one list
            nest += b"\x19" if compact else struct.pack(">bI", 15, 1)
        out["nested_lists_%s" % p] = nest
        call = (header(compact, b"getTableNames") + b"\x00")
        out["pipelined_chain_%s" % p] = call * (16000 // len(call))  # under -max_len
    # Binary: a struct of thousands of fields of plain types, stepped over by the skimmer.
    fields = b"".join(struct.pack(">bhi", 8, 100 + i, i) for i in range(2000))
    out["many_fields_binary"] = header(False, b"getRow") + fields + b"\x00"
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in sorted(seeds().items()):
        # Alternate read sizes: whole, byte by byte, and 7-byte pieces.
        piece = {0: 0, 1: 1, 2: 7}[len(name) % 3]
        with open(os.path.join(OUT, "hostile_" + name), "wb") as f:
            f.write(bytes([piece]) + data)


if __name__ == "__main__":
    main()
