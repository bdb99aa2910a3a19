"""Export one table as TSV that HBase's ImportTsv loads back, and say how.

    hbase-emulator-export --tsv -t users -o users.tsv

The file has one line per row and timestamp: the row key, the timestamp (HBASE_TS_KEY), then
one column per family:qualifier the table holds (sorted), empty where that row has no cell at
that timestamp. ImportTsv has no quoting, so a row key or value holding the separator, a newline
or a carriage return cannot be written (a UserError names the row and column); neither can a
qualifier that is not UTF-8 text, holds a comma or starts or ends with a space (ImportTsv's
column list is text split at commas and trimmed).

When some line has columns it leaves empty, the command printed asks ImportTsv to skip empty
columns (-Dimporttsv.skip.empty.columns=true), since an empty field would otherwise be loaded
as an empty cell; a cell whose value really is empty is then not loaded, and the tool says how
many there are.
"""

import os
import shlex

from . import bytes_text, cli, thrift2
from .cli import UserError

T = thrift2.ttypes
ALL_VERSIONS = 2147483647


def _column_name(family, qualifier):
    """ImportTsv's name for a column: "family:qualifier", or "family" for the empty qualifier."""
    try:
        f, q = family.decode("utf-8"), qualifier.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError("column %s:%s is not UTF-8 text, which ImportTsv's column list needs"
                        % (bytes_text.to_string_binary(family), bytes_text.to_string_binary(qualifier)))
    name = "%s:%s" % (f, q) if q else f
    if "," in q or q != q.strip():
        raise UserError("column %r cannot be named in ImportTsv's comma-separated, trimmed "
                        "column list" % name)
    return name


def _columns(client, table, batch_rows):
    """Every (family, qualifier) the table holds, sorted: a keys-only pass over it."""
    seen = set()
    scan = T.TScan(maxVersions=ALL_VERSIONS, caching=batch_rows, filterString=b"KeyOnlyFilter()")
    for result in thrift2.scan_results(client, table, scan, batch_rows):
        for cv in result.columnValues:
            seen.add((cv.family, cv.qualifier))
    return sorted(seen)


def export_tsv(client, out, name, separator=b"\t", max_versions=ALL_VERSIONS, batch_rows=1000,
               progress=None):
    """Writes table `name` to the binary stream `out`. Returns (column names for ImportTsv,
    cells written, whether some line leaves a column empty, cells with an empty value)."""
    tname = thrift2.split_table_name(name)
    if not client.tableExists(tname):
        raise UserError("table %s does not exist" % name)
    table = thrift2.table_name_bytes(name)
    columns = _columns(client, table, batch_rows)
    names = [_column_name(f, q) for f, q in columns]
    index = {c: i for i, c in enumerate(columns)}
    forbidden = (separator, b"\n", b"\r")
    cells = gaps = empty_values = 0

    def check(data, what, row):
        for bad in forbidden:
            if bad in data:
                raise UserError("table %s, row %s: the %s holds %s, which a TSV line cannot carry "
                                "(ImportTsv has no quoting)%s"
                                % (name, bytes_text.to_string_binary(row), what,
                                   {b"\n": "a newline", b"\r": "a carriage return"}.get(
                                       bad, "the separator %s" % bytes_text.to_string_binary(bad)),
                                   "; try another --separator" if bad == separator else ""))

    scan = T.TScan(maxVersions=max_versions, caching=batch_rows)
    for result in thrift2.scan_results(client, table, scan, batch_rows):
        row = result.row
        check(row, "row key", row)
        by_ts = {}
        for cv in result.columnValues:
            fields = by_ts.setdefault(cv.timestamp, [None] * len(columns))
            column = index[(cv.family, cv.qualifier)]
            check(cv.value, "value of %s" % names[column], row)
            fields[column] = cv.value
        lines = []
        for ts in sorted(by_ts, reverse=True):
            fields = by_ts[ts]
            present = [v for v in fields if v is not None]
            cells += len(present)
            empty_values += sum(1 for v in present if not v)
            if len(present) < len(fields):
                gaps += 1
            lines.append(separator.join([row, str(ts).encode()] +
                                        [v if v is not None else b"" for v in fields]) + b"\n")
        out.write(b"".join(lines))
        if progress is not None:
            progress.add(sum(1 for f in by_ts.values() for v in f if v is not None), name)
    if progress is not None:
        progress.done()
    return ["HBASE_ROW_KEY", "HBASE_TS_KEY"] + names, cells, gaps > 0, empty_values


def _shell_word(text):
    """A shell word for `text`; control bytes as bash's $'\\xNN'."""
    if all(0x20 <= ord(ch) < 0x7f for ch in text):
        return shlex.quote(text)
    return "$'" + "".join(ch if 0x20 <= ord(ch) < 0x7f and ch not in "'\\" else "\\x%02x" % ord(ch)
                          for ch in text) + "'"


def importtsv_command(table, columns, separator, skip_empty, path):
    """The argument list of HBase's ImportTsv that loads the file (after the program name)."""
    args = ["-Dimporttsv.columns=" + ",".join(columns)]
    if separator != b"\t":
        args.append("-Dimporttsv.separator=" + separator.decode("latin-1"))
    if skip_empty:
        args.append("-Dimporttsv.skip.empty.columns=true")
    return args + [table, path]


def load_instructions(table, columns, separator, skip_empty, empty_values, output):
    """The lines printed after a TSV export: HBase's command, and this package's own."""
    families = sorted({c.split(":")[0] for c in columns[2:]})
    where = ("file://" + os.path.abspath(output)) if output != "-" else "FILE"
    args = importtsv_command(table, columns, separator, skip_empty, where)
    local = importtsv_command(table, columns, separator, skip_empty,
                              output if output != "-" else "FILE")
    lines = ["to load it with HBase's ImportTsv (table %s must exist, with famil%s %s; on a "
             "cluster give the file's HDFS path):" % (table, "y" if len(families) == 1 else "ies",
                                                      ", ".join(families) or "-"),
             "  hbase org.apache.hadoop.hbase.mapreduce.ImportTsv " + " ".join(_shell_word(a) for a in args),
             "or into an emulator: hbase-emulator-importtsv " + " ".join(_shell_word(a) for a in local)]
    if skip_empty and empty_values:
        lines.append("note: %d cell%s with an empty value will not be loaded: the command skips "
                     "empty columns, and a TSV field cannot tell an empty value from no cell"
                     % (empty_values, "" if empty_values == 1 else "s"))
    return lines
