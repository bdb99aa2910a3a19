"""Shared by the test_controls_* tests: a server started with --test-controls and its clients."""

import happybase
import pytest

import hbcompat
from hbase_emulator.controls import Controls


class ControlledServer:
    def __init__(self, process):
        self.process = process
        self.controls = Controls(process.host, process.ports["admin"])
        self._connections = []

    def happybase(self, **kwargs):
        conn = happybase.Connection(self.process.host, self.process.port, **kwargs)
        self._connections.append(conn)
        return conn

    def thrift2(self):
        from hbase_emulator import thrift2

        client = thrift2.connect(self.process.host, self.process.thrift2_port)
        self._connections.append(client)
        return client

    def close(self):
        for c in self._connections:
            try:
                c.close()
            except Exception:
                pass


@pytest.fixture
def controlled(server_factory):
    server = ControlledServer(server_factory(flags=["--test-controls"]))
    yield server
    server.close()


def table_name(tag):
    return hbcompat.unique_table_name(tag)
