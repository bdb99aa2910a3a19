#!/usr/bin/env python3
"""Tables through HBase's own Export and Import jobs, both ways, compared cell for cell.

    export_roundtrip.py [--seed N] [--rows N] [--speed-cells N] [--only to-hbase|from-hbase|speed]

Needs a real HBase:
  HBASE_THRIFT2_TARGET=host:port   its Thrift2 gateway
  HBASE_SHELL_COMMAND              the command that runs its shell (e.g. "hbase shell")
  HBASE_MAPREDUCE_COMMAND          the command that runs one of its MapReduce tools; "{tool}" in
                                   it is replaced by the tool's name, else the name is appended:
                                   "hbase org.apache.hadoop.hbase.mapreduce.{tool}"
  HBASE_EXPORT_URI_PREFIX          what turns a local folder into a path the jobs read and write
                                   (default "file://": Hadoop's local mode, or a cluster whose
                                   nodes share this file system)
It starts an `hbase-emulator --in-memory` (HBASE_EMULATOR_BIN, else build/hbase-emulator).

to-hbase: a random table on hbase-emulator (binary row keys, empty qualifiers, several families
  with VERSIONS > 1, explicit timestamps, delete markers of all four kinds) -> hbase-emulator-export
  --format sequencefile --all-versions --include-deleted -> its schema script run by HBase's shell
  -> HBase's Import -> every version of every cell read back through both Thrift2 gateways must
  be equal; then a probe cell put under each delete marker on both sides must be hidden (or
  shown) alike, which shows that the markers themselves moved, not only what they hid.
from-hbase: the same kind of table made on HBase -> HBase's Export with
  hbase.mapreduce.include.deleted.rows=true -> hbase-emulator-import --schema (its schema) and
  --format sequencefile -> equal, probes alike.
speed: a table of --speed-cells cells (default 1,000,000) made on hbase-emulator, moved both
  ways (our export, HBase's Import, HBase's Export, our import), cells/s for each step; the
  tables are compared by cell count and a digest of every cell.

Names carry a random run id; the tables made on HBase are dropped at the end. Exit status 0 when
every comparison agrees. Run it with python-compat's virtualenv.
"""

import argparse
import hashlib
import os
import random
import secrets
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO / "python-compat")]

import hbcompat  # noqa: E402
from hbase_emulator import schema_script, thrift2  # noqa: E402

T = thrift2.ttypes
ALL_VERSIONS = 2147483647
FAMILIES = ((b"f", 5), (b"g", 3), (b"h", 1))  # (name, VERSIONS)
MARKER_KINDS = (T.TDeleteType.DELETE_COLUMN, T.TDeleteType.DELETE_COLUMNS,
                T.TDeleteType.DELETE_FAMILY, T.TDeleteType.DELETE_FAMILY_VERSION)


# ---- environment

class Env:
    def __init__(self):
        missing = [k for k in ("HBASE_THRIFT2_TARGET", "HBASE_SHELL_COMMAND", "HBASE_MAPREDUCE_COMMAND")
                   if not os.environ.get(k, "").strip()]
        if missing:
            raise SystemExit("set %s (see --help)" % ", ".join(missing))
        host, _, port = os.environ["HBASE_THRIFT2_TARGET"].strip().rpartition(":")
        self.real = (host.strip("[]"), int(port))
        self.shell = shlex.split(os.environ["HBASE_SHELL_COMMAND"])
        self.mapreduce = os.environ["HBASE_MAPREDUCE_COMMAND"]
        self.uri_prefix = os.environ.get("HBASE_EXPORT_URI_PREFIX", "file://")

    def tool(self, name, *args):
        if "{tool}" in self.mapreduce:
            return shlex.split(self.mapreduce.replace("{tool}", name)) + list(args)
        return shlex.split(self.mapreduce) + [name] + list(args)


def run(argv, what, log):
    """Runs a command; (seconds it took, its output). A failure ends the run with its output."""
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, TZ="UTC"),
                          timeout=3600)
    took = time.monotonic() - start
    log("  %-52s %7.1f s" % (what, took))
    if done.returncode != 0:
        raise SystemExit("%s failed (exit %d): %s\n%s\n%s" % (what, done.returncode, " ".join(argv),
                                                               done.stdout[-4000:], done.stderr[-4000:]))
    return took, done.stdout + done.stderr


def our_tool(main, *args):
    return [sys.executable, "-c", "import sys; from hbase_emulator import transfer; "
            "sys.exit(transfer.%s())" % main, *args]


