"""Export and import HBase tables as JSON Lines, through any HBase Thrift2 endpoint.

File format (one JSON object a line, UTF-8). Every byte string is standard base64 (RFC 4648,
with padding): lossless for all 256 byte values, and plain ASCII inside JSON.
  {"kind": "namespace", "name": "ns1", "configuration": {...}}
  {"kind": "table", "name": "ns1:t", "descriptor": {...}, "splits": ["<b64>", ...]}
  {"row": "<b64>", "family": "<b64>", "qualifier": "<b64>", "timestamp": 1700000000000,
   "type": "Put", "value": "<b64>"}
A cell line belongs to the table line before it. `descriptor` is the Thrift2 TTableDescriptor
field by field (binary fields in base64, enums as their numbers); `splits` are the region start
keys (from getAllRegionLocations) that createTable takes back as split keys.

Only cells that a Thrift scan returns can be exported: HBase's Thrift gateways offer no raw scan,
so delete markers never leave the server, and an export holds what a reader sees (all versions
kept by the table, or only the newest). Import writes cells with their own timestamps through
putMultiple and accepts type "Put" only.

Both directions stream: an export holds one batch of rows, an import one batch of cells.
"""

import argparse
import binascii
import json
import sys
import time

from . import thrift2

T = thrift2.ttypes
# binascii directly: base64.b64encode/b64decode add a Python call per field, a third of the cost.
B64D = binascii.a2b_base64
_b2a = binascii.b2a_base64
ALL_VERSIONS = 2147483647
# Cell.Type codes HBase puts in TColumnValue.type.
CELL_TYPES = {4: "Put", 8: "Delete", 10: "DeleteFamilyVersion", 12: "DeleteColumn",
              14: "DeleteFamily"}
BUILTIN_NAMESPACES = ("default", "hbase")


# ---- Thrift structs <-> JSON, driven by thriftpy2's thrift_spec

def _b64(b):
    return _b2a(b, newline=False).decode("ascii")


def _value_to_json(ttype, extra, value):
    if ttype == 18:  # binary
        return _b64(value)
    if ttype == 12:
        return struct_to_json(value)
    if ttype == 15:
        etype, ecls = extra if isinstance(extra, tuple) else (extra, None)
        return [_value_to_json(etype, ecls, v) for v in value]
    if ttype == 13:
        (kspec, vspec) = extra
        ktype, kextra = kspec if isinstance(kspec, tuple) else (kspec, None)
        vtype, vextra = vspec if isinstance(vspec, tuple) else (vspec, None)
        return {_value_to_json(ktype, kextra, k): _value_to_json(vtype, vextra, v)
                for k, v in value.items()}
    return value  # string, bool, integers, enums (as numbers)


def _value_from_json(ttype, extra, value):
    if ttype == 18:
        return B64D(value)
    if ttype == 12:
        return struct_from_json(extra, value)
    if ttype == 15:
        etype, ecls = extra if isinstance(extra, tuple) else (extra, None)
        return [_value_from_json(etype, ecls, v) for v in value]
    if ttype == 13:
        (kspec, vspec) = extra
        ktype, kextra = kspec if isinstance(kspec, tuple) else (kspec, None)
        vtype, vextra = vspec if isinstance(vspec, tuple) else (vspec, None)
        return {_value_from_json(ktype, kextra, k): _value_from_json(vtype, vextra, v)
                for k, v in value.items()}
    return value


def _spec_parts(spec):
    # (ttype, name, required) or (ttype, name, extra, required)
    return (spec[0], spec[1], spec[2]) if len(spec) == 4 else (spec[0], spec[1], None)


def struct_to_json(obj):
    out = {}
    for spec in obj.thrift_spec.values():
        ttype, name, extra = _spec_parts(spec)
        value = getattr(obj, name)
        if value is not None:
            out[name] = _value_to_json(ttype, extra, value)
    return out


def struct_from_json(cls, data):
    kwargs = {}
    for spec in cls.thrift_spec.values():
        ttype, name, extra = _spec_parts(spec)
        if name in data:
            kwargs[name] = _value_from_json(ttype, extra, data[name])
    return cls(**kwargs)


# ---- progress on stderr

class Progress:
    """`<verb> <table>: N cells, S s, R cells/s`, at most once a second and once at the end."""

    def __init__(self, verb, quiet=False, stream=None):
        self.verb = verb
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.monotonic()
        self.last = self.start
        self.cells = 0
        self.table = ""

    def add(self, n, table):
        self.cells += n
        self.table = table
        now = time.monotonic()
        if now - self.last >= 1.0:
            self.last = now
            self._line(end="\r" if self.tty else "\n")

    def rate(self):
        elapsed = time.monotonic() - self.start
        return self.cells / elapsed if elapsed > 0 else 0.0

    def _line(self, end):
        if self.quiet:
            return
        elapsed = time.monotonic() - self.start
        self.stream.write("%s %s: %d cells, %.1f s, %.0f cells/s%s"
                          % (self.verb, self.table or "-", self.cells, elapsed, self.rate(), end))
        self.stream.flush()

    def done(self):
        self._line(end="\n")


