"""The key and value of HBase's Export files: ImmutableBytesWritable and Result, as bytes.

Key: `org.apache.hadoop.hbase.io.ImmutableBytesWritable` as a Hadoop Writable: a 4-byte
big-endian length, then the row.
Value: `org.apache.hadoop.hbase.client.Result` as HBase 2.6.1's ResultSerialization writes it: a
protobuf `Result` message (Client.proto) preceded by its length as a varint. Its fields:
  1 cell (repeated Cell), 2 associated_cell_count, 3 exists, 4 stale, 5 partial
and each `Cell` (Cell.proto):
  1 row, 2 family, 3 qualifier, 4 timestamp (uint64), 5 cell_type (enum CellType), 6 value, 7 tags
HBase writes every Cell field, tags empty, and stale and partial false; this module writes the
same bytes, and reads any valid encoding (fields in any order, unknown fields skipped).

The protobuf wire format is coded here by hand, a few dozen lines, so that the package needs
nothing beyond happybase and thriftpy2: two messages of six fields do not justify a protobuf
runtime and generated code.
"""

import struct

KEY_CLASS = "org.apache.hadoop.hbase.io.ImmutableBytesWritable"
VALUE_CLASS = "org.apache.hadoop.hbase.client.Result"

# CellType numbers (the same codes as KeyValue.Type and Thrift2's TColumnValue.type).
PUT, DELETE, DELETE_FAMILY_VERSION, DELETE_COLUMN, DELETE_FAMILY = 4, 8, 10, 12, 14
TYPE_NAMES = {PUT: "Put", DELETE: "Delete", DELETE_FAMILY_VERSION: "DeleteFamilyVersion",
              DELETE_COLUMN: "DeleteColumn", DELETE_FAMILY: "DeleteFamily"}

_INT = struct.Struct(">i")
_U64 = 1 << 64


class FormatError(ValueError):
    """A key or value that is not what HBase writes; the message says what is wrong."""


# ---- key

def encode_key(row):
    return _INT.pack(len(row)) + row


def decode_key(data):
    if len(data) < 4:
        raise FormatError("a key of %d bytes is not an ImmutableBytesWritable" % len(data))
    n = _INT.unpack_from(data)[0]
    if n != len(data) - 4:
        raise FormatError("an ImmutableBytesWritable key says %d bytes but holds %d"
                          % (n, len(data) - 4))
    return data[4:]


# ---- protobuf wire format

_SMALL = [bytes([i]) for i in range(128)]


def _varint(n):
    if n < 128:
        return _SMALL[n]
    out = bytearray()
    while n > 0x7f:
        out.append((n & 0x7f) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _read_varint(data, pos, end):
    result = shift = 0
    while True:
        if pos >= end:
            raise FormatError("a varint runs past the end of its message")
        b = data[pos]
        pos += 1
        result |= (b & 0x7f) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise FormatError("a varint longer than 10 bytes")


def _field(data, pos, end):
    """(field number, wire type, value, position after it) of the field at data[pos]; a
    length-delimited value is its (start, stop) within data. Written out rather than layered on
    helpers: it runs for every field of every cell an import reads."""
    key = data[pos]
    if key < 0x80:
        pos += 1
    else:
        key, pos = _read_varint(data, pos, end)
    number, wire = key >> 3, key & 7
    if number == 0:
        raise FormatError("field number 0")
    if wire == 2:
        if pos < end and data[pos] < 0x80:
            n = data[pos]
            pos += 1
        else:
            n, pos = _read_varint(data, pos, end)
        stop = pos + n
        if stop > end:
            raise FormatError("field %d of %d bytes runs past the end of its message" % (number, n))
        return number, 2, (pos, stop), stop
    if wire == 0:
        value, pos = _read_varint(data, pos, end)
        return number, 0, value, pos
    if wire == 1 or wire == 5:
        pos += 8 if wire == 1 else 4
        if pos > end:
            raise FormatError("field %d runs past the end of its message" % number)
        return number, wire, None, pos
    # Groups (3, 4) are not in HBase's messages; 6 and 7 are not wire types.
    raise FormatError("field %d has wire type %d" % (number, wire))


def _bytes_field(number, data):
    return _varint(number << 3 | 2) + _varint(len(data)) + data


# ---- Result

_CELL_TAIL = b"\x3a\x00"  # tags (7), empty, as HBase writes them
_RESULT_TAIL = b"\x20\x00\x28\x00"  # stale (4) and partial (5), both false


def encode_cell(row, family, qualifier, timestamp, cell_type, value):
    # Tag bytes: (field number << 3) | wire type, for fields 1, 2, 3 and 6 (bytes), 4 and 5.
    return b"".join((b"\x0a", _varint(len(row)), row, b"\x12", _varint(len(family)), family,
                     b"\x1a", _varint(len(qualifier)), qualifier, b"\x20",
                     _varint(timestamp % _U64), b"\x28", _SMALL[cell_type], b"\x32",
                     _varint(len(value)), value, _CELL_TAIL))


def encode_result(cells):
    """The value bytes for (row, family, qualifier, timestamp, type, value) cells, in HBase's
    cell order already."""
    parts = []
    for c in cells:
        cell = encode_cell(*c)
        parts += (b"\x0a", _varint(len(cell)), cell)
    parts.append(_RESULT_TAIL)
    body = b"".join(parts)
    return _varint(len(body)) + body


def _decode_cell(data, pos, end):
    row = family = qualifier = value = b""
    timestamp = cell_type = None
    while pos < end:
        number, wire, v, pos = _field(data, pos, end)
        if wire == 2 and number in (1, 2, 3, 6):
            b = data[v[0]:v[1]]
            if number == 1:
                row = b
            elif number == 2:
                family = b
            elif number == 3:
                qualifier = b
            else:
                value = b
        elif wire == 0 and number == 4:
            timestamp = v - _U64 if v >= 1 << 63 else v
        elif wire == 0 and number == 5:
            cell_type = v
        elif number in (1, 2, 3, 4, 5, 6):
            raise FormatError("Cell field %d has the wrong wire type %d" % (number, wire))
    if timestamp is None:
        raise FormatError("a cell without a timestamp")
    if cell_type not in TYPE_NAMES:
        raise FormatError("a cell of type %s (HBase's Import takes Put and the four delete "
                          "markers)" % ("none" if cell_type is None else cell_type))
    return row, family, qualifier, timestamp, cell_type, value


def decode_result(data):
    """The cells of one value (a length-delimited Result) as (row, family, qualifier, timestamp,
    type, value) tuples. A FormatError says what is wrong."""
    length, pos = _read_varint(data, 0, len(data))
    end = pos + length
    if end != len(data):
        raise FormatError("the Result message says %d bytes but the value holds %d after its length"
                          % (length, len(data) - pos))
    data = bytes(data)
    cells = []
    associated = 0
    while pos < end:
        number, wire, v, pos = _field(data, pos, end)
        if number == 1:
            if wire != 2:
                raise FormatError("Result field 1 has the wrong wire type %d" % wire)
            cells.append(_decode_cell(data, v[0], v[1]))
        elif number == 2 and wire == 0:
            associated = v
    if associated and not cells:
        # Cells in a cell block beside the message: RPC responses only, never an Export file.
        raise FormatError("a Result whose %d cells are outside the message (associated_cell_count)"
                          % associated)
    return cells
