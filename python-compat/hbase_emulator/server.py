"""Starts an hbase-emulator process on free ports and waits for its readiness line.

The server prints one line when it accepts calls:
    hbase-emulator ready on HOST:PORT thrift2=HOST:PORT
(Thrift1 first, then every other port as " name=HOST:PORT").
"""

import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from . import bundled

READY_RE = re.compile(r"^hbase-emulator ready on (?P<host>[^\s:]+|\[[^\]]+\]):(?P<port>\d+)"
                      r"(?P<others>(?:\s+[a-z0-9]+=\S+)*)\s*$")
OTHER_PORT_RE = re.compile(r"([a-z0-9]+)=(?:[^\s:]+|\[[^\]]+\]):(\d+)")
# The server's log line for a failed --init script: "FILE:LINE: the shell's error", possibly
# continued on lines of its own (a log line starts with glog's "E1129 06:49:40.173642 ...").
INIT_FAILED_RE = re.compile(r"--init failed: (?P<where>.+?):(?P<line>\d+): (?P<error>.*)")
LOG_LINE_RE = re.compile(r"^[IWEF]\d{4,8} \d\d:\d\d:\d\d")
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0
BINARY_NAME = "hbase-emulator"


def parse_ready_line(line):
    """(host, {"thrift1": port, "thrift2": port, ...}) for a readiness line, else None."""
    m = READY_RE.match(line)
    if not m:
        return None
    ports = {"thrift1": int(m.group("port"))}
    for name, port in OTHER_PORT_RE.findall(m.group("others")):
        ports[name] = int(port)
    return m.group("host").strip("[]"), ports


def find_binary(explicit=None, search_from=None):
    """The server binary: `explicit`, else $HBASE_EMULATOR_BIN, else the one bundled in this package
    (the wheel's hbase_emulator/bin), else `hbase-emulator` on PATH, else build/hbase-emulator in
    `search_from` or one of its parents (a checkout of the repo).

    A binary named explicitly (argument or environment) must exist: no silent fallback to another.
    Raises FileNotFoundError naming the places looked at.
    """
    for how, candidate in (("given", explicit), ("HBASE_EMULATOR_BIN", os.environ.get("HBASE_EMULATOR_BIN"))):
        if candidate:
            path = Path(candidate).expanduser()
            if path.is_file() and os.access(str(path), os.X_OK):
                return path.resolve()
            raise FileNotFoundError("hbase-emulator binary not found at %s (%s)" % (path, how))
    bundled_binary = bundled.binary(BINARY_NAME)
    if bundled_binary:
        return bundled_binary
    on_path = shutil.which(BINARY_NAME)
    if on_path:
        return Path(on_path)
    looked = ["%s (bundled)" % (bundled.BIN_DIR / BINARY_NAME), "%s on PATH" % BINARY_NAME]
    starts = [Path(search_from)] if search_from else []
    starts.append(Path(__file__).resolve().parent)
    for start in starts:
        for folder in [start.resolve()] + list(start.resolve().parents):
            path = folder / "build" / BINARY_NAME
            if path.is_file() and os.access(str(path), os.X_OK):
                return path
        looked.append("build/%s in %s and its parents" % (BINARY_NAME, start))
    raise FileNotFoundError("hbase-emulator binary not found; looked at: " + "; ".join(looked))


class StartError(RuntimeError):
    """The server did not become ready; the message says why first."""


def init_failure(stderr_text):
    """'FILE:LINE: <the line>' and the error, for a server that stopped at a failing --init
    line; None when the log shows no such failure."""
    lines = stderr_text.splitlines()
    for i, text in enumerate(lines):
        m = INIT_FAILED_RE.search(text)
        if not m:
            continue
        error = [m.group("error")]
        for more in lines[i + 1:]:
            if LOG_LINE_RE.match(more):
                break
            error.append(more)
        where, number = m.group("where"), int(m.group("line"))
        try:
            with open(where, encoding="utf-8", errors="replace") as f:
                source = f.read().splitlines()[number - 1].strip()
        except (OSError, IndexError):
            source = None
        head = "%s:%d: %s" % (where, number, source) if source else "%s:%d" % (where, number)
        return "%s\n%s" % (head, "\n".join(e for e in error if e.strip()))
    return None


class EmulatorServer:
    """One hbase-emulator process. `start()` returns once it is ready; `stop()` ends it."""

    def __init__(self, binary, args=(), ready_timeout=READY_TIMEOUT_S):
        self.binary = Path(binary)
        self.args = [str(a) for a in args]
        self.ready_timeout = ready_timeout
        self.proc = None
        self.host = None
        self.ports = {}
        self._stderr = None
        self._lines = queue.Queue()

    @property
    def argv(self):
        return [str(self.binary)] + self.args

    @property
    def port(self):
        """The Thrift1 port (happybase)."""
        return self.ports.get("thrift1")

    @property
    def thrift2_port(self):
        return self.ports.get("thrift2")

    def stderr_text(self, limit=6000):
        if self._stderr is None:
            return ""
        try:
            with open(self._stderr.name, "rb") as f:
                data = f.read()
        except OSError:
            return ""
        text = data.decode("utf-8", "replace")
        return text if len(text) <= limit else "...\n" + text[-limit:]

    def _pump_stdout(self):
        # Drains stdout for the whole life of the process so the server never blocks on a full pipe.
        for raw in iter(self.proc.stdout.readline, b""):
            self._lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self._lines.put(None)

    def start(self):
        self._stderr = tempfile.NamedTemporaryFile(prefix="hbase-emulator-", suffix=".stderr",
                                                   delete=False)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self._stderr)
        threading.Thread(target=self._pump_stdout, name="hbase-emulator-stdout", daemon=True).start()
        deadline = time.monotonic() + self.ready_timeout
        seen = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail("no readiness line within %.0f s" % self.ready_timeout, seen)
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
                self._fail("it exited before the readiness line (exit code %s)" % self.proc.poll(), seen)
            seen.append(line)
            parsed = parse_ready_line(line)
            if parsed:
                self.host, self.ports = parsed
                return self

    def _fail(self, why, seen):
        self.kill()
        log = self.stderr_text()
        details = ("hbase-emulator did not become ready: %s\n  command: %s\n  stdout: %r\n"
                   "  stderr:\n%s" % (why, " ".join(self.argv), seen[-10:], log))
        failed_init = init_failure(log)
        if failed_init:
            # What the user must fix comes first; the whole log follows for the rest.
            details = "hbase-emulator --init failed at %s\n\n%s" % (failed_init, details)
        raise StartError(details)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout=STOP_TIMEOUT_S):
        """SIGTERM, wait, then SIGKILL. Returns the exit code (negative if killed by a signal)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.returncode == 0:
            self._discard_log()
        return self.proc.returncode

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait()

    def _discard_log(self):
        if self._stderr is not None:
            self._stderr.close()
            try:
                os.unlink(self._stderr.name)
            except OSError:
                pass
