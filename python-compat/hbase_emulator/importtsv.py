"""Load a TSV (or any one-byte-separated) file into a table, the way HBase's ImportTsv does.

    hbase-emulator-importtsv --columns HBASE_ROW_KEY,info:name,info:age users users.tsv
    hbase-emulator-importtsv -Dimporttsv.columns=HBASE_ROW_KEY,info:name,info:age users users.tsv

As in HBase: `--columns` names every column of the file in order, one of them HBASE_ROW_KEY and at
most one HBASE_TS_KEY (a cell timestamp per line); a name without `:` is a family with the empty
qualifier. The separator is one byte (tab by default). There is no quoting or escaping: every byte
between two separators is the value, as is. A line may have fewer columns than `--columns` (the
missing ones are not written) but not more, and an empty value is written as an empty cell. Every
cell of the file gets the `--timestamp` (default: the time the import starts) unless the line has
an HBASE_TS_KEY column.

HBase's own `-Dkey=value` spellings (also `-D key=value`) are taken as well (HBASE_PROPERTIES):
importtsv.columns, importtsv.separator, importtsv.timestamp, importtsv.skip.bad.lines,
importtsv.log.bad.lines, importtsv.skip.empty.columns, importtsv.dry.run, create.table and
no.strict; Hadoop job tuning (mapreduce.*) is accepted and has nothing to tune here.

Different from HBase on purpose: a bad line stops the import with its line number (HBase counts and
skips bad lines by default; `--skip-bad-lines` or -Dimporttsv.skip.bad.lines=true does that
here), empty lines are ignored, and a missing table is created with the families `--columns`
names (HBase 2.6.1 creates one only when it writes HFiles, importtsv.bulk.output);
`--no-create` or -Dcreate.table=no refuses instead.
"""

import difflib
import re
import sys
import time

from . import cli, thrift2
from .cli import UserError
from .progress import Progress

T = thrift2.ttypes
ROW_KEY = "HBASE_ROW_KEY"
TS_KEY = "HBASE_TS_KEY"
# HBase's other special columns need cell tags or operation attributes this tool does not write.
# What Java's Long.parseLong takes (HBase reads HBASE_TS_KEY with it).
_LONG = re.compile(r"[+-]?[0-9]+\Z")
UNSUPPORTED = ("HBASE_ATTRIBUTES_KEY", "HBASE_CELL_VISIBILITY", "HBASE_CELL_TTL")


class Columns:
    """A parsed `--columns` spec: for each file column, ROW_KEY, TS_KEY or (family, qualifier)."""

    def __init__(self, spec):
        names = [c.strip() for c in spec.split(",")]
        self.count = len(names)
        if names.count(ROW_KEY) != 1:
            raise UserError("--columns must name %s exactly once" % ROW_KEY, cli.USAGE_EXIT)
        if names.count(TS_KEY) > 1:
            raise UserError("--columns may name %s at most once" % TS_KEY, cli.USAGE_EXIT)
        self.row_index = names.index(ROW_KEY)
        self.ts_index = names.index(TS_KEY) if TS_KEY in names else None
        self.cells = []  # (file column index, family bytes, qualifier bytes)
        for i, name in enumerate(names):
            if name in (ROW_KEY, TS_KEY):
                continue
            if name in UNSUPPORTED:
                raise UserError("--columns: %s is not supported by this tool" % name, cli.USAGE_EXIT)
            family, _, qualifier = name.partition(":")
            if not family:
                raise UserError("--columns: column %d (%r) has no family" % (i + 1, name),
                                cli.USAGE_EXIT)
            self.cells.append((i, family.encode("utf-8"), qualifier.encode("utf-8")))
        if not self.cells:
            raise UserError("--columns must name a column besides %s and %s"
                            % (ROW_KEY, TS_KEY), cli.USAGE_EXIT)
        self.families = sorted({f for _, f, _ in self.cells})

    def parse(self, line, sep, default_ts):
        """(row, timestamp, [(family, qualifier, value)]) of one line; ValueError if it is bad
        (HBase's reasons: no separator, too many columns, no row key or timestamp)."""
        fields = line.split(sep)
        if len(fields) == 1:
            raise ValueError("no separator")
        if len(fields) > self.count:
            raise ValueError("%d columns, but --columns names %d" % (len(fields), self.count))
        if len(fields) <= self.row_index:
            raise ValueError("no row key (column %d)" % (self.row_index + 1))
        row = fields[self.row_index]
        if not row:
            raise ValueError("empty row key")
        ts = default_ts
        if self.ts_index is not None:
            if len(fields) <= self.ts_index:
                raise ValueError("no timestamp (column %d)" % (self.ts_index + 1))
            text = fields[self.ts_index].decode("utf-8", "replace")
            if not _LONG.match(text) or not -2**63 <= int(text) < 2**63:
                raise ValueError("invalid timestamp %r" % text)
            ts = int(text)
        cells = [(f, q, fields[i]) for i, f, q in self.cells if i < len(fields)]
        return row, ts, cells


