"""Hadoop SequenceFiles (version 6, the only one Hadoop 2 and 3 write): reading and writing.

Layout, as Hadoop's SequenceFile.Writer lays it out:
  header   b"SEQ" + version byte 6; key and value class names (Hadoop Text: a vint length and
           UTF-8); a byte each for "compressed" and "block-compressed"; the codec's class name
           when compressed; metadata (a 4-byte count, then Text key/value pairs); 16 sync bytes.
  records  (uncompressed or record-compressed) int record length, int key length, the key, the
           value (on its own compressed with the codec when record-compressed). Now and then a
           sync escape comes between records: int -1 and the header's 16 sync bytes.
  blocks   (block-compressed) a sync escape, a vint record count, then four buffers, each a vint
           length and bytes compressed on their own: the keys' lengths (vints), the keys, the
           values' lengths (vints), the values.
Integers are big-endian; vints are Hadoop's WritableUtils encoding. The codecs read and written
are those Python's zlib covers: DefaultCodec (and DeflateCodec, the same format) as zlib streams,
GzipCodec as gzip streams.

Every problem in a file is a SequenceFileError naming the file and the byte offset where the
record, block or field at fault starts.
"""

import io
import os
import struct
import zlib

MAGIC = b"SEQ"
VERSION = 6
SYNC_SIZE = 16
SYNC_ESCAPE = -1
# Hadoop 3 writes a sync escape before the first record that starts 100 KiB
# (5 * 1024 * (4 + SYNC_SIZE) bytes) past the last one; readers only need them to be where
# records start.
SYNC_INTERVAL = 5 * 1024 * (4 + SYNC_SIZE)
# Hadoop's io.seqfile.compress.blocksize: raw key and value bytes gathered before a block is
# written.
BLOCK_SIZE = 1000000

DEFAULT_CODEC = "org.apache.hadoop.io.compress.DefaultCodec"
GZIP_CODEC = "org.apache.hadoop.io.compress.GzipCodec"
# Class name -> zlib's wbits for that stream format.
CODECS = {
    DEFAULT_CODEC: zlib.MAX_WBITS,
    "org.apache.hadoop.io.compress.DeflateCodec": zlib.MAX_WBITS,
    GZIP_CODEC: 16 + zlib.MAX_WBITS,
}
COMPRESSIONS = ("none", "record", "block")

_INT = struct.Struct(">i")


class SequenceFileError(ValueError):
    """A file that is not a well-formed SequenceFile: `path`, `offset` and what is wrong."""

    def __init__(self, path, offset, message):
        super().__init__("%s at byte %d: %s" % (path, offset, message))
        self.path, self.offset, self.reason = path, offset, message


def codec_wbits(name):
    """zlib's wbits for a codec class name, or None for a codec this module cannot use."""
    return CODECS.get(name)


# ---- Hadoop's variable-length integers (WritableUtils.writeVLong / readVLong)

def write_vint(n):
    if -112 <= n <= 127:
        return struct.pack(">b", n)
    size = -112
    if n < 0:
        n = ~n
        size = -120
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return struct.pack(">b", size - len(body)) + body


def read_vint(data, pos):
    """(value, position after it) of the vint at data[pos]; IndexError if data ends first."""
    first = data[pos]
    first = first - 256 if first > 127 else first
    if first >= -112:
        return first, pos + 1
    negative = first < -120
    size = (-119 - first) if negative else (-111 - first)
    end = pos + size
    if end > len(data):
        raise IndexError("vint runs past the end")
    value = int.from_bytes(data[pos + 1:end], "big")
    return (~value if negative else value), end


def _text(data):
    """Hadoop Text.writeString: a vint length and the UTF-8 bytes."""
    raw = data.encode("utf-8")
    return write_vint(len(raw)) + raw


# ---- reading

class _Input:
    """A binary stream read by exact counts, knowing its offset; a short read is a truncation."""

    def __init__(self, f, path):
        # peek() finds the end without consuming what follows.
        self.f = f if hasattr(f, "peek") else io.BufferedReader(f)
        self.path, self.pos = path, 0

    def read(self, n, what, start=None):
        data = self.f.read(n) if n else b""
        if len(data) != n:
            self.pos += len(data)
            raise SequenceFileError(self.path, self.pos if start is None else start,
                                    "the file ends inside %s (%d of %d bytes; cut short?)"
                                    % (what, len(data), n))
        self.pos += n
        return data

    def int(self, what, start=None):
        return _INT.unpack(self.read(4, what, start))[0]

    def at_end(self):
        """Whether the stream is exhausted, without consuming anything that follows."""
        return not self.f.peek(1)

    def vint(self, what):
        start = self.pos
        first = self.read(1, what, start)
        b = first[0] - 256 if first[0] > 127 else first[0]
        if b >= -112:
            return b
        size = (-119 - b) if b < -120 else (-111 - b)
        value, _ = read_vint(first + self.read(size - 1, what, start), 0)
        return value

    def text(self, what):
        start = self.pos
        n = self.vint(what)
        if n < 0 or n > 1 << 20:
            raise SequenceFileError(self.path, start, "%s has a length of %d bytes" % (what, n))
        try:
            return self.read(n, what, start).decode("utf-8")
        except UnicodeDecodeError:
            raise SequenceFileError(self.path, start, "%s is not UTF-8 text" % what)


