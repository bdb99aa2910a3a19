"""Answers of two servers made comparable.

What stays: values, rows, columns, flags, explicit timestamps, the exception's type, its
`canRetry` and the first Java class name its message names. What is replaced:
- server-assigned timestamps (anything near the sequence's clock) by a token: `@i` for a stamp
  taken while call i was in flight, `@i+` for one between call i and the next, `N<i><delta>`
  (+k) for an explicit `Now(delta)` call i sent (and k increments on top of it);
- this run's table and namespace names by `<t0>`, `<ns0>`, ...; region names lose their
  encoded (md5) part and server names/ports/start codes are `<server>` (they name hosts);
- listings keep only this sequence's tables and namespaces (the server is shared).
Messages are not compared beyond the class name: HBase appends stack traces and region ids.
"""

import bisect
import re
import socket

from calls import DAY_MS

JAVA_CLASS = re.compile(rb"(?:[a-z_][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_$]*|\b[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\b")
ENCODED_REGION = re.compile(rb"\.[0-9a-f]{32}\.")
MILLIS = re.compile(rb"(?<![0-9])1[0-9]{12}(?![0-9])")
TIMESTAMP_FIELDS = {"timestamp", "id", "regionId"}
SERVER_FIELDS = {"serverName", "port", "startCode", "hostName"}


class Err(tuple):
    """A normalised failure (a tuple, so two compare by content)."""

    def __repr__(self):
        return "!" + " ".join(str(x) for x in self)


class Clock:
    """One server's view of a sequence's time: the window each call was in flight."""

    def __init__(self):
        self.starts, self.ends = [], []
        self.explicit = {}  # concrete timestamp -> token (filled by calls.resolve)

    def record(self, start_ms, end_ms):
        self.starts.append(start_ms)
        self.ends.append(end_ms)

    def token(self, ts):
        if not self.starts or not (self.starts[0] - 2 * DAY_MS <= ts <= self.ends[-1] + 2 * DAY_MS):
            return ts
        if ts in self.explicit:
            return self.explicit[ts]
        for k in range(1, 33):
            if ts - k in self.explicit:
                return "%s+%d" % (self.explicit[ts - k], k)
        i = bisect.bisect_right(self.starts, ts) - 1
        if i < 0:
            return "@<%d" % (self.starts[0] - ts) if self.starts[0] - ts < 60_000 else ts
        if ts <= self.ends[i]:
            return "@%d" % i
        if i + 1 < len(self.starts) or ts - self.ends[i] < 5_000:
            return "@%d+" % i
        return ts


