#!/usr/bin/env python3
"""hbase-shell on a terminal: the start line names the server, Ctrl-C drops the line being
typed and the session goes on (as irb does), Tab completes command and table names.

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
            sys.exit("FAIL: no %r on the terminal; got %r" % (pattern, out.decode(errors="replace")))
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
        os.write(fd, b"exis\t'comp\t'\r")
        out = read_until(fd, "hbase:003:0> ")
        check("Table completion_table does exist" in out,
              "Tab completes a command name and a table name")
        os.write(fd, b"exit\r")
        _, status = os.waitpid(pid, 0)
        check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "exit ends the session")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
