"""Import what HBase's Export job wrote (a folder of SequenceFiles, or one file) into a table.

    hbase-emulator-import --format sequencefile -t users -i users-export

Every file of the folder whose name does not start with `_` or `.` is read (Hadoop's `_SUCCESS`
and `.crc` files are not data), in name order: uncompressed, record- or block-compressed with
DefaultCodec (zlib) or GzipCodec. Each record is one row: its cells are written as HBase's Import
writes them, the puts first (through putMultiple, with their own timestamps), then a delete
built from the row's delete markers (one TDelete per marker kind: Delete, DeleteColumn,
DeleteFamily, DeleteFamilyVersion, each at its marker's timestamp).

The table must exist (as for HBase's Import); `create_table` is the hook that makes it when the
caller has a schema for it. A malformed or truncated file stops the import after the rows of the
whole records before the fault are written, with one line naming the file and the byte offset.
"""

import os

from . import cli, hbase_result, sequencefile, thrift2
from .cli import UserError
from .progress import Progress

T = thrift2.ttypes
_DELETE_TYPES = {
    hbase_result.DELETE: T.TDeleteType.DELETE_COLUMN,
    hbase_result.DELETE_COLUMN: T.TDeleteType.DELETE_COLUMNS,
    hbase_result.DELETE_FAMILY: T.TDeleteType.DELETE_FAMILY,
    hbase_result.DELETE_FAMILY_VERSION: T.TDeleteType.DELETE_FAMILY_VERSION,
}


def input_files(path):
    """The data files of an Export folder (or [path] for a file), in name order."""
    if os.path.isdir(path):
        try:
            names = sorted(n for n in os.listdir(path) if not n.startswith(("_", ".")))
        except OSError as e:
            raise UserError("cannot read %s: %s" % (path, e.strerror or e))
        files = [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]
        if not files:
            raise UserError("%s holds no data files (an Export folder holds part-m-NNNNN files)" % path)
        return files
    if not os.path.exists(path):
        raise UserError("cannot read %s: no such file or folder" % path)
    return [path]


def looks_like_sequencefile(path):
    """Whether `path` is a folder or a file that starts as a SequenceFile does (b"SEQ")."""
    if os.path.isdir(path):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(3) == sequencefile.MAGIC
    except OSError:
        return False


class _Writer:
    """Rows queued for the table, written in batches: puts, then the deletes of the same rows."""

    def __init__(self, client, table, batch_cells, durability, progress):
        self.client, self.table, self.batch_cells = client, table, batch_cells
        self.durability, self.progress = durability, progress
        self.name = table.decode("utf-8", "replace")
        self.puts, self.deletes, self.pending_cells, self.pending_markers = [], [], 0, 0
        self.cells = self.markers = 0
        self.done_bytes = 0

    def row(self, row, cells):
        values, markers = [], {}
        for c in cells:
            if c[0] != row:
                raise hbase_result.FormatError("a cell of row %r in the record of row %r"
                                               % (c[0], row))
            if c[4] == hbase_result.PUT:
                values.append(T.TColumnValue(family=c[1], qualifier=c[2], value=c[5],
                                             timestamp=c[3]))
            else:
                column = (T.TColumn(family=c[1], timestamp=c[3])
                          if c[4] in (hbase_result.DELETE_FAMILY, hbase_result.DELETE_FAMILY_VERSION)
                          else T.TColumn(family=c[1], qualifier=c[2], timestamp=c[3]))
                markers.setdefault(c[4], []).append(column)
        if values:
            self.puts.append(T.TPut(row=row, columnValues=values, durability=self.durability))
        for kind, columns in sorted(markers.items()):
            self.deletes.append(T.TDelete(row=row, columns=columns, deleteType=_DELETE_TYPES[kind],
                                          durability=self.durability))
        self.pending_cells += len(values)
        self.pending_markers += len(cells) - len(values)
        if self.pending_cells + self.pending_markers >= self.batch_cells:
            self.flush()

    def flush(self):
        puts, deletes = self.puts, self.deletes
        cells, markers = self.pending_cells, self.pending_markers
        # Cleared first: a batch the server refused is not sent again by the flush at a stop.
        self.puts, self.deletes, self.pending_cells, self.pending_markers = [], [], 0, 0
        try:
            if puts:
                self.client.putMultiple(self.table, puts)
            self.cells += cells
            if deletes:
                left = self.client.deleteMultiple(self.table, deletes)
                if left:
                    raise UserError("the server did not apply %d of %d deletes"
                                    % (len(left), len(deletes)))
            self.markers += markers
        except (T.TIOError, T.TIllegalArgument) as e:
            raise UserError("the server refused the rows up to here: %s" % cli.server_error(e))
        self.progress.add(cells + markers, self.name, self.done_bytes)

    def summary(self):
        return "%d cell%s and %d delete marker%s written to table %s" % (
            self.cells, "" if self.cells == 1 else "s", self.markers,
            "" if self.markers == 1 else "s", self.name)


