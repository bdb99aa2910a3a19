#!/usr/bin/env python3
"""The schema script (hbase-emulator-export --schema) against HBase's own shell.

    schema_roundtrip.py [--keep]

Needs a real HBase: HBASE_THRIFT2_TARGET=host:port (its Thrift2 gateway) and HBASE_SHELL_COMMAND
(the command that runs its shell, e.g. "hbase shell"; the script runs as `<command> -n FILE`).
Starts an `hbase-emulator --in-memory` (HBASE_EMULATOR_BIN, else build/hbase-emulator) and
checks, for a namespace with configuration and tables holding every family setting, family and
table METADATA/CONFIGURATION, DURABILITY and binary split keys, all made on this server:

1. the script written from this server runs unchanged in HBase's shell (`-n`: any error stops it);
2. `describe` and `describe_namespace` print the same lines on both sides (HBase's shell against
   HBase, hbase-shell against this server; `Took` lines, prompts and `=>` values left out);
3. both Thrift2 gateways return equal descriptors, namespaces and split keys;
4. the script written back from HBase is the one written from this server.

Names carry a random run id; what it created on HBase is dropped at the end unless --keep.
Exit status 0 when every check agrees. Run it with python-compat's virtualenv.
"""

import argparse
import io
import os
import secrets
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO / "python-compat")]

import hbcompat  # noqa: E402
from hbase_emulator import schema_script, thrift2  # noqa: E402

T = thrift2.ttypes


def endpoint(text):
    host, _, port = text.strip().rpartition(":")
    return host.strip("[]"), int(port)


def make_schema(client, ns):
    """The tables the check moves; settings HBase accepts on a standalone server (GZ is the one
    compression it always has)."""
    client.createNamespace(T.TNamespaceDescriptor(name=ns, configuration={
        "hbase.namespace.quota.maxtables": "10", "owner's note": "a\\b"}))
    every = T.TColumnFamilyDescriptor(
        name=b"f", maxVersions=5, minVersions=1, timeToLive=86400,
        keepDeletedCells=T.TKeepDeletedCells.TTL, bloomnFilterType=T.TBloomFilterType.ROWCOL,
        compressionType=T.TCompressionAlgorithm.GZ, dataBlockEncoding=T.TDataBlockEncoding.FAST_DIFF,
        blockSize=32768, blockCacheEnabled=False, inMemory=True, scope=1,
        attributes={b"user key": b"it's \xc3\xa9"},
        configuration={"hbase.hstore.blockingStoreFiles": "20"})
    other = T.TColumnFamilyDescriptor(name=b"g", keepDeletedCells=T.TKeepDeletedCells.TRUE,
                                      bloomnFilterType=T.TBloomFilterType.NONE,
                                      dataBlockEncoding=T.TDataBlockEncoding.PREFIX)
    tables = {
        "%s:every" % ns: (T.TTableDescriptor(
            tableName=thrift2.split_table_name("%s:every" % ns), columns=[every, other],
            durability=T.TDurability.ASYNC_WAL,
            attributes={b"MAX_FILESIZE": b"1073741824", b"tm": b"tv",
                        b"hbase.hregion.scan.loadColumnFamiliesOnDemand": b"true"}),
            [b"\x00", b"a'b", b"back\\slash", b"m\x00\x01", b"z\x7f\x80\xfe\xff"]),
        "%s_plain" % ns: (T.TTableDescriptor(tableName=thrift2.split_table_name("%s_plain" % ns),
                                             columns=[T.TColumnFamilyDescriptor(name=b"d")]), None),
    }
    for desc, splits in tables.values():
        client.createTable(desc, splits)
    return sorted(tables), ns


def snapshot(client, tables, ns):
    namespaces = {n.name: n.configuration for n in client.listNamespaceDescriptors() if n.name == ns}
    out = {}
    for name in tables:
        desc = client.getTableDescriptor(thrift2.split_table_name(name))
        desc.columns = sorted(desc.columns, key=lambda c: c.name)
        splits = sorted(l.regionInfo.startKey for l in client.getAllRegionLocations(name.encode()))
        out[name] = (desc, splits)
    return namespaces, out