# ---- the table

def random_table(rng, rows):
    """(puts, deletes, markers): what to write, in order, and each marker as (row, family,
    qualifier or None, timestamp, kind) for the probes."""
    puts, deletes, markers = [], [], []
    for i in range(rows):
        row = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9))) + i.to_bytes(3, "big")
        cvs = []
        for family, versions in FAMILIES:
            for q in range(rng.randrange(0, 4)):
                qualifier = b"" if q == 0 else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
                for ts in sorted(rng.sample(range(1, 10**6), rng.randrange(1, versions + 1))):
                    value = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 20)))
                    cvs.append(T.TColumnValue(family=family, qualifier=qualifier, value=value,
                                              timestamp=1_600_000_000_000 + ts))
        if not cvs:
            cvs.append(T.TColumnValue(family=b"f", qualifier=b"", value=b"", timestamp=1_600_000_000_001))
        puts.append(T.TPut(row=row, columnValues=cvs))
        if rng.random() < 0.4:
            kind = rng.choice(MARKER_KINDS)
            cell = rng.choice(cvs)
            ts = cell.timestamp if kind in (T.TDeleteType.DELETE_COLUMN,
                                            T.TDeleteType.DELETE_FAMILY_VERSION) \
                else cell.timestamp + rng.choice((-1, 0, 1))
            column = T.TColumn(family=cell.family, timestamp=ts)
            qualifier = None
            if kind in (T.TDeleteType.DELETE_COLUMN, T.TDeleteType.DELETE_COLUMNS):
                column.qualifier = qualifier = cell.qualifier
            deletes.append(T.TDelete(row=row, columns=[column], deleteType=kind))
            markers.append((row, cell.family, qualifier, ts, kind))
    return puts, deletes, markers


def create_table(client, name):
    client.createTable(T.TTableDescriptor(
        tableName=thrift2.split_table_name(name),
        columns=[T.TColumnFamilyDescriptor(name=f, maxVersions=v) for f, v in FAMILIES]), None)


def write_table(client, name, puts, deletes):
    for i in range(0, len(puts), 500):
        client.putMultiple(name.encode(), puts[i:i + 500])
    for i in range(0, len(deletes), 500):
        client.deleteMultiple(name.encode(), deletes[i:i + 500])


def scan_cells(client, name):
    """Every version of every cell, as a reader sees them, sorted."""
    cells = []
    scanner = client.openScanner(name.encode(), T.TScan(maxVersions=ALL_VERSIONS, caching=1000))
    try:
        while True:
            results = client.getScannerRows(scanner, 1000)
            if not results:
                break
            for r in results:
                cells += [(r.row, c.family, c.qualifier, c.timestamp, c.value) for c in r.columnValues]
    finally:
        client.closeScanner(scanner)
    return sorted(cells)


def digest(client, name):
    h = hashlib.sha256()
    n = 0
    scanner = client.openScanner(name.encode(), T.TScan(maxVersions=ALL_VERSIONS, caching=5000))
    try:
        while True:
            results = client.getScannerRows(scanner, 5000)
            if not results:
                break
            for r in results:
                for c in r.columnValues:
                    for part in (r.row, c.family, c.qualifier, c.value):
                        h.update(len(part).to_bytes(4, "big") + part)
                    h.update(c.timestamp.to_bytes(8, "big", signed=True))
                    n += 1
    finally:
        client.closeScanner(scanner)
    return n, h.hexdigest()


def probe(client, name, markers):
    """Puts a cell just under each marker (at its timestamp, in the column it covers), then
    reads whether each is visible: a moved marker hides it."""
    puts = []
    for i, (row, family, qualifier, ts, kind) in enumerate(markers):
        q = qualifier if qualifier is not None else b"probe%d" % i
        puts.append(T.TPut(row=row, columnValues=[T.TColumnValue(
            family=family, qualifier=q, value=b"probe", timestamp=ts)]))
    if puts:
        client.putMultiple(name.encode(), puts)
    seen = []
    for put in puts:
        cv = put.columnValues[0]
        got = client.get(name.encode(), T.TGet(row=put.row, columns=[T.TColumn(
            family=cv.family, qualifier=cv.qualifier)], timestamp=cv.timestamp))
        seen.append(bool(got.columnValues))
    return seen