def separator_byte(text):
    if text in ("\\t", "tab"):
        return b"\t"
    raw = text.encode("utf-8")
    if len(raw) != 1:
        raise UserError("--separator must be one byte, not %r" % text, cli.USAGE_EXIT)
    return raw


def prepare_table(client, name, columns, create, strict=True, dry_run=False):
    """Creates the table (families from --columns) or checks its families, as ImportTsv does.
    A dry run creates nothing: it only says whether the table would be created."""
    tname = thrift2.split_table_name(name)
    if not client.tableExists(tname):
        if not create:
            raise UserError("table %s does not exist (--no-create)" % name)
        if dry_run:
            return
        client.createTable(T.TTableDescriptor(
            tableName=tname, columns=[T.TColumnFamilyDescriptor(name=f) for f in columns.families]),
            None)
        return
    if not strict:
        return
    have = {c.name for c in client.getTableDescriptor(tname).columns or []}
    missing = [f.decode("utf-8", "replace") for f in columns.families if f not in have]
    if missing:
        raise UserError("table %s has no column family %s (it has: %s)"
                        % (name, ", ".join(missing),
                           ", ".join(sorted(f.decode("utf-8", "replace") for f in have)) or "none"))


def import_tsv(client, table, numbered, columns, separator=b"\t", timestamp=None,
               batch_rows=1000, progress=None, source=None, skip_bad_lines=False,
               dry_run=False, skip_empty_columns=False, bad_line_log=None):
    """Puts one row per line of `numbered` ((line number, bytes, bytes read so far or None)).
    Returns (cells written, or that would be with `dry_run`, bad lines skipped). `bad_line_log`:
    a text stream that gets one line per skipped bad line."""
    progress = progress or Progress("importtsv", quiet=True)
    ts = int(time.time() * 1000) if timestamp is None else timestamp
    where = (source + " ") if source else ""
    table_bytes = thrift2.table_name_bytes(table)
    puts, pending, cells, bad, lineno = [], 0, 0, 0, 0

    def stopped():
        return "; before it stopped: %d cell%s %s table %s" % (
            cells, "" if cells == 1 else "s", "checked for" if dry_run else "written to", table)

    def flush(done):
        try:
            if not dry_run:
                client.putMultiple(table_bytes, puts)
        except (T.TIOError, T.TIllegalArgument) as e:
            raise UserError("%sline %d: the server refused the rows up to here: %s%s"
                            % (where, lineno, cli.server_error(e), stopped()))
        progress.add(pending, table, done)

    for lineno, line, done in numbered:
        if not line:
            continue
        try:
            row, cell_ts, values = columns.parse(line, separator, ts)
        except ValueError as e:
            if skip_bad_lines:
                bad += 1
                if bad_line_log is not None:
                    bad_line_log.write("%sline %d: bad line skipped: %s\n" % (where, lineno, e))
                continue
            # The lines before it are whole rows: they go in, and the message says how many.
            if puts:
                flush(done)
                cells += pending
            progress.interrupt()
            raise UserError("%sline %d: %s%s" % (where, lineno, e, stopped()))
        if skip_empty_columns:
            values = [(f, q, v) for f, q, v in values if v]
        if not values:
            continue
        puts.append(T.TPut(row=row, columnValues=[
            T.TColumnValue(family=f, qualifier=q, value=v, timestamp=cell_ts) for f, q, v in values]))
        pending += len(values)
        if len(puts) >= batch_rows:
            flush(done)
            cells += pending
            puts, pending = [], 0
    if puts:
        flush(None)
        cells += pending
    progress.done_bytes = progress.total_bytes or 0
    progress.done()
    return cells, bad


