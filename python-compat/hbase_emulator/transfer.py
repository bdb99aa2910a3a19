r"""Export and import HBase tables as JSON Lines, through any HBase Thrift2 endpoint.

File format (one JSON object a line, UTF-8):
  {"kind": "namespace", "name": "ns1", "configuration": {...}}
  {"kind": "table", "name": "ns1:t", "encoding": "text", "descriptor": {...}, "splits": [...]}
  {"row": "alice", "family": "f", "qualifier": "\\x00q", "timestamp": 1700000000000,
   "type": "Put", "value": "..."}
A cell line belongs to the table line before it, and that table line's `encoding` says how its
byte strings are written: "text" (the default) is HBase's Bytes.toStringBinary form, the way the
HBase shell prints bytes (printable ASCII as is, every other byte and the backslash as \xHH; see
bytes_text), so a dump can be read and grepped; "base64" is standard base64 (`--base64`). A table
line without `encoding` is base64: files written before the text form existed import unchanged.
`descriptor` is the Thrift2 TTableDescriptor field by field (binary fields in the table's
encoding, enums as their numbers); `splits` are the region start keys (from
getAllRegionLocations) that createTable takes back as split keys.

Only cells that a Thrift scan returns can be exported: HBase's Thrift gateways offer no raw scan,
so delete markers never leave the server in this format, and an export holds what a reader sees
(all versions kept by the table, or only the newest). Import writes cells with their own
timestamps through putMultiple and accepts type "Put" only. `--format sequencefile` hands both
commands to seq_cli: HBase's own Export format, which carries delete markers (seq_export,
seq_import).

Both directions stream: an export holds one batch of rows, an import one batch of cells.
"""

import bisect
import json
import sys
from json.encoder import encode_basestring_ascii as _json_str

from . import bytes_text, cli, seq_cli, seq_import, thrift2, thrift_json
from .cli import UserError
from .progress import Progress

T = thrift2.ttypes
_b64 = bytes_text.b64_encode
ALL_VERSIONS = 2147483647
# Cell.Type codes HBase puts in TColumnValue.type.
CELL_TYPES = {4: "Put", 8: "Delete", 10: "DeleteFamilyVersion", 12: "DeleteColumn",
              14: "DeleteFamily"}
BUILTIN_NAMESPACES = ("default", "hbase")
# A table line without "encoding" was written before the text form existed.
LEGACY_ENCODING = "base64"


def struct_to_json(obj, encode=_b64):
    return thrift_json.struct_to_json(obj, encode)


def struct_from_json(cls, data, decode=bytes_text.b64_decode, path="descriptor"):
    return thrift_json.struct_from_json(cls, data, decode, path)


# ---- export

def _user_tables(client):
    return [t for t in client.getTableNamesByPattern(".*", False)
            if (t.ns or b"default") != b"hbase"]


def _split_keys(client, name):
    keys = [loc.regionInfo.startKey for loc in client.getAllRegionLocations(thrift2.table_name_bytes(name))]
    return sorted(k for k in keys if k)


def export(client, out, tables=None, max_versions=ALL_VERSIONS, schema=True, data=True,
           batch_rows=1000, progress=None, encoding="text"):
    """Writes namespaces, table descriptors and cells of `tables` (names; default every user
    table) to the text stream `out`, byte strings in `encoding` ("text" or "base64"). Returns the
    number of cells written. A named table that does not exist is a UserError."""
    if encoding not in bytes_text.ENCODINGS:
        raise UserError("unknown encoding %r (text or base64)" % encoding)
    encode = bytes_text.encoder(encoding)
    progress = progress or Progress("export", quiet=True)
    if tables:
        tnames = [thrift2.split_table_name(t) for t in tables]
        for tname in tnames:
            if not client.tableExists(tname):
                raise UserError("table %s does not exist" % thrift2.full_table_name(tname))
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
    for i, tname in enumerate(tnames, 1):
        name = thrift2.full_table_name(tname)
        record = {"kind": "table", "name": name, "encoding": encoding}
        splits = _split_keys(client, name)
        if schema:
            record["descriptor"] = struct_to_json(client.getTableDescriptor(tname), encode)
            record["splits"] = [encode(k) for k in splits]
        out.write(json.dumps(record) + "\n")
        if data:
            where = [] if len(tnames) == 1 else ["table %d of %d" % (i, len(tnames))]
            total += _export_cells(client, out, name, max_versions, batch_rows, progress, where,
                                   encoding, splits)
    progress.done()
    return total