def compare(label, ours, theirs, log):
    if ours == theirs:
        log("agree: %s" % label)
        return True
    if isinstance(ours, list) and isinstance(theirs, list):
        a, b = set(ours), set(theirs)
        log("DIFFER: %s: %d cells only on hbase-emulator, %d only on HBase (%d and %d in all); "
            "first: %r / %r" % (label, len(a - b), len(b - a), len(ours), len(theirs),
                                sorted(a - b)[:3], sorted(b - a)[:3]))
    else:
        log("DIFFER: %s: hbase-emulator %r, HBase %r" % (label, ours, theirs))
    return False


KIND_NAMES = {v: k for k, v in T.TDeleteType._NAMES_TO_VALUES.items()}


def compare_probes(markers, ours, theirs, log):
    label = "probe cells under the %d markers (hidden: %d on hbase-emulator, %d on HBase)" % (
        len(markers), ours.count(False), theirs.count(False))
    if ours == theirs:
        log("agree: " + label)
        return True
    log("DIFFER: " + label)
    for marker, a, b in [(m, a, b) for m, a, b in zip(markers, ours, theirs) if a != b][:5]:
        row, family, qualifier, ts, kind = marker
        log("  %s row=%r %r:%r ts=%d: probe %s on hbase-emulator, %s on HBase"
            % (KIND_NAMES[kind], row, family, qualifier, ts, "shown" if a else "hidden",
               "shown" if b else "hidden"))
    return False


def drop(client, name):
    tname = thrift2.split_table_name(name)
    if client.tableExists(tname):
        if client.isTableEnabled(tname):
            client.disableTable(tname)
        client.deleteTable(tname)


def schema_to_hbase(env, ours, name, tmp, log):
    """The table's schema script from hbase-emulator, run by HBase's shell."""
    script = Path(tmp) / ("%s.rb" % name)
    with thrift2.client(ours.host, ours.thrift2_port) as c, open(script, "w") as out:
        schema_script.write_schema(c, out, [name])
    run(env.shell + ["-n", str(script)], "HBase's shell runs the schema script", log)


def our_export(env, ours, name, out_dir, log):
    return run(our_tool("export_main", "--host", ours.host, "--port", str(ours.thrift2_port),
                        "--admin-port", str(ours.ports["admin"]), "--format", "sequencefile",
                        "-t", name, "-o", str(out_dir), "--all-versions", "--include-deleted", "-q"),
               "hbase-emulator-export --format sequencefile", log)[0]


def our_import(env, ours, name, in_dir, schema, log):
    run(our_tool("import_main", "--host", ours.host, "--port", str(ours.thrift2_port),
                 "--schema", str(schema), "-q"), "hbase-emulator-import --schema", log)
    return run(our_tool("import_main", "--host", ours.host, "--port", str(ours.thrift2_port),
                        "--format", "sequencefile", "-t", name, "-i", str(in_dir), "-q"),
               "hbase-emulator-import --format sequencefile", log)[0]


def hbase_export(env, name, out_dir, log):
    return run(env.tool("Export", "-Dhbase.mapreduce.include.deleted.rows=true", name,
                        env.uri_prefix + str(out_dir), str(ALL_VERSIONS)), "HBase Export", log)[0]


def hbase_import(env, name, in_dir, log):
    return run(env.tool("Import", name, env.uri_prefix + str(in_dir)), "HBase Import", log)[0]


# ---- the three checks

def to_hbase(env, ours, run_id, seed, rows, tmp, made, log):
    name = "%s_to_hbase" % run_id
    puts, deletes, markers = random_table(random.Random(seed), rows)
    with thrift2.client(ours.host, ours.thrift2_port) as c:
        create_table(c, name)
        write_table(c, name, puts, deletes)
    log("to-hbase: %s, %d rows, %d delete markers (seed %d)" % (name, rows, len(markers), seed))
    out_dir = Path(tmp) / name
    our_export(env, ours, name, out_dir, log)
    made.append(name)
    schema_to_hbase(env, ours, name, tmp, log)
    hbase_import(env, name, out_dir, log)
    with thrift2.client(ours.host, ours.thrift2_port) as a, thrift2.client(*env.real) as b:
        ok = compare("every version of every cell", scan_cells(a, name), scan_cells(b, name), log)
        ok &= compare_probes(markers, probe(a, name, markers), probe(b, name, markers), log)
    return ok