class Header:
    def __init__(self, key_class, value_class, compression="none", codec=None, metadata=(),
                 sync=None, version=VERSION):
        self.key_class, self.value_class = key_class, value_class
        self.compression, self.codec = compression, codec
        self.metadata = list(metadata)
        self.sync = sync if sync is not None else os.urandom(SYNC_SIZE)
        self.version = version

    def encode(self):
        out = [MAGIC, bytes([self.version]), _text(self.key_class), _text(self.value_class),
               bytes([self.compression != "none", self.compression == "block"])]
        if self.compression != "none":
            out.append(_text(self.codec))
        out.append(_INT.pack(len(self.metadata)))
        for k, v in self.metadata:
            out += [_text(k), _text(v)]
        out.append(self.sync)
        return b"".join(out)


def _read_header(src):
    magic = src.read(3, "the header", 0) if not src.at_end() else b""
    if magic != MAGIC:
        raise SequenceFileError(src.path, 0, "not a Hadoop SequenceFile (it starts %r, not %r)"
                                % (magic, MAGIC) if magic else "empty file, not a Hadoop SequenceFile")
    version = src.read(1, "the header")[0]
    if version != VERSION:
        raise SequenceFileError(src.path, 3, "SequenceFile version %d (only version %d, what "
                                "Hadoop 2 and 3 write, can be read)" % (version, VERSION))
    key_class = src.text("the key class name")
    value_class = src.text("the value class name")
    flags_at = src.pos
    compressed, block = src.read(2, "the compression flags")
    if compressed > 1 or block > 1 or (block and not compressed):
        raise SequenceFileError(src.path, flags_at, "bad compression flags %d, %d" % (compressed, block))
    compression = "block" if block else "record" if compressed else "none"
    codec = None
    if compressed:
        codec_at = src.pos
        codec = src.text("the codec class name")
        if codec not in CODECS:
            raise SequenceFileError(src.path, codec_at, "unknown codec %s (DefaultCodec, DeflateCodec "
                                    "and GzipCodec can be read)" % codec)
    count_at = src.pos
    count = src.int("the metadata count")
    if count < 0 or count > 1 << 16:
        raise SequenceFileError(src.path, count_at, "bad metadata count %d" % count)
    metadata = [(src.text("a metadata key"), src.text("a metadata value")) for _ in range(count)]
    sync = src.read(SYNC_SIZE, "the sync marker")
    return Header(key_class, value_class, compression, codec, metadata, sync, version)


def _inflate(data, wbits, path, offset, what):
    d = zlib.decompressobj(wbits)
    try:
        out = d.decompress(data)
    except zlib.error as e:
        raise SequenceFileError(path, offset, "%s does not decompress (%s)" % (what, e))
    if not d.eof:
        raise SequenceFileError(path, offset, "%s ends before its compressed stream does" % what)
    return out


