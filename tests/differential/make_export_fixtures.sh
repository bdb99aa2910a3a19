#!/usr/bin/env bash
# Regenerates python-compat/fixtures/hbase-export/: the same table exported by HBase's own Export
# job with delete markers: every version uncompressed (plain), Export's default of the newest
# version (plain-newest), and every version record-compressed and block-compressed
# with DefaultCodec (zlib), plus what a Thrift2 scan of the source table shows. GzipCodec is left
# out: Hadoop without its native library (libhadoop, which Maven's jars lack) refuses it for
# SequenceFiles ("SequenceFile doesn't work with GzipCodec without native-hadoop code!"), so
# gzip is checked by the tests' own round trips.
#
#   HBASE_MAPREDUCE='hbase' HBASE_THRIFT2=127.0.0.1:9091 tests/differential/make_export_fixtures.sh
#
# HBASE_MAPREDUCE: the command that runs one of HBase's MapReduce tools given its class name and
#   arguments (`hbase` on an HBase install: `hbase org.apache.hadoop.hbase.mapreduce.Export ...`).
# HBASE_THRIFT2: the Thrift2 gateway of the same HBase (the table is created through it).
# PYTHON: an interpreter with this repository's python-compat packages (default: its .venv).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${HBASE_MAPREDUCE:?set HBASE_MAPREDUCE to the command that runs HBase MapReduce tools (e.g. hbase)}"
: "${HBASE_THRIFT2:?set HBASE_THRIFT2=host:port of the same HBase Thrift2 gateway}"
python=${PYTHON:-$repo/python-compat/.venv/bin/python}
out=$repo/python-compat/fixtures/hbase-export
table=export_fixture_$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mr() { $HBASE_MAPREDUCE "org.apache.hadoop.hbase.mapreduce.$@"; }
py() { PYTHONPATH=$repo/python-compat "$python" "$repo/tests/differential/export_fixture_table.py" "$@"; }

py create "$HBASE_THRIFT2" "$table"
deleted=-Dhbase.mapreduce.include.deleted.rows=true
compress=-Dmapreduce.output.fileoutputformat.compress=true
mr Export "$deleted" "$table" "file://$work/plain" 10
# Export's default of one version: delete markers do not count as versions in its raw scan.
mr Export "$deleted" "$table" "file://$work/plain-newest"
mr Export "$deleted" "$compress" -Dmapreduce.output.fileoutputformat.compress.type=RECORD \
  -Dmapreduce.output.fileoutputformat.compress.codec=org.apache.hadoop.io.compress.DefaultCodec \
  "$table" "file://$work/record-deflate" 10
mr Export "$deleted" "$compress" -Dmapreduce.output.fileoutputformat.compress.type=BLOCK \
  -Dmapreduce.output.fileoutputformat.compress.codec=org.apache.hadoop.io.compress.DefaultCodec \
  "$table" "file://$work/block-deflate" 10
for form in plain plain-newest record-deflate block-deflate; do
  rm -rf "${out:?}/$form"
  mkdir -p "$out/$form"
  # The job's own files only (Hadoop's local file system adds .crc files beside them).
  for f in "$work/$form"/part-m-* "$work/$form/_SUCCESS"; do cp "$f" "$out/$form/"; done
done
py record "$HBASE_THRIFT2" "$table" "$out/scan.json"
echo "fixtures written to $out (source table $table)"
