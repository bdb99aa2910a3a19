"""Shared helpers for the Python compatibility suite (imported by conftest.py and the tests).

Nothing here talks to a specific server: it starts/stops the emulator binary, generates Python
code from Thrift IDL files, and opens raw Apache Thrift clients.
"""

import os
import shlex
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
IDL = REPO / "thrift" / "Hbase.thrift"
IDL2 = REPO / "thrift" / "THBaseService.thrift"

# The installable package's server runner: the readiness line is parsed and a failed start
# explained in one place.
from hbase_emulator.server import EmulatorServer  # noqa: E402
READY_TIMEOUT_S = 10.0
# Socket timeout for every client the suite opens, so a hung server fails a test instead of the run.
CLIENT_TIMEOUT_MS = 30000


def proc_status_kib(pid, field):
    """A size field of /proc/<pid>/status (VmRSS, VmHWM, ...) in KiB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError("no %s for pid %d" % (field, pid))


def server_rss_mib(pid):
    """The server's resident memory in MiB for a stated bound, or 0 under a sanitizer: ASan's
    quarantine and shadow memory grow RSS by design, so the bounds are checked on the release
    build only (crashes, bystanders and errors are still checked under ASan)."""
    if os.environ.get("HBEMU_UNDER_SANITIZER") == "1":
        return 0
    return proc_status_kib(pid, "VmRSS") / 1024.0


def emulator_bin():
    return Path(os.environ.get("HBASE_EMULATOR_BIN") or REPO / "build" / "hbase-emulator")


def external_thrift2_target():
    """(host, port) from HBASE_THRIFT2_TARGET=host:port (a real HBase's Thrift2 gateway), or None."""
    target = os.environ.get("HBASE_THRIFT2_TARGET", "").strip()
    if not target:
        return None
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError("HBASE_THRIFT2_TARGET must look like host:port, got %r" % target)
    return host.strip("[]"), int(port)


def external_rest_target():
    """(host, port) from HBASE_REST_TARGET=host:port (a real HBase REST gateway), or None when the
    REST tests use the `rest` port of the suite's own server."""
    target = os.environ.get("HBASE_REST_TARGET", "").strip()
    if not target:
        return None
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError("HBASE_REST_TARGET must look like host:port, got %r" % target)
    return host.strip("[]"), int(port)


def external_target():
    """(host, port) from HBASE_THRIFT_TARGET=host:port, or None when the suite runs its own server."""
    target = os.environ.get("HBASE_THRIFT_TARGET", "").strip()
    if not target:
        return None
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError("HBASE_THRIFT_TARGET must look like host:port, got %r" % target)
    return host.strip("[]"), int(port)


# The wire modes the suite runs its clients in, as "<transport>-<protocol>". The emulator serves
# them all on one port; an external server (HBASE_THRIFT_TARGET) serves the one named by
# HBASE_THRIFT_TARGET_WIRE (default buffered-binary, HBase's default), and tests in other modes
# skip themselves.
HAPPYBASE_WIRES = ["buffered-binary", "framed-binary", "buffered-compact", "framed-compact"]
RAW_WIRES = ["buffered-binary", "http-binary"]
# Thrift2 clients: both transports, both protocols and HTTP, in three runs.
THRIFT2_WIRES = ["buffered-binary", "framed-compact", "http-binary"]


def skip_unless_target_serves(wire):
    """Skips the calling test when an external target does not serve `wire`."""
    import pytest

    if external_target() is None:
        return
    served = os.environ.get("HBASE_THRIFT_TARGET_WIRE", "buffered-binary").strip()
    if wire != served:
        pytest.skip("HBASE_THRIFT_TARGET serves %s, not %s" % (served, wire))


def happybase_options(wire):
    """Keyword arguments for happybase.Connection in `wire` mode ("framed-compact" etc.)."""
    transport, protocol = wire.split("-")
    return {"transport": transport, "protocol": protocol, "timeout": CLIENT_TIMEOUT_MS}


RESTART_SKIP_REASON = ("needs to start and restart its own hbase-emulator; "
                       "HBASE_THRIFT_TARGET points the suite at an external server")


def unique_table_name(tag="t"):
    """A table name that is legal in HBase and unique per call (tests never share tables)."""
    return "hbc_%s_%s" % (tag, uuid.uuid4().hex[:12])


def extra_flags():
    """Flags added to every server the suite starts (HBEMU_EXTRA_FLAGS, shell words; the server
    takes a flag given twice): CI runs the hostile files again with --test-controls under ASan
    and UBSan, as the pytest plugin starts its servers."""
    return shlex.split(os.environ.get("HBEMU_EXTRA_FLAGS", ""))


class EmulatorProcess(EmulatorServer):
    """One hbase-emulator process of the suite's: the package's own server runner, given the
    suite's binary and its extra flags (HBEMU_EXTRA_FLAGS)."""

    def __init__(self, args, binary=None, ready_timeout=READY_TIMEOUT_S):
        super().__init__(Path(binary or emulator_bin()), [str(a) for a in args] + extra_flags(),
                         ready_timeout)

    def start(self):
        if not self.binary.is_file():
            raise RuntimeError("hbase-emulator binary not found at %s (set HBASE_EMULATOR_BIN or build it)"
                               % self.binary)
        return super().start()

    def discard_log(self):
        """Stderr is kept in a temp file only while it may explain a failure."""
        self._discard_log()


def generate_thrift_py(idl_path, out_dir):
    """Runs `thrift --gen py` for idl_path into out_dir (created if needed); returns out_dir."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [os.environ.get("THRIFT", "thrift"), "--gen", "py", "-out", str(out_dir), str(idl_path)]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise RuntimeError("the Thrift compiler (`thrift`) is not on PATH; install thrift-compiler")
    except subprocess.CalledProcessError as e:
        raise RuntimeError("%s failed:\n%s%s" % (" ".join(cmd), e.stdout, e.stderr))
    return out_dir


def ensure_generated_hbase_module():
    """Puts the packages generated from thrift/Hbase.thrift (`hbase`) and
    thrift/THBaseService.thrift (`hbase2`) on sys.path.

    run.sh generates it once and passes HBASE_COMPAT_GEN_PY; a bare `pytest` run generates it into
    a temporary directory instead.
    """
    gen = os.environ.get("HBASE_COMPAT_GEN_PY")
    if (not gen or not (Path(gen) / "hbase" / "Hbase.py").is_file()
            or not (Path(gen) / "hbase2" / "THBaseService.py").is_file()):
        gen = tempfile.mkdtemp(prefix="hbase-gen-py-")
        generate_thrift_py(IDL, gen)
        generate_thrift_py(IDL2, gen)
        os.environ["HBASE_COMPAT_GEN_PY"] = gen
    if gen not in sys.path:
        sys.path.insert(0, gen)
    return gen


def open_raw_client(host, port, client_module, wire="buffered-binary", timeout_ms=None):
    """<client_module>.Client, opened, in `wire` mode: "<buffered|framed>-<binary|compact>" over a
    TSocket, or "http-binary" with THttpClient (one POST per call, as against HBase's HTTP mode).
    `timeout_ms` replaces the suite's socket timeout for a call HBase answers slowly.

    Returns (client, transport); close the transport when done.
    """
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.transport import THttpClient, TSocket, TTransport

    if wire == "http-binary":
        transport = THttpClient.THttpClient("http://%s:%d/" % (host, port))
        transport.setTimeout(timeout_ms or CLIENT_TIMEOUT_MS)
    else:
        framing, _, _ = wire.partition("-")
        if framing not in ("buffered", "framed"):
            raise ValueError("unknown wire mode %r" % wire)
        sock = TSocket.TSocket(host, port)
        sock.setTimeout(timeout_ms or CLIENT_TIMEOUT_MS)
        transport = (TTransport.TFramedTransport(sock) if framing == "framed"
                     else TTransport.TBufferedTransport(sock))
    if wire.endswith("-compact"):
        protocol = TCompactProtocol.TCompactProtocol(transport)
    else:
        protocol = TBinaryProtocol.TBinaryProtocol(transport)
    client = client_module.Client(protocol)
    transport.open()
    return client, transport


def text(value):
    """Exception messages come back as bytes (happybase/thriftpy2) or str (Apache Thrift)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)
