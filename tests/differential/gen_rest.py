"""Seeded sequences of REST gateway calls (HBase's "Stargate"): schema and namespaces, cells put,
read and deleted in every encoding (keys in the URL plain or under `Encoding: b64`), multiget,
check=put / delete / append / increment, stateless scans with their parameters and filter
strings, stateful scanners, and the version/status endpoints.

A call is an HTTP request with placeholders (calls.Tab, calls.Ns, calls.Scanner) where the
concrete value depends on the server: each server of a comparison gets its own table names (so
one gateway can be compared with itself) and hands out its own scanner ids. Bodies are described,
not encoded, so a script stays readable; rest_runner encodes them with rest_codec.
"""

import base64
import random

from calls import Ns, Scanner, Tab
from filters import filter_string
from rest_codec import JSON, OCTET, PROTOBUF, XML

ROWS = ["r1", "r2", "r3", "r4", "s 5"]
FAMILIES = ["f", "g"]
QUALIFIERS = ["a", "b", "c"]
VALUES = [b"v1", b"v2", b"v3", b"", b"\x00\xff", b"longer value"]
SMALL_TS = [1, 2, 5, 10, 100]
READ_ENCODINGS = [XML, JSON, PROTOBUF]
MISSING_TABLE = 9


class R:
    """One REST request. `path` is a list of segments (strings or placeholders), `query` a list
    of (name, value), `body` one of ("cells", encoding, [(row, [(column, ts, value)])]),
    ("octet", bytes), ("schema", encoding, table placeholder, [(family, versions)]),
    ("scanner", encoding, {ScannerModel field: value}), ("raw", content type, bytes) or None.
    `opens_scanner` is the index later Scanner(k) placeholders name."""

    def __init__(self, method, path, query=(), accept=None, body=None, headers=None,
                 opens_scanner=None):
        self.method, self.path, self.query = method, list(path), list(query)
        self.accept, self.body = accept, body
        self.headers = dict(headers or {})
        self.opens_scanner = opens_scanner

    def __repr__(self):
        args = [repr(self.method), repr(self.path)]
        for name in ("query", "accept", "body", "headers", "opens_scanner"):
            value = getattr(self, name)
            if value not in (None, [], {}):
                args.append("%s=%r" % (name, value))
        return "R(%s)" % ", ".join(args)

    @property
    def label(self):
        """A short key for per-endpoint figures: method and the path's shape."""
        shape = []
        for seg in self.path:
            if isinstance(seg, Tab):
                shape.append("T")
            elif isinstance(seg, Ns):
                shape.append("NS")
            elif isinstance(seg, Scanner):
                shape.append("ID")
            elif seg in ("schema", "exists", "regions", "multiget", "scanner", "namespaces",
                         "tables", "version", "cluster", "status"):
                shape.append(seg)
            elif seg == "":
                shape.append("")
            elif seg.endswith("*"):
                shape.append("PREFIX*")
            else:
                shape.append("x")
        checks = [v for k, v in self.query if k == "check"]
        return "%s /%s%s" % (self.method, "/".join(shape), "?check=" + checks[0] if checks else "")


