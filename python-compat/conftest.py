"""Fixtures for the compatibility suite.

* `hbase_endpoint` (session): the server every test talks to. By default the built binary
  (HBASE_EMULATOR_BIN, else build/hbase-emulator) started with `--in-memory --port 0`; with
  HBASE_THRIFT_TARGET=host:port no server is started and that endpoint (e.g. a real HBase Thrift
  server) is used instead.
* `server_factory`: starts extra emulators (own --data-dir / flags) and stops them at teardown;
  tests that use it skip themselves when HBASE_THRIFT_TARGET is set.
* `connection` (happybase), `raw_client` (Apache Thrift, generated `hbase.Hbase.Client`),
  `hb_table` / `raw_table` factories that create uniquely named tables and drop them afterwards.
* `thrift2_client` (Apache Thrift, generated `hbase2.THBaseService.Client` on the Thrift2 port;
  with HBASE_THRIFT_TARGET set, HBASE_THRIFT2_TARGET=host:port names the Thrift2 gateway) and the
  `thrift2_table` factory (tables created with Thrift2 createTable, dropped afterwards).
* `rest_url` (session): "http://HOST:PORT" of the REST gateway under test: HBASE_REST_TARGET=host:port
  (e.g. HBase's own gateway) when set, else the `rest` port of the suite's own server.
* `happybase_wire` / `raw_wire` / `thrift2_wire`: every test that uses a happybase connection runs once per
  transport x protocol (buffered/framed x binary/compact), and every raw-Thrift test once over a
  socket and once over HTTP, all against the one server started with no mode flags.
"""

import collections

import pytest

import hbcompat

# The generated `hbase` package must be importable before the test modules are collected.
hbcompat.ensure_generated_hbase_module()

# port: Thrift1; thrift2_port: Thrift2 (None when the target serves no Thrift2); rest_port: the
# REST gateway of the suite's own server (None for an external target).
Endpoint = collections.namedtuple("Endpoint", "host port managed thrift2_port rest_port",
                                  defaults=(None,))


_session_servers = []


_died_during = []


@pytest.fixture(autouse=True)
def _session_server_must_survive_each_test(request):
    """Names the test during which the shared server died, and fails later tests fast with that
    name instead of a bare 'connection refused'."""
    if _died_during:
        pytest.fail("the session hbase-emulator died earlier, during %s" % _died_during[0],
                    pytrace=False)
    alive_before = [s for s in _session_servers if s.alive()]
    yield
    for server in alive_before:
        if not server.alive():
            _died_during.append(request.node.nodeid)
            pytest.fail("the session hbase-emulator died during this test (exit code %s); stderr tail:\n%s"
                        % (server.proc.returncode, server.stderr_text()), pytrace=False)


@pytest.fixture(scope="module")
def module_server():
    """An in-memory hbase-emulator of the module's own, for tests that run its tools against a
    server they may fill freely; skipped when the suite targets another server."""
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"]).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def hbase_endpoint():
    target = hbcompat.external_target()
    if target is not None:
        target2 = hbcompat.external_thrift2_target()
        yield Endpoint(target[0], target[1], False, target2[1] if target2 else None)
        return
    server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0"])
    server.start()
    _session_servers.append(server)
    try:
        yield Endpoint(server.host, server.port, True, server.thrift2_port, server.ports.get("rest"))
    finally:
        _session_servers.remove(server)
        rc = server.stop()
        # A crash during the session shows up here rather than as a puzzling client error.
        if rc not in (0, None):
            print("\nsession hbase-emulator exited with %s; stderr tail:\n%s" % (rc, server.stderr_text()))


@pytest.fixture
def server_factory(tmp_path):
    """start(data_dir=None, flags=()) -> a ready EmulatorProcess; all are stopped at teardown.

    Without data_dir the server runs --in-memory. `--port 0` is always added.
    """
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    started = []

    def start(data_dir=None, flags=()):
        args = ["--port", "0"]
        if data_dir is None:
            args.append("--in-memory")
        else:
            args += ["--data-dir", str(data_dir)]
        args += list(flags)
        server = hbcompat.EmulatorProcess(args)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture(params=hbcompat.HAPPYBASE_WIRES)
def happybase_wire(request):
    """The transport-protocol this test's happybase connections use."""
    hbcompat.skip_unless_target_serves(request.param)
    return request.param


@pytest.fixture
def happybase_options(happybase_wire):
    """happybase.Connection keyword arguments for this test's wire mode."""
    return hbcompat.happybase_options(happybase_wire)


@pytest.fixture(params=hbcompat.RAW_WIRES)
def raw_wire(request):
    """How this test's raw client reaches the server: a socket, or Thrift over HTTP."""
    hbcompat.skip_unless_target_serves(request.param)
    return request.param