def _export_cells(client, out, name, max_versions, batch_rows, progress, where, encoding, splits):
    table = thrift2.table_name_bytes(name)
    # How many rows a table holds is unknown before the scan ends, so no percentage; with
    # several regions (`splits`: their start keys), the one the scan is in tells how far it got.
    at = where
    if encoding == "text":
        tsb = bytes_text.to_string_binary

        def field(b):
            return _json_str(tsb(b))
    else:
        def field(b):
            return '"%s"' % _b64(b)
    progress.add(0, name, where=", ".join(at))  # an empty table counts in the total too
    scanner = client.openScanner(table, T.TScan(maxVersions=max_versions, caching=batch_rows))
    count = 0
    families = {}  # family bytes -> JSON string; a table has few
    try:
        while True:
            results = client.getScannerRows(scanner, batch_rows)
            if not results:
                break
            lines = []
            for result in results:
                row = field(result.row)
                for cv in result.columnValues:
                    family = families.get(cv.family)
                    if family is None:
                        family = families[cv.family] = field(cv.family)
                    kind = CELL_TYPES.get(cv.type, "Put") if cv.type is not None else "Put"
                    # Hand-built JSON: the fields are JSON strings already, and this is the hot loop.
                    lines.append('{"row":%s,"family":%s,"qualifier":%s,"timestamp":%d,'
                                 '"type":"%s","value":%s}\n'
                                 % (row, family, field(cv.qualifier), cv.timestamp, kind,
                                    field(cv.value)))
            out.write("".join(lines))
            count += len(lines)
            if splits:
                region = bisect.bisect_right(splits, results[-1].row) + 1
                at = where + ["region %d of %d" % (region, len(splits) + 1)]
            progress.add(len(lines), name, where=", ".join(at))
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
        self.decode = self.fast_decode = bytes_text.b64_decode
        self.last_row = None
        self.puts = []
        self.pending = 0
        self.cells = 0
        self.done_bytes = None
        self.namespaces = None
        self.tables_seen = set()  # table names as the file has them (before --rename)
        self.tables_written = set()  # what a stop reports: where cells went, what was created
        self.tables_created = 0
        self.namespaces_created = 0

    def namespace(self, rec):
        name = rec.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError('a namespace line needs a "name" string')
        if self.namespaces is None:
            self.namespaces = {n.decode("utf-8") if isinstance(n, bytes) else n
                               for n in self.client.listNamespaces()}
        # Checked whether or not it is created: a wrong type is a mistake in the file either way.
        nsd = struct_from_json(T.TNamespaceDescriptor, {"name": name, "configuration": rec.get(
            "configuration") or None}, self.decode, path="namespace")
        if name in self.namespaces or not self.create:
            return
        self.client.createNamespace(nsd)
        self.namespaces.add(name)
        self.namespaces_created += 1

    def table_record(self, rec, rename):
        self.flush()
        name = rec.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError('a table line needs a "name" string')
        encoding = rec.get("encoding", LEGACY_ENCODING)
        if encoding not in bytes_text.ENCODINGS:
            raise ValueError('unknown "encoding" %s (text or base64)' % json.dumps(encoding))
        self.decode = bytes_text.decoder(encoding)
        # A cell line export's fast path splits has no backslash: in the text form, no escapes.
        self.fast_decode = str.encode if encoding == "text" else bytes_text.b64_decode
        self.tables_seen.add(name)
        name = rename.get(name, name)
        self.progress.add(0, name, self.done_bytes)  # an empty table counts in the total too
        self.table = thrift2.table_name_bytes(name)
        tname = thrift2.split_table_name(name)
        # Checked before the table is looked up, so a wrong type is found whether or not the
        # table exists already.
        desc = None
        if rec.get("descriptor") is not None:
            desc = struct_from_json(T.TTableDescriptor, rec["descriptor"], self.decode)
        splits = thrift_json.from_json(15, 18, rec.get("splits") or [], self.decode, "splits")
        if self.client.tableExists(tname):
            return
        if not self.create:
            raise ValueError("table %s does not exist (--no-create)" % name)
        if desc is None:
            raise ValueError("table %s does not exist and the file has no schema for it" % name)
        desc.tableName = tname
        self.client.createTable(desc, splits or None)
        self.tables_created += 1

    def cell(self, rec):
        for key in ("row", "family", "qualifier", "timestamp", "value"):
            if key not in rec:
                raise ValueError('a cell line needs "%s"' % key)
        for key in ("row", "family", "qualifier", "value"):
            if not isinstance(rec[key], str):
                raise ValueError('"%s" must be a string' % key)
        ts = rec["timestamp"]
        if not isinstance(ts, int) or isinstance(ts, bool):
            raise ValueError('"timestamp" must be an integer')
        self.put_cell(rec["row"], rec["family"], rec["qualifier"], ts, rec.get("type", "Put"),
                      rec["value"])

    def put_cell(self, row, family, qualifier, timestamp, kind, value, decode=None):
        """Queues one cell for the next putMultiple; its byte fields are still encoded, and
        `decode` (default: the table line's encoding) decodes them."""
        if self.table is None:
            raise ValueError("a cell before any table line")
        if kind != "Put":
            raise ValueError("cells of type %s cannot be imported (only Put)"
                             % (kind if isinstance(kind, str) else thrift_json.shown(kind),))
        thrift_json.int_in_bits(timestamp, 64, '"timestamp"')
        decode = decode or self.decode
        same_row = bool(self.puts) and row == self.last_row
        try:
            cv = T.TColumnValue(family=decode(family), qualifier=decode(qualifier),
                                value=decode(value), timestamp=timestamp)
            if not same_row:
                put = T.TPut(row=decode(row), columnValues=[cv])
        except ValueError:
            for key, text in (("row", row), ("family", family), ("qualifier", qualifier),
                              ("value", value)):
                try:
                    decode(text)
                except ValueError as e:
                    raise ValueError("%s: %s" % (key, e))
            raise
        if same_row:
            self.puts[-1].columnValues.append(cv)
        else:
            self.puts.append(put)
            self.last_row = row
        self.pending += 1
        if self.pending >= self.batch_cells:
            self.flush()

    def flush(self):
        puts, pending = self.puts, self.pending
        # Cleared first: a batch the server refused is not sent again by the flush at a stop.
        self.puts, self.pending = [], 0
        if puts:
            try:
                self.client.putMultiple(self.table, puts)
            except (T.TIOError, T.TIllegalArgument) as e:
                raise ValueError("the server refused the cells up to here: %s" % cli.server_error(e))
            self.cells += pending
            self.tables_written.add(self.table)
            self.progress.add(pending, self.table.decode("utf-8", "replace"), self.done_bytes)

    def summary(self):
        """What went in before a stop, e.g. `5 cells written to 1 table, created 1 table`."""
        text = "%d cell%s written" % (self.cells, "" if self.cells == 1 else "s")
        if self.tables_written:
            text += " to %s" % _count(len(self.tables_written), "table")
        created = [_count(n, what) for n, what in ((self.namespaces_created, "namespace"),
                                                   (self.tables_created, "table")) if n]
        return text + (", created " + " and ".join(created) if created else ", nothing created")