def shell_lines(output):
    """What describe printed, without what varies or is only the session's echo."""
    lines = []
    for line in output.splitlines():
        line = line.rstrip()
        if not line or line.startswith(("Took ", "=> ", "hbase:")):
            continue
        lines.append(line)
    return lines


def run(argv, what):
    env = dict(os.environ, TZ="UTC")
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise SystemExit("%s failed (exit %d):\n%s\n%s" % (what, done.returncode,
                                                            done.stdout[-3000:], done.stderr[-3000:]))
    return done.stdout


def script_from(host, port, tables):
    with thrift2.client(host, port) as c:
        out = io.StringIO()
        warnings = []
        schema_script.write_schema(c, out, tables, warnings.append)
    return out.getvalue(), warnings


def drop(host, port, tables, ns):
    with thrift2.client(host, port) as c:
        for name in tables:
            tname = thrift2.split_table_name(name)
            if c.tableExists(tname):
                if c.isTableEnabled(tname):
                    c.disableTable(tname)
                c.deleteTable(tname)
        if ns in {n.name for n in c.listNamespaceDescriptors()}:
            c.deleteNamespace(ns)


def diff(label, a, b):
    if a == b:
        print("agree: %s" % label)
        return True
    print("DIFFER: %s\n  hbase-emulator: %r\n  HBase:          %r" % (label, a, b))
    return False


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--keep", action="store_true", help="leave the tables on the real HBase")
    args = p.parse_args(argv)
    target = os.environ.get("HBASE_THRIFT2_TARGET", "").strip()
    shell_command = os.environ.get("HBASE_SHELL_COMMAND", "").strip()
    if not target or not shell_command:
        raise SystemExit("set HBASE_THRIFT2_TARGET=host:port (a real HBase's Thrift2 gateway) and "
                         "HBASE_SHELL_COMMAND (e.g. 'hbase shell')")
    real = endpoint(target)
    ours = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    our_shell = [str(hbcompat.emulator_bin().parent / "hbase-shell"), "--port", str(ours.port),
                 "--thrift2-port", str(ours.thrift2_port)]
    ns = "schema_rt_" + secrets.token_hex(3)
    tables = []
    ok = True
    try:
        with thrift2.client(ours.host, ours.thrift2_port) as c:
            tables, _ = make_schema(c, ns)
            want = snapshot(c, tables, ns)
        text, warnings = script_from(ours.host, ours.thrift2_port, tables)
        ok &= diff("no warnings writing the script", warnings, [])
        with tempfile.TemporaryDirectory() as tmp:
            script = Path(tmp) / "schema.rb"
            script.write_text(text)
            print(text, end="")
            run(shlex.split(shell_command) + ["-n", str(script)], "HBase's shell running the script")
            print("agree: HBase's shell ran the script (-n)")
            describe = Path(tmp) / "describe.rb"
            describe.write_text("".join("describe '%s'\n" % t for t in tables)
                                + "describe_namespace '%s'\n" % ns)
            real_out = shell_lines(run(shlex.split(shell_command) + ["-n", str(describe)],
                                       "HBase's shell describing"))
            our_out = shell_lines(run(our_shell + ["-n", str(describe)], "hbase-shell describing"))
            same = our_out == real_out and bool(our_out)
            print("%s: describe and describe_namespace, %d lines" % ("agree" if same else "DIFFER",
                                                                     len(real_out)))
            for i in range(max(len(real_out), len(our_out))):
                if not same and (our_out[i:i + 1] != real_out[i:i + 1]):
                    diff("describe line %d" % (i + 1), our_out[i:i + 1], real_out[i:i + 1])
            ok &= same
        with thrift2.client(*real) as c:
            got = snapshot(c, tables, ns)
        ok &= diff("namespace configuration (Thrift2)", want[0], got[0])
        for name in tables:
            ok &= diff("%s descriptor (Thrift2)" % name, want[1][name][0], got[1][name][0])
            ok &= diff("%s split keys" % name, want[1][name][1], got[1][name][1])
        again, _ = script_from(*real, tables)
        ok &= diff("script written back from HBase", text.splitlines()[2:], again.splitlines()[2:])
    finally:
        ours.stop()
        if not args.keep and tables:
            drop(*real, tables, ns)
    print("schema round trip: %s" % ("every check agrees" if ok else "DIFFERENCES above"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