# ---- export

def _user_tables(client):
    return [t for t in client.getTableNamesByPattern(".*", False)
            if (t.ns or b"default") != b"hbase"]


def _split_keys(client, name):
    keys = [loc.regionInfo.startKey for loc in client.getAllRegionLocations(thrift2.table_name_bytes(name))]
    return sorted(k for k in keys if k)


def export(client, out, tables=None, max_versions=ALL_VERSIONS, schema=True, data=True,
           batch_rows=1000, progress=None):
    """Writes namespaces, table descriptors and cells of `tables` (names; default every user
    table) to the text stream `out`. Returns the number of cells written."""
    progress = progress or Progress("export", quiet=True)
    if tables:
        tnames = [thrift2.split_table_name(t) for t in tables]
    else:
        tnames = _user_tables(client)
    if schema:
        wanted = {(t.ns or b"default").decode("utf-8") for t in tnames}
        for nsd in client.listNamespaceDescriptors():
            if nsd.name in BUILTIN_NAMESPACES or (tables and nsd.name not in wanted):
                continue
            out.write(json.dumps({"kind": "namespace", "name": nsd.name,
                                  "configuration": nsd.configuration or {}}) + "\n")
    total = 0
    for tname in tnames:
        name = thrift2.full_table_name(tname)
        record = {"kind": "table", "name": name}
        if schema:
            record["descriptor"] = struct_to_json(client.getTableDescriptor(tname))
            record["splits"] = [_b64(k) for k in _split_keys(client, name)]
        out.write(json.dumps(record) + "\n")
        if data:
            total += _export_cells(client, out, name, max_versions, batch_rows, progress)
    progress.done()
    return total


def _export_cells(client, out, name, max_versions, batch_rows, progress):
    table = thrift2.table_name_bytes(name)
    scanner = client.openScanner(table, T.TScan(maxVersions=max_versions, caching=batch_rows))
    count = 0
    families = {}  # family bytes -> base64; a table has few
    try:
        while True:
            results = client.getScannerRows(scanner, batch_rows)
            if not results:
                break
            lines = []
            for result in results:
                row = _b64(result.row)
                for cv in result.columnValues:
                    family = families.get(cv.family)
                    if family is None:
                        family = families[cv.family] = _b64(cv.family)
                    kind = CELL_TYPES.get(cv.type, "Put") if cv.type is not None else "Put"
                    # Hand-built JSON: base64 needs no escaping, and this is the hot loop.
                    lines.append('{"row":"%s","family":"%s","qualifier":"%s","timestamp":%d,'
                                 '"type":"%s","value":"%s"}\n'
                                 % (row, family, _b64(cv.qualifier), cv.timestamp, kind,
                                    _b64(cv.value)))
            out.write("".join(lines))
            count += len(lines)
            progress.add(len(lines), name)
    finally:
        client.closeScanner(scanner)
    return count


# ---- import

class _Importer:
    def __init__(self, client, batch_cells, create, progress):
        self.client = client
        self.batch_cells = batch_cells
        self.create = create
        self.progress = progress
        self.table = None
        self.puts = []
        self.pending = 0
        self.cells = 0
        self.namespaces = None

    def namespace(self, rec):
        if self.namespaces is None:
            self.namespaces = {n.decode("utf-8") if isinstance(n, bytes) else n
                               for n in self.client.listNamespaces()}
        if rec["name"] in self.namespaces or not self.create:
            return
        self.client.createNamespace(T.TNamespaceDescriptor(name=rec["name"],
                                                           configuration=rec.get("configuration") or None))
        self.namespaces.add(rec["name"])

    def table_record(self, rec, rename):
        self.flush()
        name = rename.get(rec["name"], rec["name"])
        self.table = thrift2.table_name_bytes(name)
        tname = thrift2.split_table_name(name)
        if self.client.tableExists(tname):
            return
        if not self.create or "descriptor" not in rec:
            raise ValueError("table %s does not exist and the file has no schema for it "
                             "(or --no-create was given)" % name)
        desc = struct_from_json(T.TTableDescriptor, rec["descriptor"])
        desc.tableName = tname
        splits = [B64D(k) for k in rec.get("splits", [])]
        self.client.createTable(desc, splits or None)

    def cell(self, rec, lineno):
        self.put_cell(rec["row"], rec["family"], rec["qualifier"], int(rec["timestamp"]),
                      rec.get("type", "Put"), rec["value"], lineno)

    def put_cell(self, row, family, qualifier, timestamp, kind, value, lineno):
        """Queues one cell (byte fields still in base64) for the next putMultiple."""
        if self.table is None:
            raise ValueError("line %d: a cell before any table line" % lineno)
        if kind != "Put":
            raise ValueError("line %d: cells of type %s cannot be imported (only Put)" % (lineno, kind))
        row = B64D(row)
        cv = T.TColumnValue(family=B64D(family), qualifier=B64D(qualifier), value=B64D(value),
                            timestamp=timestamp)
        if self.puts and self.puts[-1].row == row:
            self.puts[-1].columnValues.append(cv)
        else:
            self.puts.append(T.TPut(row=row, columnValues=[cv]))
        self.pending += 1
        if self.pending >= self.batch_cells:
            self.flush()

    def flush(self):
        if self.puts:
            self.client.putMultiple(self.table, self.puts)
            self.cells += self.pending
            self.progress.add(self.pending, self.table.decode("utf-8", "replace"))
        self.puts = []
        self.pending = 0


