#!/usr/bin/env python3
"""hbase-shell on a terminal: the start line names the server, Ctrl-C drops the line being
typed and the session goes on (as irb does), Tab completes command names and quoted table
names, Ctrl-C stops a running scan or count and the prompt comes back.

  run_interactive.py --shell build/hbase-shell --server build/hbase-emulator
"""
import argparse
import os
import pty
import re
import select
import subprocess
import sys
import time


def start_server(binary):
    proc = subprocess.Popen([binary, "--port", "0", "--in-memory"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    m = re.match(r"hbase-emulator ready on ([^:]+):(\d+) thrift2=[^:]+:(\d+)",
                 proc.stdout.readline())
    if not m:
        proc.kill()
        sys.exit("server did not report ready")
    return proc, m.groups()


def read_until(fd, pattern, timeout=30):
    """Reads the terminal until `pattern` shows up; returns everything read."""
    out = b""
    deadline = time.monotonic() + timeout
    while pattern.encode() not in out:
        left = deadline - time.monotonic()
        if left <= 0:
            sys.exit("FAIL: no %r on the terminal; got ...%r" % (pattern, out[-3000:].decode(errors="replace")))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out.decode(errors="replace")


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
    server, (host, t1, t2) = start_server(args.server)
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, HOME="/nonexistent", TERM="dumb")
        os.execve(args.shell, [args.shell, "--host", host, "--port", t1, "--thrift2-port", t2],
                  env)
    try:
        banner = read_until(fd, "hbase:001:0> ")
        check("Server: %s (Thrift1 %s, Thrift2 %s), hbase-emulator" % (host, t1, t2) in banner,
              "the start names the server and says it is hbase-emulator")
        os.write(fd, b"create 'completion_table', 'f'\r")
        read_until(fd, "hbase:002:0> ")
        os.write(fd, b"put 'oops")
        read_until(fd, "oops")
        os.write(fd, b"\x03")
        out = read_until(fd, "^C\r\nhbase:002:0> ")
        check(True, "Ctrl-C drops the line and prompts again")
        os.write(fd, b"exis\t'comp\t\r")
        out = read_until(fd, "hbase:003:0> ")
        check("exists 'completion_table'" in out and "Table completion_table does exist" in out,
              "Tab completes a command name, and a table name after a quote with its closing quote")
        os.write(fd, b"exists comp\t\r")
        out = read_until(fd, "hbase:004:0> ")
        check("exists 'completion_table'" in out and "Table completion_table does exist" in out,
              "Tab completes a bare table name as a quoted one")
        # A scan long enough to be interrupted: Ctrl-C stops it and the prompt comes back.
        rows = 30000
        script = os.path.join(os.environ.get("TMPDIR", "/tmp"), "interactive_rows_%d.hbase" % os.getpid())
        with open(script, "w") as f:
            f.write("create 'long_scan', 'f'\n")
            for i in range(rows):
                f.write("put 'long_scan', 'r%06d', 'f:q', 'v'\n" % i)
        try:
            subprocess.run([args.shell, "--host", host, "--port", t1, "--thrift2-port", t2, script],
                           check=True, stdout=subprocess.DEVNULL, timeout=120)
        finally:
            os.unlink(script)
        # Not reading the terminal while the scan prints makes it wait on a full terminal: the
        # Ctrl-C surely comes while it runs.
        os.write(fd, b"scan 'long_scan'\r")
        read_until(fd, "COLUMN+CELL")
        time.sleep(0.5)
        os.write(fd, b"\x03")
        out = read_until(fd, "hbase:005:0> ", timeout=60)
        check("Interrupted (Ctrl-C) after " in out and "%d row(s)" % rows not in out
              and "r%06d" % (rows - 1) not in out,
              "Ctrl-C stops a running scan and the prompt comes back")
        os.write(fd, b"count 'long_scan', INTERVAL => 1\r")
        read_until(fd, "Current count: 1,")
        time.sleep(0.5)
        os.write(fd, b"\x03")
        out = read_until(fd, "hbase:006:0> ", timeout=60)
        check("Interrupted (Ctrl-C) after " in out and "%d row(s)" % rows not in out,
              "Ctrl-C stops a running count")
        os.write(fd, b"exists 'long_scan'\r")
        out = read_until(fd, "hbase:007:0> ")
        check("Table long_scan does exist" in out, "the session goes on after an interrupt")
        os.write(fd, b"exit\r")
        _, status = os.waitpid(pid, 0)
        check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "exit ends the session")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