@pytest.fixture
def connection(hbase_endpoint, happybase_options):
    import happybase

    conn = happybase.Connection(hbase_endpoint.host, hbase_endpoint.port, **happybase_options)
    yield conn
    conn.close()


@pytest.fixture
def raw_client(hbase_endpoint, raw_wire):
    from hbase import Hbase

    client, transport = hbcompat.open_raw_client(hbase_endpoint.host, hbase_endpoint.port, Hbase,
                                                 wire=raw_wire)
    yield client
    transport.close()


def _drop_tables(endpoint, names):
    """Best-effort cleanup over a fresh connection (the test's own may be broken)."""
    if not names:
        return
    from hbase import Hbase

    try:
        client, transport = hbcompat.open_raw_client(endpoint.host, endpoint.port, Hbase)
    except Exception:
        return
    try:
        for name in names:
            try:
                if client.isTableEnabled(name):
                    client.disableTable(name)
            except Exception:
                pass
            try:
                client.deleteTable(name)
            except Exception:
                pass
    finally:
        transport.close()


DEFAULT_HB_FAMILIES = {
    "cf1": {"max_versions": 10},
    "cf2": {},
    "cf3": {"max_versions": 1},
}


@pytest.fixture
def hb_table(connection, hbase_endpoint):
    """make(families=None, tag='t') -> happybase Table on a fresh uniquely named table."""
    created = []

    def make(families=None, tag="t"):
        name = hbcompat.unique_table_name(tag)
        connection.create_table(name, families or DEFAULT_HB_FAMILIES)
        created.append(name.encode())
        return connection.table(name)

    yield make
    _drop_tables(hbase_endpoint, created)


@pytest.fixture
def raw_table(raw_client, hbase_endpoint):
    """make(families=('f',), tag='t', **descriptor_fields) -> table name (bytes), created with
    Thrift1 `createTable` and IDL-default ColumnDescriptors (maxVersions 3)."""
    from hbase.ttypes import ColumnDescriptor

    created = []

    def make(families=("f",), tag="t", **fields):
        name = hbcompat.unique_table_name(tag).encode()
        descs = [ColumnDescriptor(name=f.encode() + b":", **fields) for f in families]
        raw_client.createTable(name, descs)
        created.append(name)
        return name

    yield make
    _drop_tables(hbase_endpoint, created)


@pytest.fixture(params=hbcompat.THRIFT2_WIRES)
def thrift2_wire(request):
    """How this test's Thrift2 client reaches the server."""
    hbcompat.skip_unless_target_serves(request.param)
    return request.param


def _open_thrift2(endpoint, wire="buffered-binary"):
    from hbase2 import THBaseService

    if endpoint.thrift2_port is None:
        pytest.skip("the target serves no Thrift2 (set HBASE_THRIFT2_TARGET)")
    return hbcompat.open_raw_client(endpoint.host, endpoint.thrift2_port, THBaseService, wire=wire)


@pytest.fixture
def thrift2_client(hbase_endpoint, thrift2_wire):
    client, transport = _open_thrift2(hbase_endpoint, thrift2_wire)
    yield client
    transport.close()


@pytest.fixture
def thrift2_table(thrift2_client, hbase_endpoint):
    """make(families=("f",), tag="t", ns=None, split_keys=None, **family_fields) -> the table's
    full name (bytes, "ns:t" or "t"), created with Thrift2 createTable."""
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableDescriptor, TTableName

    created = []

    def make(families=("f",), tag="t", ns=None, split_keys=None, **fields):
        qualifier = hbcompat.unique_table_name(tag).encode()
        name = TTableName(ns=ns.encode() if ns else None, qualifier=qualifier)
        columns = [TColumnFamilyDescriptor(name=f.encode(), **fields) for f in families]
        thrift2_client.createTable(TTableDescriptor(tableName=name, columns=columns), split_keys)
        created.append(name)
        return (ns.encode() + b":" + qualifier) if ns else qualifier

    yield make
    if not created:
        return
    try:
        client, transport = _open_thrift2(hbase_endpoint)
    except Exception:
        return
    try:
        for name in created:
            for call in (client.disableTable, client.deleteTable):
                try:
                    call(name)
                except Exception:
                    pass
    finally:
        transport.close()


@pytest.fixture(scope="session")
def rest_url(request):
    target = hbcompat.external_rest_target()
    if target is None:
        endpoint = request.getfixturevalue("hbase_endpoint")
        if not endpoint.managed:
            pytest.skip("the target serves no REST gateway (set HBASE_REST_TARGET)")
        if endpoint.rest_port is None:
            pytest.fail("the emulator's ready line names no rest port", pytrace=False)
        target = (endpoint.host, endpoint.rest_port)
    host = "[%s]" % target[0] if ":" in target[0] else target[0]
    return "http://%s:%d" % (host, target[1])
