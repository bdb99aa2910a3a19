"""Export tables as HBase's Export MapReduce job writes them: folders that HBase's Import reads.

    hbase-emulator-export --format sequencefile -t users -o users-export

A table's folder holds `part-m-00000`, `part-m-00001`, ... (Hadoop SequenceFiles of
ImmutableBytesWritable row keys and Result values, one record per row, cells in HBase's order)
and an empty `_SUCCESS`, as Export leaves them. A part file ends once it passes --part-size;
Export writes one per region instead, and Import reads any number.

The cells are read through Thrift2, so any HBase Thrift2 gateway can be exported. As Export,
only the newest version of each cell is written unless --versions says more. Delete markers
(--include-deleted, Export's -Dhbase.mapreduce.include.deleted.rows=true) come from the
emulator's admin API (admin_markers), merged into each row's Result; unlike Export's raw scan,
puts that a marker hides are not written (a Thrift scan does not return them), so after HBase's
Import the table reads the same but holds fewer hidden cells.

The output folder must not exist (Hadoop refuses to overwrite one too); it is written under a
temporary name beside it and renamed at the end, so a failed export leaves no folder.
"""

import os
import re
import shutil
import tempfile

from . import bytes_text, cli, hbase_result, sequencefile, thrift2
from .cli import UserError
from .progress import Progress

T = thrift2.ttypes
ALL_VERSIONS = 2147483647
MAX_TIME = 2 ** 63 - 1
DEFAULT_PART_BYTES = 256 << 20


class Options:
    """What to export, as Export's arguments and -D properties say it."""

    def __init__(self, versions=1, start_time=0, end_time=MAX_TIME, start_row=b"", stop_row=b"",
                 prefix=b"", regex=None, families=(), include_deleted=False, compression="none",
                 codec=sequencefile.DEFAULT_CODEC, part_bytes=DEFAULT_PART_BYTES, batch_rows=1000):
        self.versions, self.start_time, self.end_time = versions, start_time, end_time
        self.start_row, self.stop_row, self.prefix, self.regex = start_row, stop_row, prefix, regex
        self.families = [f for f in families if f]
        self.include_deleted = include_deleted
        self.compression, self.codec = compression, codec
        self.part_bytes, self.batch_rows = part_bytes, batch_rows

    def row_range(self):
        """[start, stop) of the rows wanted (stop b"": to the end): the row range and the
        prefix's range together."""
        start, stop = self.start_row, self.stop_row
        if self.prefix:
            start = max(start, self.prefix)
            end = _prefix_end(self.prefix)
            if end and (not stop or end < stop):
                stop = end
        return start, stop

    def scan(self):
        start, stop = self.row_range()
        scan = T.TScan(startRow=start or None, stopRow=stop or None, maxVersions=self.versions,
                       caching=self.batch_rows)
        if self.start_time != 0 or self.end_time != MAX_TIME:
            scan.timeRange = T.TTimeRange(minStamp=self.start_time, maxStamp=self.end_time)
        if self.families:
            scan.columns = [T.TColumn(family=f) for f in self.families]
        if self.regex is not None:
            # HBase's filter language quotes a ' by doubling it.
            scan.filterString = (b"RowFilter(=, 'regexstring:" + self.regex.encode("utf-8")
                                 .replace(b"'", b"''") + b"')")
        return scan

    def wants_marker(self, cell, start, stop, regex):
        row, family, _, ts = cell[:4]
        return ((not self.families or family in self.families)
                and self.start_time <= ts < self.end_time
                and row >= start and (not stop or row < stop)
                and (regex is None or regex.search(row.decode("latin-1")) is not None))


def _prefix_end(prefix):
    """The first row after every row starting with `prefix` (b"" if there is none)."""
    p = prefix.rstrip(b"\xff")
    return p[:-1] + bytes([p[-1] + 1]) if p else b""


def _order(cell):
    # HBase's cell order within a row: family, qualifier, newest first, and at one timestamp
    # the higher type code first (DeleteFamily, DeleteColumn, DeleteFamilyVersion, Delete, Put).
    return cell[1], cell[2], -cell[3], -cell[4]


def _thrift_rows(client, table, scan, batch_rows):
    for r in thrift2.scan_results(client, table, scan, batch_rows):
        yield r.row, [(r.row, cv.family, cv.qualifier, cv.timestamp,
                       cv.type if cv.type else hbase_result.PUT, cv.value)
                      for cv in r.columnValues]


def _merged(puts, markers):
    """Rows of two row-ordered streams, a row in both once with its cells in HBase's order."""
    p, m = next(puts, None), next(markers, None)
    while p is not None or m is not None:
        if m is None or (p is not None and p[0] < m[0]):
            yield p
            p = next(puts, None)
        elif p is None or m[0] < p[0]:
            yield m
            m = next(markers, None)
        else:
            yield p[0], sorted(p[1] + m[1], key=_order)
            p, m = next(puts, None), next(markers, None)


