#!/usr/bin/env python3
"""hbase-emulator --init: the script's tables exist at the ready line, a second start over the
same data folder keeps them (no error), and a failing script stops the server before ready.

  run_init.py --shell build/hbase-shell --server build/hbase-emulator
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SCHEMA = """# fixture schema
create_namespace 'app'
create 'app:users', {NAME => 'info', VERSIONS => 3}, 'stats'
put 'app:users', 'u1', 'info:name', 'Ann', 1000
"""


def start(server, args):
    proc = subprocess.Popen([server, "--port", "0"] + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.match(r"hbase-emulator ready on ([^:]+):(\d+) thrift2=[^:]+:(\d+)", line)
    return proc, m


def stop(proc):
    proc.terminate()
    _, err = proc.communicate(timeout=30)
    return err


def scan(shell, m):
    res = subprocess.run([shell, "--host", m.group(1), "--port", m.group(2), "--thrift2-port",
                          m.group(3), "-Dhbase.shell.timestamp.format.epoch=true",
                          "-e", "scan 'app:users'"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=60)
    return res.returncode, res.stdout


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--server", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "schema.hbase")
        with open(schema, "w") as f:
            f.write(SCHEMA)
        data = os.path.join(tmp, "data")
        want = " u1 column=info:name, timestamp=1000, value=Ann\n1 row(s)\n"

        proc, m = start(args.server, ["--data-dir", data, "--init", schema])
        check(m is not None, "server with --init reports ready")
        rc, out = scan(args.shell, m)
        check(rc == 0 and want in out, "the script's table and row exist at the ready line")
        stop(proc)

        proc, m = start(args.server, ["--data-dir", data, "--init", schema])
        check(m is not None, "a second start over the same data with the same --init is ready")
        rc, out = scan(args.shell, m)
        check(rc == 0 and want in out, "the kept table still holds one row")
        err = stop(proc)
        check("Kept existing table app:users" in err and "Kept existing namespace app" in err,
              "the second run logs what it kept")
        check("hbase:003:0> create 'app:users'" in err,
              "the log shows each command before its output")

        counter = os.path.join(tmp, "counter.hbase")
        with open(counter, "w") as f:
            f.write("create 'c', 'f'\nput 'c', 'r', 'f:a', 'v', 1000\nincr 'c', 'r', 'f:n'\n"
                    "put 'c', 'r', 'f:b', 'v'\n")
        proc, m = start(args.server, ["--in-memory", "--init", counter])
        err = stop(proc)
        check("counter.hbase lines 3 (incr), 4 (put) change data each time" in err,
              "non-idempotent lines are named once")

        bad = os.path.join(tmp, "bad.hbase")
        with open(bad, "w") as f:
            f.write("create 'nowhere:t', 'f'\nlist\n")
        proc, m = start(args.server, ["--in-memory", "--init", bad])
        _, err = proc.communicate(timeout=30)
        check(m is None and proc.returncode != 0, "a failing --init script stops the server")
        check("bad.hbase:1: ERROR: Unknown namespace nowhere!" in err,
              "the failure names the file, the line and gives HBase's error")
    return 0


if __name__ == "__main__":
    sys.exit(main())