class Reader:
    """Reads one SequenceFile from the binary stream `f` (`path` names it in errors).

    `header` is read at once; `records()` yields (key bytes, value bytes, offset) in file order,
    the offset being where the record (or for block compression its block) starts, and `pos` is
    how many bytes were read so far."""

    def __init__(self, f, path):
        self._src = _Input(f, path)
        self.path = path
        self.header = _read_header(self._src)
        self._wbits = CODECS.get(self.header.codec)

    @property
    def pos(self):
        return self._src.pos

    def _sync(self, start):
        sync = self._src.read(SYNC_SIZE, "a sync marker", start)
        if sync != self.header.sync:
            raise SequenceFileError(self.path, start, "sync marker differs from the header's "
                                    "(corrupt file, or not a record boundary)")

    def records(self):
        if self.header.compression == "block":
            yield from self._blocks()
            return
        src, path = self._src, self.path
        record_compressed = self.header.compression == "record"
        while not src.at_end():
            start = src.pos
            length = src.int("a record length", start)
            if length == SYNC_ESCAPE:
                self._sync(start)
                continue
            if length < 0:
                raise SequenceFileError(path, start, "record length %d" % length)
            key_length = src.int("a record's key length", start)
            if not 0 <= key_length <= length:
                raise SequenceFileError(path, start, "key length %d in a record of %d bytes"
                                        % (key_length, length))
            data = src.read(length, "a record", start)
            value = data[key_length:]
            if record_compressed:
                value = _inflate(value, self._wbits, path, start, "a record's value")
            yield data[:key_length], value, start

    def _buffer(self, what, start):
        at = self._src.pos
        n = self._src.vint(what)
        if n < 0:
            raise SequenceFileError(self.path, at, "%s has a length of %d" % (what, n))
        return _inflate(self._src.read(n, what, start), self._wbits, self.path, at, what)

    def _lengths(self, data, count, what, start):
        lengths, pos = [], 0
        try:
            for _ in range(count):
                n, pos = read_vint(data, pos)
                if n < 0:
                    raise IndexError
                lengths.append(n)
        except IndexError:
            raise SequenceFileError(self.path, start, "a block's %s do not hold %d lengths"
                                    % (what, count))
        return lengths

    def _blocks(self):
        src, path = self._src, self.path
        while not src.at_end():
            start = src.pos
            if src.int("a block's sync escape", start) != SYNC_ESCAPE:
                raise SequenceFileError(path, start, "a block does not start with a sync escape")
            self._sync(start)
            count = src.vint("a block's record count")
            if count < 0:
                raise SequenceFileError(path, start, "a block of %d records" % count)
            key_lengths = self._lengths(self._buffer("key lengths", start), count, "key lengths", start)
            keys = self._buffer("keys", start)
            value_lengths = self._lengths(self._buffer("value lengths", start), count,
                                          "value lengths", start)
            values = self._buffer("values", start)
            if sum(key_lengths) != len(keys) or sum(value_lengths) != len(values):
                raise SequenceFileError(path, start, "a block's lengths do not add up to its keys "
                                        "and values")
            kpos = vpos = 0
            for kn, vn in zip(key_lengths, value_lengths):
                yield keys[kpos:kpos + kn], values[vpos:vpos + vn], start
                kpos += kn
                vpos += vn


# ---- writing

class Writer:
    """Writes a SequenceFile to the binary stream `f`: `append(key, value)` with both already
    serialised, then `close()` (which writes a block still gathered; the stream stays open).
    `pos` is the number of bytes written so far."""

    def __init__(self, f, key_class, value_class, compression="none", codec=DEFAULT_CODEC,
                 metadata=(), sync=None, block_size=BLOCK_SIZE):
        if compression not in COMPRESSIONS:
            raise ValueError("compression must be one of %s" % ", ".join(COMPRESSIONS))
        if compression != "none" and codec not in CODECS:
            raise ValueError("unknown codec %s" % codec)
        self.f = f
        self.header = Header(key_class, value_class, compression,
                             codec if compression != "none" else None, metadata, sync)
        self._wbits = CODECS.get(codec)
        self.block_size = block_size
        self.pos = 0
        self._last_sync = 0
        self._keys, self._values = [], []
        self._gathered = 0
        self._write(self.header.encode())

    def _write(self, data):
        self.f.write(data)
        self.pos += len(data)

    def _compress(self, data):
        c = zlib.compressobj(6, zlib.DEFLATED, self._wbits)
        return c.compress(data) + c.flush()

    def _sync(self):
        if self.pos != self._last_sync:
            self._write(_INT.pack(SYNC_ESCAPE) + self.header.sync)
            self._last_sync = self.pos

    def append(self, key, value):
        if self.header.compression == "block":
            self._keys.append(key)
            self._values.append(value)
            self._gathered += len(key) + len(value)
            if self._gathered >= self.block_size:
                self._write_block()
            return
        if self.pos >= self._last_sync + SYNC_INTERVAL:
            self._sync()
        if self.header.compression == "record":
            value = self._compress(value)
        self._write(_INT.pack(len(key) + len(value)) + _INT.pack(len(key)) + key + value)

    def _write_block(self):
        if not self._keys:
            return
        self._sync()
        parts = [write_vint(len(self._keys))]
        for data in (b"".join(write_vint(len(k)) for k in self._keys), b"".join(self._keys),
                     b"".join(write_vint(len(v)) for v in self._values), b"".join(self._values)):
            packed = self._compress(data)
            parts += [write_vint(len(packed)), packed]
        self._write(b"".join(parts))
        self._keys, self._values, self._gathered = [], [], 0

    @property
    def size_estimate(self):
        """Bytes written plus the raw size of a block still gathered: what the file will be
        at most (a gathered block shrinks when compressed)."""
        return self.pos + self._gathered

    def close(self):
        self._write_block()
