"""1,000 connections held open at once against one server started with no mode flags, in every
client configuration (buffered/framed x binary/compact, and keep-alive Thrift over HTTP): each is
served while all the others stay open, and the server does not spend a thread per connection.

HBEMU_MANY_CONNECTIONS sets the number (default 1000).
"""

import http.client
import os
import resource
import time

import pytest
from thrift.protocol import TBinaryProtocol, TCompactProtocol
from thrift.transport import TSocket, TTransport

import hbcompat

CONNECTIONS = int(os.environ.get("HBEMU_MANY_CONNECTIONS", "1000"))


def raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(hard, needed)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < needed:
        pytest.skip("cannot raise the open-file limit to %d" % needed)


def proc_status(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class SocketClient:
    """A generated Hbase.Client over its own TCP connection in one transport-protocol mode."""

    def __init__(self, host, port, wire):
        from hbase import Hbase

        transport_name, protocol_name = wire.split("-")
        sock = TSocket.TSocket(host, port)
        sock.setTimeout(hbcompat.CLIENT_TIMEOUT_MS)
        if transport_name == "framed":
            self.transport = TTransport.TFramedTransport(sock)
        else:
            self.transport = TTransport.TBufferedTransport(sock)
        if protocol_name == "compact":
            protocol = TCompactProtocol.TCompactProtocol(self.transport)
        else:
            protocol = TBinaryProtocol.TBinaryProtocol(self.transport)
        self.client = Hbase.Client(protocol)
        self.transport.open()

    def get_table_names(self):
        return self.client.getTableNames()

    def close(self):
        self.transport.close()


class KeepAliveHttpClient:
    """Thrift over HTTP on one persistent connection (Python's THttpClient reconnects per call)."""

    def __init__(self, host, port):
        self.conn = http.client.HTTPConnection(host, port, timeout=hbcompat.CLIENT_TIMEOUT_MS / 1000)
        self.conn.connect()

    def get_table_names(self):
        from hbase import Hbase

        out = TTransport.TMemoryBuffer()
        Hbase.Client(TBinaryProtocol.TBinaryProtocol(out)).send_getTableNames()
        self.conn.request("POST", "/", body=out.getvalue(),
                          headers={"Content-Type": "application/x-thrift"})
        response = self.conn.getresponse()
        body = response.read()
        assert response.status == 200, (response.status, body[:200])
        assert response.getheader("Connection") == "keep-alive"
        reply = Hbase.Client(TBinaryProtocol.TBinaryProtocol(TTransport.TMemoryBuffer(body)))
        return reply.recv_getTableNames()

    def close(self):
        self.conn.close()


WIRES = ["buffered-binary", "framed-binary", "buffered-compact", "framed-compact", "http-binary"]


def test_thousand_concurrent_connections_in_every_mode(server_factory, capsys):
    raise_fd_limit(CONNECTIONS + 256)
    server = server_factory()
    pid = server.proc.pid
    threads_idle = proc_status(pid, "Threads")
    started = time.monotonic()
    clients = []
    try:
        for i in range(CONNECTIONS):
            wire = WIRES[i % len(WIRES)]
            if wire == "http-binary":
                clients.append((wire, KeepAliveHttpClient(server.host, server.port)))
            else:
                clients.append((wire, SocketClient(server.host, server.port, wire)))
        # Every connection is open now; each is served twice while all the others stay open.
        calls = 0
        for _ in range(2):
            for wire, client in clients:
                assert client.get_table_names() == [], wire
                calls += 1
        threads_busy = proc_status(pid, "Threads")
        fds = len(os.listdir("/proc/%d/fd" % pid))
        rss = proc_status(pid, "VmRSS")
        assert fds >= CONNECTIONS, "the server should hold every connection open (%d fds)" % fds
        # A thread per connection would show here as 1,000+ threads.
        assert threads_busy <= threads_idle + 4, (threads_idle, threads_busy)
    finally:
        for _, client in clients:
            client.close()
    elapsed = time.monotonic() - started
    with capsys.disabled():
        print("\nmany connections: %d held open at once (%d per mode: %s), %d calls served in "
              "%.1f s; server threads %d idle / %d with all open; %d fds; RSS %.1f MiB"
              % (CONNECTIONS, CONNECTIONS // len(WIRES), ", ".join(WIRES), calls, elapsed,
                 threads_idle, threads_busy, fds, rss / 1024.0))
