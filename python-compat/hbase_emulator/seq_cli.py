"""The command lines of `hbase-emulator-export --format sequencefile` and `hbase-emulator-import
--format sequencefile`: flags of their own, and HBase's -Dkey=value spellings of Export's and
Import's properties (the flag each one sets is in EXPORT_PROPERTIES / IMPORT_PROPERTIES)."""

import difflib
import sys

from . import admin_markers, cli, sequencefile, seq_export, seq_import
from .cli import UserError
from .importtsv import split_properties
from .progress import Progress

FORMATS = ("jsonl", "sequencefile")
CODEC_NAMES = {"default": sequencefile.DEFAULT_CODEC, "deflate": sequencefile.DEFAULT_CODEC,
               "gzip": sequencefile.GZIP_CODEC}

# HBase's property -> the flag it sets here.
EXPORT_PROPERTIES = {
    "hbase.mapreduce.include.deleted.rows": "--include-deleted",
    "hbase.mapreduce.scan.row.start": "--start-row",
    "hbase.mapreduce.scan.row.stop": "--stop-row",
    "hbase.mapreduce.scan.column.family": "--family",
    "hbase.client.scanner.caching": "--batch-rows",
    "hbase.export.scanner.caching": "--batch-rows",
    "mapreduce.output.fileoutputformat.compress": "--compress",
    "mapreduce.output.fileoutputformat.compress.type": "--compress",
    "mapreduce.output.fileoutputformat.compress.codec": "--codec",
}
EXPORT_UNSUPPORTED = {
    "hbase.export.scanner.batch": "it splits wide rows over several Results; Thrift2 scans here "
                                  "return whole rows",
    "hbase.export.visibility.labels": "cell visibility labels are not kept by the emulator",
}
IMPORT_PROPERTIES = {"import.wal.durability": "--durability"}
IMPORT_UNSUPPORTED = {
    "import.bulk.output": "it writes HFiles for a bulk load; this tool writes through Thrift",
    "import.filter.class": "a Java filter class cannot run here",
    "HBASE_IMPORTER_RENAME_CFS": "families are not renamed on import",
    "hbase.import.version": "only files written by HBase 0.96 and later are read",
}
DURABILITIES = ("USE_DEFAULT", "SKIP_WAL", "ASYNC_WAL", "SYNC_WAL", "FSYNC_WAL")


def wants_sequencefile(argv):
    """Whether a command line asks for --format sequencefile (either spelling)."""
    for i, arg in enumerate(argv):
        if arg == "--format" and i + 1 < len(argv):
            return argv[i + 1] == "sequencefile"
        if arg.startswith("--format="):
            return arg.split("=", 1)[1] == "sequencefile"
    return False


def _bool(key, value):
    if value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise UserError("-D%s=%s: give true or false" % (key, value), cli.USAGE_EXIT)


def _int(key, value):
    try:
        return int(value)
    except ValueError:
        raise UserError("-D%s=%s: give a number" % (key, value), cli.USAGE_EXIT)


def _apply(props, known, unsupported, set_one, warn):
    for key, value in props.items():
        if key in unsupported:
            raise UserError("-D%s is not supported: %s" % (key, unsupported[key]), cli.USAGE_EXIT)
        if key in known:
            set_one(key, value)
        elif key.startswith(("mapreduce.", "mapred.")):
            warn("-D%s has nothing to tune here (no MapReduce job); ignored" % key)
        else:
            close = difflib.get_close_matches(key, list(known), n=1)
            raise UserError("-D%s is not a property read here (%s)" % (
                key, "did you mean %s?" % close[0] if close else "known: " + ", ".join(sorted(known))),
                cli.USAGE_EXIT)


def _warn(prog):
    return lambda text: sys.stderr.write("%s: %s\n" % (prog, text))


# ---- export