class Model:
    """What the calls meant to do (never what a server answered): tables, namespaces, scanners."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.tables = {}  # k -> {"families": {name: versions}, "ns": j or None, "live": bool}
        self.namespaces = {}  # j -> live
        self.scanners = []  # k -> table index or None

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def live_tables(self):
        return [k for k, t in self.tables.items() if t["live"]]

    def tab(self, k):
        return Tab(k, ns=self.tables.get(k, {}).get("ns"))

    def table(self):
        """A table index: mostly a live one, sometimes dropped or never created."""
        live = self.live_tables()
        if not live or self.chance(0.04):
            return MISSING_TABLE
        gone = [k for k, t in self.tables.items() if not t["live"]]
        if gone and self.chance(0.05):
            return self.pick(gone)
        return self.pick(live)

    def families(self, k):
        t = self.tables.get(k)
        return sorted(t["families"]) if t else ["f"]

    def column(self, k, p_family_only=0.1):
        family = self.pick(self.families(k)) if not self.chance(0.03) else "zz"
        if self.chance(p_family_only):
            return family
        return family + ":" + self.pick(QUALIFIERS)

    def row(self):
        return self.rng.choices(ROWS, weights=[4, 4, 3, 1, 1])[0]

    def write_ts(self):
        return self.pick(SMALL_TS) if self.chance(0.4) else None


# ------------------------------------------------------------------------------ call builders


def create_table(m, ns=None):
    k = len(m.tables)
    families = {f: m.pick([1, 3]) for f in sorted(m.rng.sample(FAMILIES, m.rng.randint(1, 2)))}
    m.tables[k] = {"families": families, "ns": ns, "live": True}
    encoding = m.pick([XML, JSON, PROTOBUF])
    return R(m.pick(["PUT", "POST"]), [Tab(k, ns=ns), "schema"],
             body=("schema", encoding, Tab(k, ns=ns), sorted(families.items())))


def b_schema(m):
    roll = m.rng.random()
    if roll < 0.25 and len(m.tables) < 8:
        ns = None
        live_ns = [j for j, live in m.namespaces.items() if live]
        if live_ns and m.chance(0.3):
            ns = m.pick(live_ns)
        return create_table(m, ns)
    k = m.table()
    if roll < 0.55:
        return R("GET", [m.tab(k), "schema"], accept=m.pick(READ_ENCODINGS))
    if roll < 0.7:
        return R("GET", [m.tab(k), "exists"])
    if roll < 0.8:
        return R("GET", [m.tab(k), "regions"], accept=m.pick(READ_ENCODINGS))
    if roll < 0.9:
        return R("GET", [""], accept=m.pick(READ_ENCODINGS + ["text/plain"]))
    if k in m.tables and m.chance(0.7):
        m.tables[k]["live"] = False
        for i, t in enumerate(m.scanners):
            if t == k:
                m.scanners[i] = None
    return R("DELETE", [m.tab(k), "schema"])


def b_namespace(m):
    roll = m.rng.random()
    known = list(m.namespaces) or [0]
    if roll < 0.3:
        j = len(m.namespaces) if m.chance(0.8) else m.pick(known)
        m.namespaces[j] = True
        return R(m.pick(["POST", "PUT"]), ["namespaces", Ns(j)])
    if roll < 0.5:
        return R("GET", ["namespaces"], accept=m.pick(READ_ENCODINGS + ["text/plain"]))
    if roll < 0.7:
        return R("GET", ["namespaces", Ns(m.pick(known))], accept=m.pick(READ_ENCODINGS))
    if roll < 0.85:
        return R("GET", ["namespaces", Ns(m.pick(known)), "tables"],
                 accept=m.pick(READ_ENCODINGS))
    j = m.pick(known)
    if not any(t["live"] and t["ns"] == j for t in m.tables.values()):
        m.namespaces[j] = False
    return R("DELETE", ["namespaces", Ns(j)])


def _cells(m, k, n_rows):
    rows = []
    for row in sorted(set(m.row() for _ in range(n_rows))):
        cells = [(m.column(k, 0.0), m.write_ts(), m.pick(VALUES))
                 for _ in range(m.rng.randint(1, 3))]
        rows.append((row, cells))
    return rows


def _maybe_b64(m, call):
    """Sometimes the same call with its row and column segments base64-encoded under HBase's
    `Encoding: b64` header."""
    if m.chance(0.15):
        call.path = call.path[:1] + [base64.b64encode(seg.encode()).decode()
                                     if i < 2 and isinstance(seg, str) else seg
                                     for i, seg in enumerate(call.path[1:])]
        call.headers["Encoding"] = "b64"
    return call


def b_put(m):
    k = m.table()
    if m.chance(0.3):
        row, column = m.row(), m.column(k, 0.0)
        headers = {"X-Timestamp": str(m.pick(SMALL_TS))} if m.chance(0.4) else {}
        return _maybe_b64(m, R(m.pick(["PUT", "POST"]), [m.tab(k), row, column],
                                body=("octet", m.pick(VALUES)), headers=headers))
    rows = _cells(m, k, m.rng.randint(1, 3))
    return R(m.pick(["PUT", "POST"]), [m.tab(k), rows[0][0] if m.chance(0.5) else "fakerow"],
             body=("cells", m.pick(READ_ENCODINGS), rows))


def b_get(m):
    k = m.table()
    path = [m.tab(k), m.row()]
    accept = m.pick(READ_ENCODINGS)
    if m.chance(0.6):
        path.append(m.column(k))
        if m.chance(0.3):
            accept = OCTET  # one value, with X-Timestamp
        if m.chance(0.3):
            path.append(str(m.pick(SMALL_TS)) if m.chance(0.5)
                        else "%d,%d" % tuple(sorted(m.rng.sample(SMALL_TS, 2))))
    query = [("v", str(m.pick([1, 2, 5])))] if m.chance(0.3) else []
    return _maybe_b64(m, R("GET", path, query=query, accept=accept))


def b_multiget(m):
    k = m.table()
    rows = [m.row() for _ in range(m.rng.randint(1, 3))]
    query = [("row", r if not m.chance(0.2) else r + "/" + m.column(k)) for r in rows]
    if m.chance(0.2):
        query.append(("v", "3"))
    return R("GET", [m.tab(k), "multiget"], query=query, accept=m.pick(READ_ENCODINGS))


def b_delete(m):
    k = m.table()
    path = [m.tab(k), m.row()]
    if m.chance(0.6):
        path.append(m.column(k))
        if m.chance(0.2):
            path.append(str(m.pick(SMALL_TS)))
    return _maybe_b64(m, R("DELETE", path))


def b_check(m):
    k = m.table()
    row = m.row()
    check_column = m.column(k, 0.0)
    expected = m.pick(VALUES[:3])
    op = m.rng.choices(["put", "delete", "append", "increment", "bogus"],
                       weights=[10, 8, 3, 3, 1])[0]
    if op == "put":
        column = check_column if m.chance(0.85) else m.column(k, 0.0)
        cells = [(column, None, m.pick(VALUES)), (check_column, None, expected)]
    elif op == "increment":
        # a decimal amount; on a cell that is not 8 bytes wide HBase refuses it
        column = m.pick(["f:n", "g:n"]) if m.chance(0.7) else check_column
        cells = [(column, None, m.pick([b"1", b"5", b"-2", b"x"]))]
    elif op == "append":
        cells = [(check_column, None, m.pick(VALUES))]
    else:
        cells = ([(m.column(k, 0.0), None, b"")] if m.chance(0.5) else []) + [
            (check_column, None, expected)]
    if m.chance(0.05):
        cells = cells[-1:]
    encoding = m.pick(READ_ENCODINGS)
    return R(m.pick(["PUT", "POST"]), [m.tab(k), row], query=[("check", op)],
             body=("cells", encoding, [(row, cells)]))


def b_scan(m):
    k = m.table()
    prefix = m.pick(["", "", "r", "r1", "s"]) + "*"
    query = []
    if m.chance(0.3):
        start, end = sorted(m.rng.sample(ROWS, 2))
        query += [("startrow", start)] + ([("endrow", end)] if m.chance(0.7) else [])
    if m.chance(0.3):
        query.append(("column", m.column(k)))
    if m.chance(0.2):
        lo, hi = sorted(m.rng.sample(SMALL_TS + [1000], 2))
        query += [("starttime", str(lo)), ("endtime", str(hi))]
    for name, values, p in (("maxversions", ["1", "2", "5"], 0.3), ("limit", ["1", "2", "3"], 0.3),
                            ("batchsize", ["1", "2", "10"], 0.2),
                            ("reversed", ["true", "false"], 0.15)):
        if m.chance(p):
            query.append((name, m.pick(values)))
    if m.chance(0.3):
        fams = m.families(k)
        text, _ = filter_string(m.rng, fams, QUALIFIERS, ROWS[:4], ["v1", "v2", "v", "x"])
        query.append(("filter", text))
    return R("GET", [m.tab(k), prefix], query=query, accept=m.pick(READ_ENCODINGS))


def b_scanner_open(m):
    k = m.table()
    n = len(m.scanners)
    m.scanners.append(k if k in m.tables and m.tables[k]["live"] else None)
    spec = {}
    if m.chance(0.6):
        spec["batch"] = m.pick([1, 2, 5, 100])
    if m.chance(0.3):
        start, end = sorted(m.rng.sample(ROWS, 2))
        spec["startRow"], spec["endRow"] = start, end
    if m.chance(0.3):
        spec["columns"] = sorted(set(m.column(k) for _ in range(m.rng.randint(1, 2))))
    if m.chance(0.2):
        spec["maxVersions"] = m.pick([1, 2])
    if m.chance(0.15):
        spec["filter"] = m.pick(FILTER_MODELS)
    return R(m.pick(["PUT", "POST"]), [m.tab(k), "scanner"],
             body=("scanner", m.pick(READ_ENCODINGS), spec), opens_scanner=n)


# JSON filter trees of ScannerModel (values base64, as the gateway reads them).
FILTER_MODELS = [
    '{"type":"PrefixFilter","value":"cjE="}',
    '{"type":"KeyOnlyFilter"}',
    '{"type":"FirstKeyOnlyFilter"}',
    '{"type":"RowFilter","op":"EQUAL","comparator":{"type":"BinaryComparator","value":"cjI="}}',
    '{"type":"ValueFilter","op":"NOT_EQUAL",'
    '"comparator":{"type":"BinaryComparator","value":"djE="}}',
    '{"type":"QualifierFilter","op":"GREATER",'
    '"comparator":{"type":"BinaryComparator","value":"YQ=="}}',
    '{"type":"PageFilter","value":"1"}',
    '{"type":"ColumnPrefixFilter","value":"Yg=="}',
    '{"type":"FilterList","op":"MUST_PASS_ONE","filters":[{"type":"PrefixFilter","value":"cjE="},'
    '{"type":"PrefixFilter","value":"cjM="}]}',
]


def b_scanner_read(m):
    usable = [k for k, t in enumerate(m.scanners) if t is not None]
    k = m.pick(usable) if usable and not m.chance(0.05) else None
    table = m.scanners[k] if k is not None else m.table()
    path = [m.tab(table), "scanner", Scanner(k)]
    if m.chance(0.2):
        if k is not None:
            m.scanners[k] = None
        return R("DELETE", path)
    query = [("n", m.pick(["1", "2", "10"]))] if m.chance(0.3) else []
    return R("GET", path, query=query, accept=m.pick(READ_ENCODINGS + [OCTET]))


def b_misc(m):
    return R("GET", m.pick([["version"], ["version", "cluster"], ["status", "cluster"]]),
             accept=m.pick(READ_ENCODINGS + ["text/plain"]))


def b_hostile(m):
    """Bodies HBase refuses: malformed in each encoding, or a CellSet that names no cell."""
    k = m.table()
    encoding = m.pick(READ_ENCODINGS)
    body = m.pick([b"", b"{", b"<CellSet><Row", b"\x0a\xff\xff", b'{"Row":[]}',
                   b"<CellSet/>"])
    return R("PUT", [m.tab(k), m.row()], body=("raw", encoding, body))


WEIGHTS = {b_schema: 10, b_namespace: 5, b_put: 22, b_get: 18, b_multiget: 5, b_delete: 6,
           b_check: 8, b_scan: 12, b_scanner_open: 5, b_scanner_read: 7, b_misc: 2, b_hostile: 2}


def sequence(seed, n_calls):
    """The seed's calls: two tables first, then n_calls - 2 drawn by WEIGHTS (a new table when
    none is live)."""
    m = Model(seed)
    calls = [create_table(m), create_table(m)]
    builders = list(WEIGHTS)
    while len(calls) < n_calls:
        if not m.live_tables() and m.chance(0.9):
            calls.append(create_table(m))
            continue
        build = m.rng.choices(builders, weights=[WEIGHTS[b] for b in builders])[0]
        calls.append(build(m))
    return calls[:n_calls]
