"""Load a TSV (or any one-byte-separated) file into a table, the way HBase's ImportTsv does.

    hbase-emulator-importtsv --columns HBASE_ROW_KEY,info:name,info:age users users.tsv

As in HBase: `--columns` names every column of the file in order, one of them HBASE_ROW_KEY and at
most one HBASE_TS_KEY (a cell timestamp per line); a name without `:` is a family with the empty
qualifier. The separator is one byte (tab by default). There is no quoting or escaping: every byte
between two separators is the value, as is. A line may have fewer columns than `--columns` (the
missing ones are not written) but not more, and an empty value is written as an empty cell. Every
cell of the file gets the `--timestamp` (default: the time the import starts) unless the line has
an HBASE_TS_KEY column. A missing table is created with the families `--columns` names (HBase's
`create.table`, on by default); `--no-create` refuses instead.

Different from HBase on purpose: a bad line stops the import with its line number (HBase counts and
skips bad lines by default; `--skip-bad-lines` does that here), and empty lines are ignored.
"""

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


def prepare_table(client, name, columns, create):
    """Creates the table (families from --columns) or checks its families, as ImportTsv does."""
    tname = thrift2.split_table_name(name)
    if not client.tableExists(tname):
        if not create:
            raise UserError("table %s does not exist (--no-create)" % name)
        client.createTable(T.TTableDescriptor(
            tableName=tname, columns=[T.TColumnFamilyDescriptor(name=f) for f in columns.families]),
            None)
        return
    have = {c.name for c in client.getTableDescriptor(tname).columns or []}
    missing = [f.decode("utf-8", "replace") for f in columns.families if f not in have]
    if missing:
        raise UserError("table %s has no column family %s (it has: %s)"
                        % (name, ", ".join(missing),
                           ", ".join(sorted(f.decode("utf-8", "replace") for f in have)) or "none"))


def import_tsv(client, table, numbered, columns, separator=b"\t", timestamp=None,
               batch_rows=1000, progress=None, source=None, skip_bad_lines=False):
    """Puts one row per line of `numbered` ((line number, bytes, bytes read so far or None)).
    Returns (cells written, bad lines skipped)."""
    progress = progress or Progress("importtsv", quiet=True)
    ts = int(time.time() * 1000) if timestamp is None else timestamp
    where = (source + " ") if source else ""
    table_bytes = thrift2.table_name_bytes(table)
    puts, pending, cells, bad, lineno = [], 0, 0, 0, 0

    def flush(done):
        try:
            client.putMultiple(table_bytes, puts)
        except (T.TIOError, T.TIllegalArgument) as e:
            raise UserError("%sline %d: the server refused the rows up to here: %s"
                            % (where, lineno, cli.server_error(e)))
        progress.add(pending, table, done)

    for lineno, line, done in numbered:
        if not line:
            continue
        try:
            row, cell_ts, values = columns.parse(line, separator, ts)
        except ValueError as e:
            if skip_bad_lines:
                bad += 1
                continue
            raise UserError("%sline %d: %s" % (where, lineno, e))
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


def main(argv=None):
    return cli.run("hbase-emulator-importtsv", _cli, argv)


def _cli(argv):
    p = cli.Parser(prog="hbase-emulator-importtsv",
                   description="Load a TSV file into a table, as HBase's ImportTsv does "
                               "(no quoting: every byte between separators is the value).")
    cli.add_connection_args(p)
    p.add_argument("table", help="table to write (ns:name or name)")
    p.add_argument("input", help="file to read, - for stdin")
    p.add_argument("--columns", required=True, metavar="SPEC",
                   help="the file's columns in order, e.g. HBASE_ROW_KEY,cf:a,cf:b "
                        "(HBASE_TS_KEY: a timestamp column)")
    p.add_argument("--separator", default="\t", help="one byte between columns (default tab)")
    p.add_argument("--timestamp", type=int, help="timestamp of every cell (default: now, in ms)")
    p.add_argument("--no-create", action="store_true", help="fail if the table does not exist")
    p.add_argument("--skip-bad-lines", action="store_true",
                   help="skip and count bad lines, as HBase does, instead of stopping at the first")
    p.add_argument("--batch-rows", type=cli.positive_int, default=1000, help="rows per putMultiple call")
    args = p.parse_args(argv)
    columns = Columns(args.columns)
    sep = separator_byte(args.separator)
    f, size, name = cli.open_input(args.input)
    try:
        client = cli.connect(args.host, args.port)
        try:
            prepare_table(client, args.table, columns, not args.no_create)
            _, bad = import_tsv(client, args.table, cli.read_lines(f, name), columns, sep,
                                args.timestamp, args.batch_rows,
                                Progress("importtsv", quiet=args.quiet, total_bytes=size),
                                source=name, skip_bad_lines=args.skip_bad_lines)
        finally:
            client.close()
    finally:
        if args.input != "-":
            f.close()
    if bad:
        sys.stderr.write("hbase-emulator-importtsv: skipped %d bad line%s\n" % (bad, "s" if bad > 1 else ""))
    return 0
