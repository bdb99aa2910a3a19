#!/usr/bin/env python3
"""hbase-shell and its connection to the server: no libthrift log line reaches the output; a
connection the server closed while the shell was idle (its idle timeout) or lost to a restart
on the same port is replaced without the user noticing; a read that finds its connection lost
is asked again once, a write is reported as possibly not applied, and the next command works.

  run_connection.py --shell build/hbase-shell --server build/hbase-emulator
"""
import argparse
import os
import pty
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

READY = re.compile(r"hbase-emulator ready on ([^:]+):(\d+) thrift2=[^:]+:(\d+) admin=[^:]+:(\d+)")


def start_server(binary, *flags, ports=None):
    argv = [binary] + list(flags)
    if ports:
        argv += ["--port", ports[0], "--thrift2-port", ports[1], "--admin-port", ports[2]]
    else:
        argv += ["--port", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = READY.match(proc.stdout.readline())
    if not m:
        proc.kill()
        sys.exit("FAIL: server did not report ready")
    return proc, m.groups()


def stop(proc):
    proc.terminate()
    proc.wait(timeout=30)


def check(cond, what, detail=""):
    if not cond:
        print("FAIL:", what)
        print(detail)
        sys.exit(1)
    print("ok:", what)


class TerminalShell:
    """The shell on a terminal (a pty), one command at a time, as a person types them."""

    def __init__(self, shell, host, t1, t2, admin):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            env = dict(os.environ, HOME="/nonexistent", TERM="dumb", TZ="UTC")
            os.execve(shell, [shell, "--host", host, "--port", t1, "--thrift2-port", t2,
                              "--admin-port", admin], env)
        self.prompts = 1
        self.read_until_prompt()

    def read_until_prompt(self, timeout=30):
        out = b""
        want = b"hbase:%03d:0> " % self.prompts
        deadline = time.monotonic() + timeout
        while want not in out:
            left = deadline - time.monotonic()
            if left <= 0:
                sys.exit("FAIL: no prompt %r; got %r" % (want, out))
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    sys.exit("FAIL: the shell ended; got %r" % out)
                out += chunk
        return out.decode(errors="replace")

    def run(self, command):
        os.write(self.fd, command.encode() + b"\r")
        self.prompts += 1
        return self.read_until_prompt()

    def close(self):
        os.write(self.fd, b"exit\r")
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [str(s.getsockname()[1]) for s in socks]
    for s in socks:
        s.close()
    return ports


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell", required=True)
    ap.add_argument("--server", required=True)
    args = ap.parse_args()

    # 1. Nothing listens: the shell's own words, no libthrift line.
    port = free_ports(1)[0]
    res = subprocess.run([args.shell, "--port", port, "--thrift2-port", port, "-e", "list"],
                         capture_output=True, text=True, timeout=60)
    out = res.stdout + res.stderr
    check(res.returncode == 1 and "cannot reach the HBase Thrift server at 127.0.0.1:%s" % port in out
          and "TSocket" not in out and "Thrift:" not in out,
          "an unreachable server is reported in the shell's words, without libthrift's lines", out)

    # 2. The server closes idle connections after 300 ms; the shell sits idle longer.
    proc, (host, t1, t2, admin) = start_server(args.server, "--in-memory", "--idle-timeout-ms", "300")
    try:
        sh = TerminalShell(args.shell, host, t1, t2, admin)
        out = sh.run("create 'idle_t', 'f'")
        check("Created table idle_t" in out, "create before the idle time", out)
        time.sleep(1.0)
        out = sh.run("put 'idle_t', 'r1', 'f:q', 'v1'")
        check("ERROR" not in out, "a write after the server closed the idle connection works", out)
        time.sleep(1.0)
        out = sh.run("get 'idle_t', 'r1'")
        check("value=v1" in out and "ERROR" not in out,
              "a read after the server closed the idle connection works", out)
        time.sleep(1.0)
        out = sh.run("list")
        check("idle_t" in out and "ERROR" not in out and "TSocket" not in out,
              "an admin call after the idle close works", out)
        sh.close()
    finally:
        stop(proc)

    # 3. The server restarts on the same ports (its data kept in a folder).
    ports = free_ports(3)
    data = tempfile.mkdtemp(prefix="hbase-shell-reconnect-")
    try:
        proc, (host, t1, t2, admin) = start_server(args.server, "--data-dir", data, ports=ports)
        sh = TerminalShell(args.shell, host, t1, t2, admin)
        out = sh.run("create 'restart_t', 'f'")
        check("Created table restart_t" in out, "create before the restart", out)
        stop(proc)
        proc, _ = start_server(args.server, "--data-dir", data, ports=ports)
        out = sh.run("put 'restart_t', 'r1', 'f:q', 'v1'")
        check("ERROR" not in out, "a write after a server restart works", out)
        stop(proc)
        proc, _ = start_server(args.server, "--data-dir", data, ports=ports)
        out = sh.run("scan 'restart_t'")
        check("value=v1" in out and "ERROR" not in out, "a read after a server restart works", out)
        sh.close()
        stop(proc)
    finally:
        shutil.rmtree(data, ignore_errors=True)

    # 4. The connection is lost while a call is under way (a fault rule closes it).
    proc, (host, t1, t2, admin) = start_server(args.server, "--in-memory", "--test-controls")
    try:
        sh = TerminalShell(args.shell, host, t1, t2, admin)
        sh.run("create 'lost_t', 'f'")
        sh.run("put 'lost_t', 'r0', 'f:q', 'v0'")
        sh.run("test_faults 'add', {METHOD => 'openScanner', ACTION => 'close_before', TIMES => 1}")
        out = sh.run("scan 'lost_t'")
        check("value=v0" in out and "1 row(s)" in out and "ERROR" not in out,
              "a read whose connection is lost is asked again once and answers", out)
        sh.run("test_faults 'add', {METHOD => 'put', ACTION => 'close_after', TIMES => 1}")
        out = sh.run("put 'lost_t', 'r1', 'f:q', 'v1'")
        check("ERROR: the connection to the HBase Thrift server was lost" in out
              and "the command may or may not have been applied" in out,
              "a write whose connection is lost is reported as possibly not applied", out)
        out = sh.run("get 'lost_t', 'r1'")
        check("value=v1" in out and "ERROR" not in out,
              "the next command works (and shows the write was applied)", out)
        sh.close()
    finally:
        stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
