"""HBase REST gateway bodies in every encoding, as plain Python values, for the REST tests and the
REST differential: cell sets as [(row, [(column, timestamp, value), ...]), ...] with bytes keys,
columns and values (timestamp None when not sent), built and parsed as XML, JSON and protobuf.

Protobuf is read and written by a small hand codec of the wire format (varints and
length-delimited fields), so no generated code or protobuf runtime is needed: the messages used
here are HBase's REST CellSet/Row/Cell, Version and the stateless scan's stream of
length-prefixed CellSets.
"""

import base64
import json
import xml.etree.ElementTree as ET

XML = "text/xml"
JSON = "application/json"
PROTOBUF = "application/x-protobuf"
OCTET = "application/octet-stream"
CELLSET_ENCODINGS = (XML, JSON, PROTOBUF)


def b64(data):
    return base64.b64encode(data).decode("ascii")


def unb64(text):
    return base64.b64decode(text or "")


# --- protobuf wire format ---------------------------------------------------------------------

def _varint(n):
    n &= (1 << 64) - 1  # negative int64 travels as its two's complement
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _read_varint(buf, pos):
    shift = result = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def pb_field(number, value):
    """One field: bytes are length-delimited (wire type 2), ints are varints (wire type 0)."""
    if isinstance(value, (bytes, bytearray)):
        return _varint(number << 3 | 2) + _varint(len(value)) + bytes(value)
    return _varint(number << 3) + _varint(int(value))


def pb_fields(buf):
    """[(field number, int or bytes), ...] of one message, in wire order."""
    fields, pos = [], 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
        elif wire == 2:
            size, pos = _read_varint(buf, pos)
            if pos + size > len(buf):
                raise ValueError("truncated field %d" % number)
            value, pos = bytes(buf[pos:pos + size]), pos + size
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        fields.append((number, value))
    return fields


def _signed64(n):
    return n - (1 << 64) if n >= 1 << 63 else n


# --- cell sets ----------------------------------------------------------------------------------
# CellSet { repeated Row rows = 1 }  Row { bytes key = 1; repeated Cell values = 2 }
# Cell { bytes row = 1; bytes column = 2; int64 timestamp = 3; bytes data = 4 }

def encode_cellset(rows, encoding):
    """Body bytes of a CellSet in `encoding` (XML, JSON or PROTOBUF)."""
    if encoding == PROTOBUF:
        out = b""
        for key, cells in rows:
            row = pb_field(1, key)
            for column, ts, value in cells:
                cell = pb_field(2, column)
                if ts is not None:
                    cell += pb_field(3, ts)
                row += pb_field(2, cell + pb_field(4, value))
            out += pb_field(1, row)
        return out
    if encoding == JSON:
        doc = {"Row": [{"key": b64(key), "Cell": [
            dict([("column", b64(c))] + ([("timestamp", ts)] if ts is not None else [])
                 + [("$", b64(v))]) for c, ts, v in cells]} for key, cells in rows]}
        return json.dumps(doc).encode()
    if encoding == XML:
        root = ET.Element("CellSet")
        for key, cells in rows:
            row = ET.SubElement(root, "Row", key=b64(key))
            for column, ts, value in cells:
                cell = ET.SubElement(row, "Cell", column=b64(column))
                if ts is not None:
                    cell.set("timestamp", str(ts))
                cell.text = b64(value)
        return ET.tostring(root)
    raise ValueError("no CellSet encoding %r" % encoding)


def _decode_pb_cellset(buf):
    rows = []
    for number, row in pb_fields(buf):
        if number != 1:
            continue
        key, cells = b"", []
        for rnum, rval in pb_fields(row):
            if rnum == 1:
                key = rval
            elif rnum == 2:
                cell = dict(pb_fields(rval))
                ts = cell.get(3)
                cells.append((cell.get(2, b""), None if ts is None else _signed64(ts),
                              cell.get(4, b"")))
        rows.append((key, cells))
    return rows


def decode_cellset(body, encoding):
    """The rows of a CellSet body in `encoding`."""
    if encoding == PROTOBUF:
        return _decode_pb_cellset(body)
    if encoding == JSON:
        doc = json.loads(body)
        return [(unb64(row.get("key")),
                 [(unb64(c.get("column")), c.get("timestamp"), unb64(c.get("$")))
                  for c in row.get("Cell", [])]) for row in doc.get("Row", [])]
    if encoding == XML:
        root = ET.fromstring(body)
        rows = []
        for row in root.findall("Row"):
            cells = []
            for c in row.findall("Cell"):
                ts = c.get("timestamp")
                cells.append((unb64(c.get("column")), None if ts is None else int(ts),
                              unb64(c.text)))
            rows.append((unb64(row.get("key")), cells))
        return rows
    raise ValueError("no CellSet encoding %r" % encoding)


def decode_scan_stream(body):
    """A stateless scan's protobuf answer: CellSets, each after a 2-byte big-endian length."""
    rows, pos = [], 0
    while pos < len(body):
        if pos + 2 > len(body):
            raise ValueError("truncated length prefix")
        size = int.from_bytes(body[pos:pos + 2], "big")
        pos += 2
        rows += _decode_pb_cellset(body[pos:pos + size])
        pos += size
    return rows


def decode_scan(body, encoding):
    return decode_scan_stream(body) if encoding == PROTOBUF else decode_cellset(body, encoding)


# Version { restVersion = 1; jvmVersion = 2; osVersion = 3; serverVersion = 4; jerseyVersion = 5 }
VERSION_FIELDS = {1: "REST", 2: "JVM", 3: "OS", 4: "Server", 5: "Jersey", 6: "Version",
                  7: "Revision"}


def decode_version(body):
    return {VERSION_FIELDS.get(n, str(n)): v.decode() for n, v in pb_fields(body)}