class Normaliser:
    def __init__(self, names, clock):
        self.names = names
        self.clock = clock
        self.pairs = [(c.encode(), l.encode()) for c, l in names.logical()]
        self.prefix = names.prefix.encode()

    # ------------------------------------------------------------------ scalars

    def text(self, b):
        """Bytes with names mapped, region ids as tokens and encoded region names dropped."""
        if self.prefix not in b:
            return b
        for concrete, logical in self.pairs:
            b = b.replace(concrete, logical)
        b = ENCODED_REGION.sub(b".<enc>.", b)
        return MILLIS.sub(lambda m: str(self.clock.token(int(m.group()))).encode(), b)

    def value(self, v, field=None):
        if field in SERVER_FIELDS:
            return "<server>"
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, int):
            return self.clock.token(v) if field in TIMESTAMP_FIELDS else v
        if isinstance(v, bytes):
            return self.text(v)
        if isinstance(v, str):
            return self.text(v.encode("utf-8", "surrogateescape")).decode("utf-8", "replace")
        if isinstance(v, (list, tuple)):
            return [self.value(x) for x in v]
        if isinstance(v, (set, frozenset)):
            return sorted((self.value(x) for x in v), key=repr)
        if isinstance(v, dict):
            # A map's order is not part of its meaning.
            return sorted(((self.value(k), self.value(x)) for k, x in v.items()), key=repr)
        if hasattr(v, "thrift_spec"):
            return (type(v).__name__,) + tuple(
                (k, self.value(x, k)) for k, x in sorted(vars(v).items()))
        return repr(v)

    # ------------------------------------------------------------------ listings

    def ours(self, v):
        """Whether a listed table or namespace belongs to this sequence."""
        if isinstance(v, str):
            v = v.encode()
        if isinstance(v, bytes):
            return self.prefix in v
        if hasattr(v, "qualifier"):  # TTableName
            return self.prefix in (v.qualifier or b"")
        if hasattr(v, "tableName"):  # TTableDescriptor
            return self.ours(v.tableName)
        if hasattr(v, "name"):  # TNamespaceDescriptor
            return self.prefix in v.name.encode() or v.name in ("default", "hbase")
        return True

    def answer(self, method, v):
        if method in ("getTableNames", "getTableDescriptors", "getTableDescriptorsByPattern", "getTableNamesByPattern",
                      "getTableDescriptorsByNamespace", "getTableNamesByNamespace",
                      "listNamespaceDescriptors"):
            v = [x for x in v if self.ours(x)]
        elif method == "listNamespaces":
            v = [x for x in v if self.ours(x) or x in ("default", "hbase")]
        elif method == "getTableNamesWithIsTableEnabled":
            v = {k: x for k, x in v.items() if self.ours(k)}
        return self.value(v)

    # ------------------------------------------------------------------ errors

    def error(self, e):
        return Err(self._error(e))

    def _error(self, e):
        from thrift.Thrift import TApplicationException
        from thrift.transport.TTransport import TTransportException

        if isinstance(e, TApplicationException):
            return ("TApplicationException", e.type)
        if isinstance(e, (socket.timeout, TimeoutError)) or (
                isinstance(e, TTransportException) and e.type == TTransportException.TIMED_OUT):
            return ("timeout",)
        if isinstance(e, TTransportException):
            return ("transport", e.type)
        message = getattr(e, "message", None)
        if isinstance(message, str):
            message = message.encode("utf-8", "replace")
        if not hasattr(e, "thrift_spec"):
            return ("client", type(e).__name__)  # refused before sending (e.g. a bad field)
        first = (message or b"").split(b"\n", 1)[0]
        found = JAVA_CLASS.search(self.text(first))
        out = (type(e).__name__, found.group().decode() if found else None)
        if hasattr(e, "canRetry"):
            out += (e.canRetry,)
        return out


def first_line(e):
    """The first line of an exception's message, for printing."""
    message = getattr(e, "message", None) or str(e)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    return message.split("\n", 1)[0][:300]


def _is_struct(v):
    return isinstance(v, tuple) and not isinstance(v, Err) and v and isinstance(v[0], str) and all(
        isinstance(p, tuple) and len(p) == 2 for p in v[1:])


def _is_map(v):
    return isinstance(v, list) and v and all(
        isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], (bytes, str))
        and not _is_struct(p) for p in v)


def diff_path(a, b):
    """Where two normalised answers first differ, as a short path: `TResult.partial`,
    `[].TTableDescriptor.attributes{+DURABILITY}`, `len`, ... (list positions left out, so
    like differences group together)."""
    if a == b:
        return ""
    if _is_struct(a) and _is_struct(b):
        if a[0] != b[0]:
            return "%s/%s" % (a[0], b[0])
        for (fa, va), (_, vb) in zip(a[1:], b[1:]):
            if va != vb:
                return "%s.%s%s" % (a[0], fa, diff_path(va, vb))
        return a[0]
    if _is_map(a) or _is_map(b):
        ka = {k: v for k, v in a or []}
        kb = {k: v for k, v in b or []}
        keys = ["+" + _key(k) for k in kb if k not in ka] + ["-" + _key(k) for k in ka if k not in kb]
        keys += ["~" + _key(k) for k in ka if k in kb and ka[k] != kb[k]]
        return "{%s}" % ",".join(sorted(keys)[:3])
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return " len %d/%d" % (len(a), len(b))
        for x, y in zip(a, b):
            if x != y:
                return "[]" + diff_path(x, y)
    return ""


def _key(k):
    return k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)