class _Parts:
    """The part files of one table's folder."""

    def __init__(self, folder, options):
        self.folder, self.options = folder, options
        self.index, self.file, self.writer = 0, None, None

    def _open(self):
        self.file = open(os.path.join(self.folder, "part-m-%05d" % self.index), "wb")
        self.writer = sequencefile.Writer(self.file, hbase_result.KEY_CLASS,
                                          hbase_result.VALUE_CLASS, self.options.compression,
                                          self.options.codec)
        self.index += 1

    def append(self, row, cells):
        if self.writer is None:
            self._open()
        self.writer.append(hbase_result.encode_key(row), hbase_result.encode_result(cells))
        if self.writer.size_estimate >= self.options.part_bytes:
            self.close()

    def close(self):
        if self.writer is None:
            return
        self.writer.close()
        self.file.close()
        self.writer = self.file = None

    def finish(self):
        if self.index == 0:
            self._open()  # an empty table still gets part-m-00000, as Export's single task writes
        self.close()
        open(os.path.join(self.folder, "_SUCCESS"), "wb").close()


def _export_table(client, name, folder, options, markers, progress, where):
    table = thrift2.table_name_bytes(name)
    rows = _thrift_rows(client, table, options.scan(), options.batch_rows)
    if markers is not None:
        start, stop = options.row_range()
        regex = re.compile(options.regex, re.DOTALL) if options.regex is not None else None
        wanted = ((row, kept) for row, kept in
                  ((row, [c for c in cells if options.wants_marker(c, start, stop, regex)])
                   for row, cells in markers.rows(name)) if kept)
        rows = _merged(rows, wanted)
    parts = _Parts(folder, options)
    progress.add(0, name, where=where)
    count = 0
    try:
        for row, cells in rows:
            parts.append(row, cells)
            count += len(cells)
            if count >= 5000:
                progress.add(count, name, where=where)
                count = 0
        parts.finish()
    finally:
        parts.close()
    progress.add(count, name, where=where)


def table_folder(out_dir, name, several):
    """Where a table's files go: DIR itself for one table, DIR/<namespace>/<table> for several
    (Hadoop paths cannot hold the ':' of ns:table)."""
    if not several:
        return out_dir
    tname = thrift2.split_table_name(name)
    return os.path.join(out_dir, (tname.ns or b"default").decode("utf-8"),
                        tname.qualifier.decode("utf-8"))


def export(client, out_dir, tables, options, markers=None, progress=None):
    """Writes the tables' folders under `out_dir` (which must not exist). Returns the number of
    cells written. `tables` None or empty: every user table, each in its own folder."""
    progress = progress or Progress("export", quiet=True)
    if os.path.lexists(out_dir):
        raise UserError("%s exists already (HBase's Export will not write into an existing "
                        "folder either); remove it or name another" % out_dir)
    parent = os.path.dirname(os.path.abspath(out_dir))
    if tables:
        names = list(tables)
        for name in names:
            if not client.tableExists(thrift2.split_table_name(name)):
                raise UserError("table %s does not exist" % name)
    else:
        names = [thrift2.full_table_name(t) for t in client.getTableNamesByPattern(".*", False)
                 if (t.ns or b"default") != b"hbase"]
    several = not tables or len(names) > 1
    try:
        work = tempfile.mkdtemp(prefix="." + os.path.basename(os.path.abspath(out_dir)) + ".",
                                suffix=".partial", dir=parent)
    except OSError as e:
        raise UserError("cannot write %s: %s" % (out_dir, e.strerror or e))
    try:
        os.chmod(work, 0o777 & ~_umask())
        for i, name in enumerate(names, 1):
            folder = table_folder(work, name, several)
            os.makedirs(folder, exist_ok=True)
            where = "table %d of %d" % (i, len(names)) if len(names) > 1 else ""
            _export_table(client, name, folder, options, markers, progress, where)
        os.rename(work, out_dir)
    except OSError as e:
        shutil.rmtree(work, ignore_errors=True)
        if e.filename is None:
            raise  # not a file: a connection (cli.run reports it)
        raise UserError("cannot write %s: %s" % (out_dir, e.strerror or e))
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    progress.done()
    return progress.cells


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def row_bytes(text, what):
    """Row bytes from HBase's printable form (Bytes.toBytesBinary: \\xHH escapes)."""
    try:
        return bytes_text.to_bytes_binary(text)
    except ValueError as e:
        raise UserError("%s: %s" % (what, e), cli.USAGE_EXIT)