def export_cli(argv):
    prog = "hbase-emulator-export"
    argv, props = split_properties(list(argv))
    p = cli.Parser(prog=prog, description=(
        "Export tables in HBase's Export format: a folder of Hadoop SequenceFiles (part-m-00000, "
        "... and _SUCCESS) that HBase's Import job reads (hbase org.apache.hadoop.hbase.mapreduce."
        "Import TABLE DIR). One -t: DIR holds its files; several -t, or none (every user table): "
        "one folder per table, DIR/<namespace>/<table>. HBase's -Dkey=value spellings of Export's "
        "properties work too (%s)." % ", ".join(sorted(EXPORT_PROPERTIES))))
    cli.add_connection_args(p)
    p.add_argument("--format", choices=FORMATS, default="sequencefile")
    p.add_argument("-t", "--table", action="append", help="table to export (repeatable)")
    p.add_argument("-o", "--output", required=True, help="folder to write; must not exist")
    p.add_argument("--versions", type=cli.positive_int, default=1,
                   help="versions of each cell (default 1, as Export's)")
    p.add_argument("--all-versions", action="store_true", help="every version the table keeps")
    p.add_argument("--start-time", type=int, default=0, help="oldest timestamp, in ms (inclusive)")
    p.add_argument("--end-time", type=int, default=seq_export.MAX_TIME,
                   help="timestamps before this, in ms (exclusive)")
    p.add_argument("--start-row", default="", help="first row (\\xHH escapes for bytes)")
    p.add_argument("--stop-row", default="", help="row to stop before (\\xHH escapes)")
    p.add_argument("--row-prefix", default="", help="rows starting with this (\\xHH escapes)")
    p.add_argument("--row-regex", help="rows a Java regular expression finds something in "
                   "(Export's ^REGEX argument, without the ^)")
    p.add_argument("--family", action="append", default=[],
                   help="only this family (repeatable, or comma-separated)")
    p.add_argument("--include-deleted", action="store_true",
                   help="delete markers too, read from the emulator's admin API (--admin-port)")
    p.add_argument("--admin-host", help="admin API host (default: --host)")
    p.add_argument("--admin-port", type=cli.port_number, default=admin_markers.DEFAULT_PORT,
                   help="admin API port (default %d)" % admin_markers.DEFAULT_PORT)
    p.add_argument("--compress", choices=sequencefile.COMPRESSIONS, default="none",
                   help="none (default, as Export), record (each value) or block")
    p.add_argument("--codec", default="default",
                   help="with --compress: default (zlib, Hadoop's DefaultCodec) or gzip "
                        "(GzipCodec: HBase's Import reads it; Hadoop without its native library "
                        "cannot write it)")
    p.add_argument("--part-size", type=cli.positive_int, default=seq_export.DEFAULT_PART_BYTES,
                   metavar="BYTES", help="start a new part file past this size (default 256 MiB)")
    p.add_argument("--batch-rows", type=cli.positive_int, default=1000, help="rows per scanner call")
    args = p.parse_args(argv)
    compress_on = [None]

    def set_one(key, value):
        flag = EXPORT_PROPERTIES[key]
        if key == "mapreduce.output.fileoutputformat.compress":
            compress_on[0] = _bool(key, value)
        elif key.endswith("compress.type"):
            if value.upper() not in ("NONE", "RECORD", "BLOCK"):
                raise UserError("-D%s=%s: NONE, RECORD or BLOCK" % (key, value), cli.USAGE_EXIT)
            args.compress = value.lower()
        elif flag == "--codec":
            args.codec = value
        elif flag == "--include-deleted":
            args.include_deleted = _bool(key, value)
        elif flag in ("--start-row", "--stop-row"):
            setattr(args, flag[2:].replace("-", "_"), value)
        elif flag == "--family":
            args.family.append(value)
        else:
            setattr(args, flag[2:].replace("-", "_"), _int(key, value))

    _apply(props, EXPORT_PROPERTIES, EXPORT_UNSUPPORTED, set_one, _warn(prog))
    if compress_on[0] is not None:
        # Hadoop: compress=true with no type is RECORD; compress=false writes none.
        if not compress_on[0]:
            args.compress = "none"
        elif args.compress == "none" and "mapreduce.output.fileoutputformat.compress.type" not in props:
            args.compress = "record"
    codec = CODEC_NAMES.get(args.codec, args.codec)
    if sequencefile.codec_wbits(codec) is None:
        raise UserError("--codec %s: default (DefaultCodec) or gzip (GzipCodec)" % args.codec,
                        cli.USAGE_EXIT)
    families = [f.encode("utf-8") for spec in args.family for f in spec.split(",") if f]
    options = seq_export.Options(
        versions=seq_export.ALL_VERSIONS if args.all_versions else args.versions,
        start_time=args.start_time, end_time=args.end_time,
        start_row=seq_export.row_bytes(args.start_row, "--start-row"),
        stop_row=seq_export.row_bytes(args.stop_row, "--stop-row"),
        prefix=seq_export.row_bytes(args.row_prefix, "--row-prefix"), regex=args.row_regex,
        families=families, include_deleted=args.include_deleted, compression=args.compress,
        codec=codec, part_bytes=args.part_size, batch_rows=args.batch_rows)
    if options.versions > seq_export.ALL_VERSIONS:
        raise UserError("--versions at most %d" % seq_export.ALL_VERSIONS, cli.USAGE_EXIT)
    markers = (admin_markers.MarkerSource(args.admin_host or args.host, args.admin_port)
               if args.include_deleted else None)
    client = cli.connect(args.host, args.port)
    try:
        seq_export.export(client, args.output, args.table, options, markers,
                          Progress("export", quiet=args.quiet))
    finally:
        client.close()
    return 0


# ---- import

def import_cli(argv):
    prog = "hbase-emulator-import"
    argv, props = split_properties(list(argv))
    p = cli.Parser(prog=prog, description=(
        "Import a folder HBase's Export job wrote (or one of its SequenceFiles) into an existing "
        "table, as HBase's Import does: every version with its timestamp, delete markers applied. "
        "Files starting with _ or . are skipped. -Dimport.wal.durability=... works too."))
    cli.add_connection_args(p)
    p.add_argument("--format", choices=FORMATS, default="sequencefile")
    p.add_argument("-t", "--table", required=True, help="table to write (must exist)")
    p.add_argument("-i", "--input", required=True, help="Export folder or SequenceFile")
    p.add_argument("--durability", choices=DURABILITIES, help="write-ahead-log use of each write")
    p.add_argument("--batch-cells", type=cli.positive_int, default=5000,
                   help="cells per putMultiple call")
    args = p.parse_args(argv)

    def set_one(key, value):
        if value.upper() not in DURABILITIES:
            raise UserError("-D%s=%s: one of %s" % (key, value, ", ".join(DURABILITIES)), cli.USAGE_EXIT)
        args.durability = value.upper()

    _apply(props, IMPORT_PROPERTIES, IMPORT_UNSUPPORTED, set_one, _warn(prog))
    durability = (getattr(seq_import.T.TDurability, args.durability)
                  if args.durability and args.durability != "USE_DEFAULT" else None)
    seq_import.input_files(args.input)  # a missing input is named before connecting
    client = cli.connect(args.host, args.port)
    try:
        seq_import.import_sequencefiles(client, args.table, args.input, args.batch_cells,
                                        durability, Progress("import", quiet=args.quiet))
    finally:
        client.close()
    return 0