# A cell line exactly as export writes it, split at its double quotes (base64 has none):
# {"row":"R","family":"F","qualifier":"Q","timestamp":N,"type":"T","value":"V"}
_CELL_KEYS = ((1, "row"), (5, "family"), (9, "qualifier"), (13, "timestamp"), (15, "type"),
              (19, "value"))


def _split_cell_line(line):
    """(row, family, qualifier, timestamp, type, value) of a cell line in export's own layout,
    else None (the caller then parses it as JSON). Several times faster than json.loads."""
    parts = line.split('"')
    if len(parts) != 23 or parts[0] != "{" or parts[22].rstrip() != "}":
        return None
    for i, key in _CELL_KEYS:
        if parts[i] != key:
            return None
    ts = parts[14]
    if not (ts.startswith(":") and ts.endswith(",") and ts[1:-1].lstrip("-").isdigit()):
        return None
    return parts[3], parts[7], parts[11], int(ts[1:-1]), parts[17], parts[21]


def import_(client, lines, create=True, rename=None, batch_cells=5000, progress=None):
    """Reads an export (an iterable of lines) into the server behind `client`: creates missing
    namespaces and tables (existing ones are left as they are), then puts every cell with its
    timestamp. Returns the number of cells written."""
    importer = _Importer(client, batch_cells, create, progress or Progress("import", quiet=True))
    rename = rename or {}
    for lineno, line in enumerate(lines, 1):
        fast = _split_cell_line(line)
        if fast is not None:
            importer.put_cell(*fast, lineno)
            continue
        if not line.strip():
            continue
        rec = json.loads(line)
        kind = rec.get("kind")
        if kind is None:
            importer.cell(rec, lineno)
        elif kind == "namespace":
            importer.namespace(rec)
        elif kind == "table":
            importer.table_record(rec, rename)
        else:
            raise ValueError("line %d: unknown kind %r" % (lineno, kind))
    importer.flush()
    importer.progress.done()
    return importer.cells


# ---- command line

def _common(parser):
    parser.add_argument("--host", default="127.0.0.1", help="Thrift2 server host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=9091, help="Thrift2 port (default 9091)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line on stderr")


def export_main(argv=None):
    p = argparse.ArgumentParser(prog="hbase-emulator-export",
                                description="Export HBase tables (schema and cells) as JSON Lines.")
    _common(p)
    p.add_argument("-o", "--output", default="-", help="file to write (default stdout)")
    p.add_argument("-t", "--table", action="append", help="table to export (repeatable; "
                   "default every user table)")
    p.add_argument("--newest", action="store_true", help="only the newest version of each cell")
    p.add_argument("--schema-only", action="store_true", help="namespaces and tables, no cells")
    p.add_argument("--batch-rows", type=int, default=1000, help="rows per scanner call")
    args = p.parse_args(argv)
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    try:
        with thrift2.client(args.host, args.port) as c:
            export(c, out, tables=args.table, max_versions=1 if args.newest else ALL_VERSIONS,
                   data=not args.schema_only, batch_rows=args.batch_rows,
                   progress=Progress("export", quiet=args.quiet))
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def import_main(argv=None):
    p = argparse.ArgumentParser(prog="hbase-emulator-import",
                                description="Import a JSON Lines export into an HBase Thrift2 server.")
    _common(p)
    p.add_argument("-i", "--input", default="-", help="file to read (default stdin)")
    p.add_argument("--no-create", action="store_true",
                   help="do not create namespaces or tables; fail if a table is missing")
    p.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help="import table OLD into NEW (repeatable)")
    p.add_argument("--batch-cells", type=int, default=5000, help="cells per putMultiple call")
    args = p.parse_args(argv)
    rename = dict(r.split("=", 1) for r in args.rename)
    src = sys.stdin if args.input == "-" else open(args.input, "r", encoding="utf-8")
    try:
        with thrift2.client(args.host, args.port) as c:
            import_(c, src, create=not args.no_create, rename=rename,
                    batch_cells=args.batch_cells, progress=Progress("import", quiet=args.quiet))
    finally:
        if src is not sys.stdin:
            src.close()
    return 0