def _check_classes(reader, path):
    h = reader.header
    # Offsets of the two class names: after b"SEQ", the version byte and (for the value's) the
    # key's name with its one-byte length.
    value_at = 4 + 1 + len(h.key_class.encode("utf-8"))
    for what, have, want, at in (("key", h.key_class, hbase_result.KEY_CLASS, 4),
                                 ("value", h.value_class, hbase_result.VALUE_CLASS, value_at)):
        if have != want:
            raise sequencefile.SequenceFileError(
                path, at, "its %s class is %s, not %s: not a file HBase's Export wrote"
                % (what, have, want))


def import_sequencefiles(client, table, path, batch_cells=5000, durability=None, progress=None,
                         create_table=None):
    """Reads the Export folder (or file) `path` into `table`. Returns (cells, markers) written.
    A malformed file is a UserError naming it and the byte offset, raised after the rows of the
    records before it are written."""
    files = input_files(path)
    tname = thrift2.split_table_name(table)
    if not client.tableExists(tname):
        if create_table is None:
            raise UserError("table %s does not exist; create it with the exported table's "
                            "families first (HBase's Import needs that too)" % table)
        create_table(client, tname)
    sizes = [os.path.getsize(f) for f in files]
    progress = progress or Progress("import", quiet=True)
    progress.total_bytes = sum(sizes)
    writer = _Writer(client, thrift2.table_name_bytes(table), batch_cells, durability, progress)
    progress.add(0, writer.name, 0)
    before = 0
    for name, size in zip(files, sizes):
        try:
            with open(name, "rb") as f:
                reader = sequencefile.Reader(f, name)
                _check_classes(reader, name)
                offset = 0
                for key, value, offset in reader.records():
                    writer.done_bytes = before + offset
                    try:
                        writer.row(hbase_result.decode_key(key), hbase_result.decode_result(value))
                    except hbase_result.FormatError as e:
                        raise sequencefile.SequenceFileError(name, offset, str(e))
        except sequencefile.SequenceFileError as e:
            _stop(writer, str(e))
        except OSError as e:
            _stop(writer, "cannot read %s: %s" % (name, e.strerror or e))
        except UserError as e:
            _stop(writer, "%s at byte %d: %s" % (name, offset, e))
        before += size
    writer.done_bytes = before
    try:
        writer.flush()
    except UserError as e:
        raise UserError("%s; before it stopped: %s" % (e, writer.summary()))
    progress.done_bytes = progress.total_bytes
    progress.done()
    return writer.cells, writer.markers


def _stop(writer, what):
    """Writes the rows of the whole records read before the fault, then raises the one line."""
    try:
        writer.flush()
    except UserError as e:
        what += "; writing the records before it failed too: %s" % e
    writer.progress.interrupt()
    raise UserError("%s; before it stopped: %s" % (what, writer.summary()))