def _count(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


class _ParseError(ValueError):
    """A line that is not a record at all (not UTF-8, not JSON): on a last line with no line
    end, the sign of a file cut short."""


# A cell line exactly as export writes it, split at its double quotes:
# {"row":"R","family":"F","qualifier":"Q","timestamp":N,"type":"T","value":"V"}
# Safe only where no field holds a JSON escape of a quote: base64 has no backslash at all, and
# the text form's only backslashes start \xHH, which JSON writes as \\xHH.
_SEPARATORS = [":", ",", ":", ",", ":", ","]
_CELL_KEYS = ((1, "row"), (5, "family"), (9, "qualifier"), (13, "timestamp"), (15, "type"),
              (19, "value"))


def _split_cell_line(line):
    """(row, family, qualifier, timestamp, type, value, escaped) of a cell line in export's own
    layout, else None (the caller then parses it as JSON). Several times faster than json.loads.
    `escaped`: the fields hold \\xHH escapes (so they need the text decoder)."""
    escaped = "\\" in line
    if escaped and "\\" in line.replace("\\\\x", ""):
        return None
    parts = line.split('"')
    if len(parts) != 23 or parts[0] != "{" or parts[22].rstrip() != "}":
        return None
    for i, key in _CELL_KEYS:
        if parts[i] != key:
            return None
    # Between the strings only export's own punctuation: else a field is not a string at all.
    if parts[2:13:2] != _SEPARATORS or parts[16:21:2] != _SEPARATORS[:3]:
        return None
    ts = parts[14]
    # More than 20 digits cannot be a 64-bit timestamp: the JSON reader names the mistake.
    if not (ts.startswith(":") and ts.endswith(",") and ts[1:-1].lstrip("-").isdigit()
            and len(ts) <= 23):
        return None
    if escaped:
        return (parts[3].replace("\\\\", "\\"), parts[7].replace("\\\\", "\\"),
                parts[11].replace("\\\\", "\\"), int(ts[1:-1]), parts[17],
                parts[21].replace("\\\\", "\\"), True)
    return parts[3], parts[7], parts[11], int(ts[1:-1]), parts[17], parts[21], False


def _json_record(line):
    try:
        rec = json.loads(line)
    except ValueError as e:
        msg = getattr(e, "msg", None)
        if msg is None and "digits" in str(e):
            # Python (3.11 on) refuses to read an integer of thousands of digits.
            raise ValueError("not a record: a number too long to read (%s)" % str(e).split(":")[0])
        # Some of json's messages end "starting at"; the column completes them.
        raise _ParseError("not valid JSON (%s at column %d)" % (msg[:-3] if msg.endswith(" at")
                                                                else msg, e.colno) if msg
                          else "not valid JSON")
    except RecursionError:
        # json's decoder recurses once per level; no record an export writes nests past 4.
        raise ValueError("not a record: JSON nested deeper than Python's recursion limit (%d)"
                         % sys.getrecursionlimit())
    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    return rec


def _check_renames(rename, seen, source):
    """A --rename of a table the input does not hold is a mistake (a misspelt name would
    otherwise import under the old name without a word)."""
    missing = sorted(old for old in rename if old not in seen)
    if missing:
        raise UserError("--rename %s: %s has no table %s (its tables: %s)"
                        % (", ".join("%s=%s" % (old, rename[old]) for old in missing),
                           source or "the input", ", ".join(missing),
                           ", ".join(sorted(seen)) or "none"))


def _import_numbered(client, numbered, create, rename, batch_cells, progress, source):
    """numbered: (line number, line or None if it is not UTF-8, bytes read so far or None, whether
    the line ended with a newline). Every mistake in the file is a UserError naming `source` (if
    given) and the line, after the cells of the lines before it are written, and saying how many
    went in."""
    importer = _Importer(client, batch_cells, create, progress or Progress("import", quiet=True))
    rename = rename or {}
    lineno, ended = 0, True
    try:
        for lineno, line, done, ended in numbered:
            importer.done_bytes = done
            if line is None:
                raise _ParseError("not UTF-8 text")
            fast = _split_cell_line(line)
            if fast is not None:
                importer.put_cell(*fast[:6],
                                  decode=importer.decode if fast[6] else importer.fast_decode)
                continue
            if not line.strip():
                continue
            rec = _json_record(line)
            kind = rec.get("kind")
            if kind is None:
                importer.cell(rec)
            elif kind == "namespace":
                importer.namespace(rec)
            elif kind == "table":
                importer.table_record(rec, rename)
            else:
                raise ValueError("unknown kind %s" % json.dumps(kind))
        importer.flush()
        _check_renames(rename, importer.tables_seen, source)
    except UserError:
        raise
    except (ValueError, T.TIOError, T.TIllegalArgument) as e:
        _stop(importer, source, lineno, e, cut=not ended and isinstance(e, _ParseError))
    if importer.done_bytes is not None:
        importer.progress.done_bytes = importer.done_bytes
    importer.progress.done()
    return importer.cells


def _stop(importer, source, lineno, error, cut):
    """Writes the cells queued from the lines before `lineno` (they are whole records), then
    raises the one-line UserError for `error`."""
    what = ("the server refused: %s" % cli.server_error(error)
            if isinstance(error, (T.TIOError, T.TIllegalArgument)) else str(error))
    if cut:
        what = "the input ends in the middle of this line (cut short?): " + what
    try:
        importer.flush()
    except ValueError as e:
        what += "; writing the lines before it failed too: %s" % e
    importer.progress.interrupt()
    raise UserError("%sline %d: %s; before it stopped: %s"
                    % (source + " " if source else "", lineno, what, importer.summary()))


def import_(client, lines, create=True, rename=None, batch_cells=5000, progress=None, source=None):
    """Reads an export (an iterable of lines) into the server behind `client`: creates missing
    namespaces and tables (existing ones are left as they are), then puts every cell with its
    timestamp. Returns the number of cells written; a mistake in the file is a UserError (a
    ValueError) naming its line."""
    numbered = ((n, line, None, True) for n, line in enumerate(lines, 1))
    return _import_numbered(client, numbered, create, rename, batch_cells, progress, source)


def _decoded_lines(f, name):
    for lineno, raw, done, ended in cli.read_lines(f, name, ends=True):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        yield lineno, text, done, ended


# ---- command line

def export_main(argv=None):
    return cli.run("hbase-emulator-export", _export_cli, argv)


def _export_cli(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    if seq_cli.wants_sequencefile(argv):
        return seq_cli.export_cli(argv)
    p = cli.Parser(prog="hbase-emulator-export",
                   description="Export HBase tables (schema and cells) as JSON Lines.")
    cli.add_connection_args(p)
    p.add_argument("--format", choices=seq_cli.FORMATS, default="jsonl",
                   help="jsonl (default) or sequencefile: HBase's Export format, a folder that "
                        "HBase's Import reads (see --format sequencefile --help)")
    p.add_argument("-o", "--output", default="-", help="file to write (default stdout)")
    p.add_argument("-t", "--table", action="append", help="table to export (repeatable; "
                   "default every user table)")
    p.add_argument("--schema", action="store_true",
                   help="write the schema only, as an hbase shell script (create_namespace and "
                        "create commands) that HBase's shell, hbase-shell and --init run")
    p.add_argument("--newest", action="store_true", help="only the newest version of each cell")
    p.add_argument("--schema-only", action="store_true", help="namespaces and tables, no cells")
    p.add_argument("--base64", action="store_true",
                   help="byte strings in base64 instead of HBase's printable form (\\xHH escapes)")
    p.add_argument("--batch-rows", type=cli.positive_int, default=1000, help="rows per scanner call")
    p.add_argument("--tsv", action="store_true",
                   help="one table (-t) as TSV for HBase's ImportTsv, and print the command that "
                        "loads it")
    p.add_argument("--separator", default="\t", help="with --tsv: one byte between columns (default tab)")
    args = p.parse_args(argv)
    if args.tsv:
        return _export_tsv(args)
    if args.schema:
        return _export_schema(args)
    client = cli.connect(args.host, args.port)
    try:
        # A failed export leaves no file behind (cli.output_file).
        with cli.output_file(args.output) as out:
            export(client, out, tables=args.table, max_versions=1 if args.newest else ALL_VERSIONS,
                   data=not args.schema_only, batch_rows=args.batch_rows,
                   progress=Progress("export", quiet=args.quiet),
                   encoding="base64" if args.base64 else "text")
    finally:
        client.close()
    return 0


def _export_schema(args):
    from . import schema_script

    if args.schema_only or args.base64 or args.newest:
        raise UserError("--schema writes a shell script of the schema only: no --schema-only, "
                        "--base64 or --newest", cli.USAGE_EXIT)

    def warn(message):
        sys.stderr.write("hbase-emulator-export: %s\n" % message)

    client = cli.connect(args.host, args.port)
    try:
        with cli.output_file(args.output) as out:
            namespaces, tables = schema_script.write_schema(
                client, out, args.table, warn, source="%s:%d" % (args.host, args.port))
    finally:
        client.close()
    if not args.quiet:
        sys.stderr.write("hbase-emulator-export: schema of %d namespace%s and %d table%s written\n"
                         % (namespaces, "" if namespaces == 1 else "s", tables,
                            "" if tables == 1 else "s"))
    return 0


def _input_is_sequencefile(argv):
    """-i/--input names a folder or a file starting as a SequenceFile does (not stdin)."""
    for i, arg in enumerate(argv):
        path = None
        if arg in ("-i", "--input") and i + 1 < len(argv):
            path = argv[i + 1]
        elif arg.startswith("--input="):
            path = arg.split("=", 1)[1]
        if path is not None and path != "-":
            return seq_import.looks_like_sequencefile(path)
    return False


def _export_tsv(args):
    from . import importtsv, tsv_export

    if not args.table or len(args.table) != 1:
        raise UserError("--tsv exports one table: give it with -t", cli.USAGE_EXIT)
    if args.schema_only or args.base64:
        raise UserError("--tsv holds cells only, as text: no --schema-only or --base64", cli.USAGE_EXIT)
    separator = importtsv.separator_byte(args.separator)
    table = args.table[0]
    client = cli.connect(args.host, args.port)
    try:
        with cli.output_file(args.output, binary=True) as out:
            columns, _, gaps, empty = tsv_export.export_tsv(
                client, out, table, separator, 1 if args.newest else ALL_VERSIONS, args.batch_rows,
                Progress("export", quiet=args.quiet))
    finally:
        client.close()
    for line in tsv_export.load_instructions(table, columns, separator, gaps, empty, args.output):
        sys.stderr.write("hbase-emulator-export: %s\n" % line if not line.startswith("  ") else line + "\n")
    return 0


def import_main(argv=None):
    return cli.run("hbase-emulator-import", _import_cli, argv)


def _import_cli(argv):
    argv = list(sys.argv[1:] if argv is None else argv)
    # --schema comes first whatever the format: the tables a SequenceFile import writes into
    # can then be made from the script.
    argv, schema_only = _schema_first(argv)
    if schema_only:
        return 0
    if seq_cli.wants_sequencefile(argv) or (
            "--format" not in argv and not any(a.startswith("--format=") for a in argv)
            and _input_is_sequencefile(argv)):
        return seq_cli.import_cli(argv)
    p = cli.Parser(prog="hbase-emulator-import",
                   description="Import a JSON Lines export (text or base64) into an HBase Thrift2 server.")
    cli.add_connection_args(p)
    p.add_argument("--format", choices=seq_cli.FORMATS, default="jsonl",
                   help="jsonl (default unless the input is a folder or starts as a SequenceFile) "
                        "or sequencefile: what HBase's Export wrote (see --format sequencefile --help)")
    p.add_argument("-i", "--input", default=None, help="file to read (default stdin; with "
                   "--schema and no -i, only the schema is applied)")
    p.add_argument("--schema", metavar="SCRIPT",
                   help="first create the namespaces and tables this hbase shell script (written "
                        "by hbase-emulator-export --schema) has and the server lacks")
    p.add_argument("--no-create", action="store_true",
                   help="do not create namespaces or tables; fail if a table is missing")
    p.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help="import table OLD into NEW (repeatable)")
    p.add_argument("--batch-cells", type=cli.positive_int, default=5000,
                   help="cells per putMultiple call")
    args = p.parse_args(argv)
    rename = {}
    for r in args.rename:
        old, sep, new = r.partition("=")
        if not sep or not old or not new:
            raise UserError("--rename wants OLD=NEW, not %r" % r, cli.USAGE_EXIT)
        rename[old] = new
    f, size, name = cli.open_input(args.input or "-")
    try:
        client = cli.connect(args.host, args.port)
        try:
            _import_numbered(client, _decoded_lines(f, name), create=not args.no_create,
                             rename=rename, batch_cells=args.batch_cells,
                             progress=Progress("import", quiet=args.quiet, total_bytes=size),
                             source=name)
        finally:
            client.close()
    finally:
        if args.input not in (None, "-"):
            f.close()
    return 0


def _schema_first(argv):
    """Applies `--schema SCRIPT` (if given) and returns (the other arguments, whether the command
    line held nothing else to do: no -i)."""
    for i, arg in enumerate(argv):
        if arg == "--schema" and i + 1 < len(argv):
            path, rest = argv[i + 1], argv[:i] + argv[i + 2:]
        elif arg.startswith("--schema="):
            path, rest = arg.split("=", 1)[1], argv[:i] + argv[i + 1:]
        else:
            continue
        p = cli.Parser(prog="hbase-emulator-import", add_help=False)
        cli.add_connection_args(p)
        p.add_argument("-i", "--input")
        args, _ = p.parse_known_args(rest)
        args.schema = path
        _import_schema(args)
        return rest, args.input is None
    return argv, False


def _import_schema(args):
    from . import schema_script

    try:
        with open(args.schema, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError("cannot read %s: %s" % (args.schema, getattr(e, "strerror", None) or e))
    commands = schema_script.read_schema(text, args.schema)
    client = cli.connect(args.host, args.port)
    try:
        namespaces, tables = schema_script.apply_schema(client, commands)
    finally:
        client.close()
    if not args.quiet:
        sys.stderr.write("hbase-emulator-import: %s: created %d namespace%s and %d table%s\n"
                         % (args.schema, namespaces, "" if namespaces == 1 else "s", tables,
                            "" if tables == 1 else "s"))