# HBase's -D properties this tool reads, and what each sets (a flag of its own command line).
HBASE_PROPERTIES = {
    "importtsv.columns": "--columns",
    "importtsv.separator": "--separator",
    "importtsv.timestamp": "--timestamp",
    "importtsv.skip.bad.lines": "--skip-bad-lines",
    "importtsv.log.bad.lines": "--log-bad-lines",
    "importtsv.skip.empty.columns": "--skip-empty-columns",
    "importtsv.dry.run": "--dry-run",
    "create.table": "--no-create",
    "no.strict": "--no-strict",
}
# Properties of HBase's ImportTsv a Thrift client cannot honour.
UNSUPPORTED_PROPERTIES = {
    "importtsv.bulk.output": "it writes HFiles for a bulk load; this tool writes through Thrift",
    "importtsv.mapper.class": "a Java mapper class cannot run here",
}


def _hadoop_bool(key, value):
    """Hadoop's Configuration.getBoolean: "true" or "false", any case."""
    if value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise UserError("-D%s=%s: give true or false" % (key, value), cli.USAGE_EXIT)


def split_properties(argv):
    """(argv without the -D options, {key: value}) for HBase's `-Dkey=value` and `-D key=value`."""
    rest, props = [], {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "-D":
            if i + 1 == len(argv):
                raise UserError("-D needs key=value", cli.USAGE_EXIT)
            arg, i = "-D" + argv[i + 1], i + 1
        if arg.startswith("-D"):
            key, sep, value = arg[2:].partition("=")
            if not sep or not key:
                raise UserError("-D wants key=value, not %r" % arg, cli.USAGE_EXIT)
            props[key] = value
        else:
            rest.append(arg)
        i += 1
    return rest, props


def apply_properties(args, props, warn):
    """Sets `args` (parsed flags) from HBase's properties; `warn(text)` for ones with no effect."""
    for key, value in props.items():
        if key in UNSUPPORTED_PROPERTIES:
            raise UserError("-D%s is not supported: %s" % (key, UNSUPPORTED_PROPERTIES[key]),
                            cli.USAGE_EXIT)
        if key.startswith("mapreduce.") or key.startswith("mapred."):
            warn("-D%s has nothing to tune here (no MapReduce job); ignored" % key)
            continue
        if key not in HBASE_PROPERTIES:
            close = difflib.get_close_matches(key, HBASE_PROPERTIES, n=1)
            raise UserError("-D%s is not a property ImportTsv reads here (%s)"
                            % (key, "did you mean %s?" % close[0] if close else
                               "known: " + ", ".join(sorted(HBASE_PROPERTIES))), cli.USAGE_EXIT)
        if key == "importtsv.columns":
            args.columns = value
        elif key == "importtsv.separator":
            args.separator = value
        elif key == "importtsv.timestamp":
            try:
                args.timestamp = int(value)
            except ValueError:
                raise UserError("-D%s=%s: give a timestamp in ms" % (key, value), cli.USAGE_EXIT)
        elif key == "create.table":
            # HBase creates the table unless the value is "no" (its own test of the property).
            args.no_create = value.strip().lower() == "no"
        elif key == "no.strict":
            args.no_strict = _hadoop_bool(key, value)
        else:
            setattr(args, HBASE_PROPERTIES[key][2:].replace("-", "_"), _hadoop_bool(key, value))


def main(argv=None):
    return cli.run("hbase-emulator-importtsv", _cli, argv)


def _cli(argv):
    argv, props = split_properties(list(sys.argv[1:] if argv is None else argv))
    p = cli.Parser(prog="hbase-emulator-importtsv",
                   description="Load a TSV file into a table, as HBase's ImportTsv does "
                               "(no quoting: every byte between separators is the value). "
                               "HBase's -Dimporttsv.columns=... spellings work too.")
    cli.add_connection_args(p)
    p.add_argument("table", help="table to write (ns:name or name)")
    p.add_argument("input", help="file to read, - for stdin")
    p.add_argument("--columns", metavar="SPEC",
                   help="the file's columns in order, e.g. HBASE_ROW_KEY,cf:a,cf:b "
                        "(HBASE_TS_KEY: a timestamp column); or -Dimporttsv.columns=SPEC")
    p.add_argument("--separator", default="\t", help="one byte between columns (default tab)")
    p.add_argument("--timestamp", type=int, help="timestamp of every cell (default: now, in ms)")
    p.add_argument("--no-create", action="store_true", help="fail if the table does not exist")
    p.add_argument("--no-strict", action="store_true",
                   help="do not check that the table has the families --columns names")
    p.add_argument("--skip-bad-lines", action="store_true",
                   help="skip and count bad lines, as HBase does, instead of stopping at the first")
    p.add_argument("--log-bad-lines", action="store_true", help="name each skipped line on stderr")
    p.add_argument("--skip-empty-columns", action="store_true", help="write no cell for an empty value")
    p.add_argument("--dry-run", action="store_true",
                   help="read and check every line, write nothing (and create no table)")
    p.add_argument("--batch-rows", type=cli.positive_int, default=1000, help="rows per putMultiple call")
    args = p.parse_args(argv)
    apply_properties(args, props, lambda text: sys.stderr.write("hbase-emulator-importtsv: %s\n" % text))
    if not args.columns:
        raise UserError("give the file's columns: --columns SPEC or -Dimporttsv.columns=SPEC "
                        "(see --help)", cli.USAGE_EXIT)
    if args.timestamp is not None and not -2 ** 63 <= args.timestamp < 2 ** 63:
        raise UserError("the timestamp %d (--timestamp or importtsv.timestamp) is out of "
                        "range (a signed 64-bit integer, in ms)"
                        % args.timestamp, cli.USAGE_EXIT)
    columns = Columns(args.columns)
    sep = separator_byte(args.separator)
    f, size, name = cli.open_input(args.input)
    try:
        client = cli.connect(args.host, args.port)
        try:
            prepare_table(client, args.table, columns, not args.no_create,
                          strict=not args.no_strict, dry_run=args.dry_run)
            cells, bad = import_tsv(client, args.table, cli.read_lines(f, name), columns, sep,
                                    args.timestamp, args.batch_rows,
                                    Progress("importtsv", quiet=args.quiet, total_bytes=size),
                                    source=name, skip_bad_lines=args.skip_bad_lines,
                                    dry_run=args.dry_run, skip_empty_columns=args.skip_empty_columns,
                                    bad_line_log=sys.stderr if args.log_bad_lines else None)
        finally:
            client.close()
    finally:
        if args.input != "-":
            f.close()
    if bad:
        sys.stderr.write("hbase-emulator-importtsv: skipped %d bad line%s\n" % (bad, "s" if bad > 1 else ""))
    if args.dry_run:
        sys.stderr.write("hbase-emulator-importtsv: dry run: %d cell%s checked, nothing written\n"
                         % (cells, "" if cells == 1 else "s"))
    return 0