def from_hbase(env, ours, run_id, seed, rows, tmp, made, log):
    name = "%s_from_hbase" % run_id
    puts, deletes, markers = random_table(random.Random(seed + 1), rows)
    with thrift2.client(*env.real) as c:
        made.append(name)
        create_table(c, name)
        write_table(c, name, puts, deletes)
        script = Path(tmp) / ("%s.rb" % name)
        with open(script, "w") as out:
            schema_script.write_schema(c, out, [name])
    log("from-hbase: %s, %d rows, %d delete markers (seed %d)" % (name, rows, len(markers), seed + 1))
    out_dir = Path(tmp) / name
    hbase_export(env, name, out_dir, log)
    our_import(env, ours, name, out_dir, script, log)
    with thrift2.client(ours.host, ours.thrift2_port) as a, thrift2.client(*env.real) as b:
        ok = compare("every version of every cell", scan_cells(a, name), scan_cells(b, name), log)
        ok &= compare_probes(markers, probe(a, name, markers), probe(b, name, markers), log)
    return ok


def speed(env, ours, run_id, cells, tmp, made, log):
    """Returns (ok, {step: cells/s})."""
    name = "%s_speed" % run_id
    back = "%s_speed_back" % run_id
    per_row = 10
    with thrift2.client(ours.host, ours.thrift2_port) as c:
        create_table(c, name)
        rng = random.Random(7)
        batch = []
        for i in range(cells // per_row):
            row = b"row%08d" % i
            batch.append(T.TPut(row=row, columnValues=[T.TColumnValue(
                family=b"f", qualifier=b"q%d" % (j % 5), value=rng.randbytes(16),
                timestamp=1_600_000_000_000 + j // 5) for j in range(per_row)]))
            if len(batch) == 1000:
                c.putMultiple(name.encode(), batch)
                batch = []
        if batch:
            c.putMultiple(name.encode(), batch)
        ours_n, ours_digest = digest(c, name)
    log("speed: %s, %d cells (%d rows x %d)" % (name, ours_n, cells // per_row, per_row))
    rates = {}
    out_dir = Path(tmp) / name
    rates["hbase-emulator-export --format sequencefile"] = ours_n / our_export(env, ours, name, out_dir, log)
    made.append(name)
    schema_to_hbase(env, ours, name, tmp, log)
    rates["HBase Import (local mode)"] = ours_n / hbase_import(env, name, out_dir, log)
    back_dir = Path(tmp) / back
    rates["HBase Export (local mode)"] = ours_n / hbase_export(env, name, back_dir, log)
    script = Path(tmp) / ("%s.rb" % back)
    with thrift2.client(*env.real) as c, open(script, "w") as out:
        schema_script.write_schema(c, out, [name])
        real_n, real_digest = digest(c, name)
    script.write_text(script.read_text().replace("create '%s'" % name, "create '%s'" % back))
    rates["hbase-emulator-import --format sequencefile"] = ours_n / our_import(
        env, ours, back, back_dir, script, log)
    with thrift2.client(ours.host, ours.thrift2_port) as c:
        back_n, back_digest = digest(c, back)
    ok = compare("HBase's copy (cells, digest)", (ours_n, ours_digest), (real_n, real_digest), log)
    ok &= compare("the copy back from HBase (cells, digest)", (ours_n, ours_digest),
                  (back_n, back_digest), log)
    for step, rate in rates.items():
        log("  %-52s %9.0f cells/s" % (step, rate))
    return ok, rates


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--seed", type=int, default=None, help="random table seed (default: random)")
    p.add_argument("--rows", type=int, default=300, help="rows of the random tables")
    p.add_argument("--speed-cells", type=int, default=1_000_000)
    p.add_argument("--only", choices=("to-hbase", "from-hbase", "speed"), action="append")
    args = p.parse_args(argv)
    env = Env()
    only = set(args.only or ("to-hbase", "from-hbase", "speed"))
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    run_id = "ert_" + secrets.token_hex(3)

    def log(line):
        print(line, flush=True)

    ours = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    made = []
    ok = True
    try:
        with tempfile.TemporaryDirectory(prefix="export-roundtrip-") as tmp:
            if "to-hbase" in only:
                ok &= to_hbase(env, ours, run_id, seed, args.rows, tmp, made, log)
            if "from-hbase" in only:
                ok &= from_hbase(env, ours, run_id, seed, args.rows, tmp, made, log)
            if "speed" in only:
                ok &= speed(env, ours, run_id, args.speed_cells, tmp, made, log)[0]
    finally:
        ours.stop()
        with thrift2.client(*env.real) as c:
            for name in made:
                drop(c, name)
    log("export round trip: %s" % ("every comparison agrees" if ok else "DIFFERENCES above"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
