"""Hostile use of the admin console and the metrics behind it (issue 20): pages over huge values
and huge rows, made-up and non-UTF-8 method names, dropped tables and more tables than the
metrics keep. Each test starts its own server, attacks it, and asserts that the process is
alive, that a bystander Thrift connection opened before the attack still gets answers, that the
server's RSS stays under a stated bound, and what the client gets (server/limits.h:
admin_page_bytes, admin_value_bytes, admin_page_cells, metric_tables).
"""

import json
import socket
import struct
import threading
import time
import urllib.error
import urllib.request

import pytest

from hbase import Hbase
from hbase.ttypes import BatchMutation, ColumnDescriptor, Mutation

import hbcompat

MIB = 1 << 20
PAGE_BYTES = 4 * MIB     # admin_page_bytes default
VALUE_BYTES = 1024       # admin_value_bytes default
PAGE_CELLS = 20000       # admin_page_cells default


def fetch(server, path, host=None):
    """(status, body bytes) of a GET on the admin port."""
    url = "http://%s:%d%s" % (host or server.host, server.ports["admin"], path)
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def fetch_json(server, path):
    status, body = fetch(server, path)
    assert status == 200, (path, status, body[:300])
    return json.loads(body), len(body)


class Bystander:
    """A Thrift1 client connected before the attack; it must keep getting answers."""

    def __init__(self, server):
        self.server = server
        self.client, self.transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
        self.client.getTableNames()

    def check(self):
        assert self.server.alive(), "the server died:\n" + self.server.stderr_text()
        assert isinstance(self.client.getTableNames(), list)

    def close(self):
        self.transport.close()


@pytest.fixture
def server(server_factory):
    return server_factory()


@pytest.fixture
def bystander(server):
    b = Bystander(server)
    yield b
    b.close()


@pytest.fixture
def client(server):
    c, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    yield c
    transport.close()


def create(client, name, families=(b"f",)):
    client.createTable(name, [ColumnDescriptor(name=f + b":", maxVersions=1) for f in families])


# --------------------------------------------------------------------------------------------
# The data browser: a byte budget per page, values cut, the cell cap checked per cell


def test_a_page_of_huge_values_shows_their_first_bytes_within_the_page_budget(server, bystander, client):
    create(client, b"big")
    value = bytes(range(256)) * (5 * MIB // 256)  # 5 MiB, every byte value
    for first in range(0, 20, 4):
        client.mutateRows(b"big", [BatchMutation(row=b"row%02d" % i,
                                                 mutations=[Mutation(column=b"f:q", value=value)])
                                   for i in range(first, first + 4)], {})
    before = hbcompat.server_rss_mib(server.proc.pid)

    page, size = fetch_json(server, "/api/tables/big/rows?limit=20")
    assert size <= PAGE_BYTES
    cells = [c for r in page["rows"] for c in r["cells"]]
    assert [r["key"] for r in page["rows"]] == ["row%02d" % i for i in range(20)]
    for c in cells:
        assert c["length"] == len(value) and c["truncated"] is True
        assert c["hex"] == value[:VALUE_BYTES].hex()
    assert "next_cursor" not in page

    for fmt in ("text", "hex"):
        status, html = fetch(server, "/browse/big?limit=20&format=" + fmt)
        assert status == 200 and len(html) <= PAGE_BYTES
        assert html.count(b'class="cell"') == 20
        assert b"(%d bytes)" % len(value) in html

    after = hbcompat.server_rss_mib(server.proc.pid)
    # Main answered this with a 700 MB body and RSS +1.97 GiB, held afterwards.
    assert after - before < 64, (before, after)
    bystander.check()


def test_a_row_of_100k_cells_is_cut_with_a_cursor_that_goes_on(server, bystander, client):
    create(client, b"wide")
    columns = 100000
    for first in range(0, columns, 10000):
        client.mutateRow(b"wide", b"w", [Mutation(column=b"f:%06d" % i, value=b"v%d" % i)
                                         for i in range(first, first + 10000)], {})
    client.mutateRow(b"wide", b"x", [Mutation(column=b"f:q", value=b"after")], {})
    before = hbcompat.server_rss_mib(server.proc.pid)

    seen = []
    path = "/api/tables/wide/rows?limit=1"
    pages = 0
    while True:
        page, size = fetch_json(server, path)
        pages += 1
        assert size <= PAGE_BYTES
        cells = [c for r in page["rows"] for c in r["cells"]]
        assert 0 < len(cells) <= PAGE_CELLS
        seen += [c["qualifier"] for r in page["rows"] for c in r["cells"] if r["key"] == "w"]
        if "next_cursor" not in page or not page["row_continues"]:
            break
        assert page["ended_by"] in ("admin_page_cells", "admin_page_bytes")
        path = "/api/tables/wide/rows?limit=1&cursor=" + page["next_cursor"]
    assert pages >= 5
    assert seen == ["%06d" % i for i in range(columns)], "every cell once, in order"
    assert page["next_start"] == "x"

    # The HTML page says where it stopped and links to the rest of the row.
    status, html = fetch(server, "/browse/wide?limit=1")
    assert status == 200 and len(html) <= PAGE_BYTES
    assert b'id="page-ended"' in html and b'id="next-page"' in html and b"?cursor=" in html

    assert hbcompat.server_rss_mib(server.proc.pid) - before < 96
    bystander.check()


# --------------------------------------------------------------------------------------------
# Metrics: known methods only, any bytes in a name, existing tables only


VERSION_1 = 0x80010000


def call_message(name, seqid):
    return struct.pack(">Ii", VERSION_1 | 1, len(name)) + name + struct.pack(">i", seqid) + b"\x00"


def send_calls(server, names):
    """Sends one empty call per name on one buffered-binary connection (pipelined) and reads
    every reply."""
    s = socket.create_connection((server.host, server.port), timeout=120)
    replies = {"bytes": 0}
    done = threading.Event()

    def drain():
        try:
            while True:
                chunk = s.recv(1 << 16)
                if not chunk:
                    break
                replies["bytes"] += len(chunk)
        except OSError:
            pass
        done.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    batch = []
    for seqid, name in enumerate(names):
        batch.append(call_message(name, seqid))
        if len(batch) == 1000:
            s.sendall(b"".join(batch))
            batch = []
    s.sendall(b"".join(batch))
    s.shutdown(socket.SHUT_WR)
    assert done.wait(300), "the server did not answer every call"
    s.close()
    return replies["bytes"]


def unknown_calls(server):
    text = fetch(server, "/metrics")[1].decode()
    line = 'hbase_emulator_calls_total{service="thrift1",method="unknown",outcome="error"} '
    for l in text.splitlines():
        if l.startswith(line):
            return int(l[len(line):])
    return 0


def unknown_method_reply(server, name):
    """The type of the TApplicationException a call of `name` gets (None for another reply).
    Read by hand: the reply echoes the name, which need not be UTF-8."""
    with socket.create_connection((server.host, server.port), timeout=30) as s:
        s.sendall(call_message(name, 7))
        data = b""

        def need(n):
            nonlocal data
            while len(data) < n:
                chunk = s.recv(65536)
                assert chunk, "connection closed before the reply"
                data += chunk

        need(8)
        version, length = struct.unpack(">Ii", data[:8])
        need(8 + length + 4)
        if version & 0xFF != 3 or struct.unpack(">i", data[8 + length:12 + length])[0] != 7:
            return None  # not an exception for this call
        pos = 12 + length
        while True:
            need(pos + 1)
            ftype = data[pos]
            if ftype == 0:
                return None
            need(pos + 3)
            fid = struct.unpack(">h", data[pos + 1:pos + 3])[0]
            pos += 3
            if ftype == 11:  # message
                need(pos + 4)
                pos += 4 + struct.unpack(">i", data[pos:pos + 4])[0]
            elif ftype == 8:
                need(pos + 4)
                value = struct.unpack(">i", data[pos:pos + 4])[0]
                pos += 4
                if fid == 2:
                    return value
            else:
                return None


def test_100k_made_up_method_names_count_as_one_unknown_series(server, bystander):
    from thrift.Thrift import TApplicationException

    assert unknown_method_reply(server, b"madeUp") == TApplicationException.UNKNOWN_METHOD
    before = hbcompat.server_rss_mib(server.proc.pid)
    replied = send_calls(server, [b"madeUp%06d" % i for i in range(100000)])
    assert replied > 100000 * 20, "each call gets its unknown-method reply"

    status, text = fetch(server, "/metrics")
    assert status == 200
    # Main grew /metrics to 205 MB here, and RSS by 54 MB.
    assert len(text) < 256 << 10, len(text)
    assert b"madeUp" not in text
    assert unknown_calls(server) == 100001
    overview, _ = fetch_json(server, "/api/overview")
    assert not any(m["method"].startswith("madeUp") for m in overview["methods"])
    assert fetch(server, "/")[0] == 200
    assert hbcompat.server_rss_mib(server.proc.pid) - before < 24
    bystander.check()


def test_a_non_utf8_method_name_leaves_every_page_answering(server, bystander):
    from thrift.Thrift import TApplicationException

    assert unknown_method_reply(server, b"\xff\xfe") == TApplicationException.UNKNOWN_METHOD
    send_calls(server, [b"\xff\xfe\x80bad", b"ok\xc0\xafname", b"getRow\xed\xa0\x80"])
    for path in ("/api/overview", "/", "/metrics", "/api/tables", "/tables"):
        status, body = fetch(server, path)
        assert status == 200, (path, body[:300])
        body.decode("utf-8")  # every answer is UTF-8 text
    overview, _ = fetch_json(server, "/api/overview")
    assert {(m["service"], m["method"]) for m in overview["methods"]} >= {("thrift1", "unknown")}
    assert unknown_calls(server) == 4
    bystander.check()


def table_series(server):
    text = fetch(server, "/metrics")[1].decode()
    names = set()
    for line in text.splitlines():
        if line.startswith("hbase_emulator_table_rows_written_total{table="):
            names.add(line.split('"')[1])
    return names


def test_dropped_tables_lose_their_series(server, bystander, client):
    names = [hbcompat.unique_table_name("drop").encode() for _ in range(40)]
    for name in names:
        create(client, name)
        client.mutateRow(name, b"r", [Mutation(column=b"f:q", value=b"v")], {})
    assert {n.decode() for n in names} <= table_series(server)
    before = hbcompat.server_rss_mib(server.proc.pid)
    for name in names:
        client.disableTable(name)
        client.deleteTable(name)
    assert not table_series(server) & {n.decode() for n in names}
    overview, _ = fetch_json(server, "/api/tables")
    assert overview["tables"] == []
    # The same name made again starts from nothing.
    create(client, names[0])
    client.mutateRow(names[0], b"r", [Mutation(column=b"f:q", value=b"v")], {})
    text = fetch(server, "/metrics")[1].decode()
    assert 'hbase_emulator_table_rows_written_total{table="%s"} 1\n' % names[0].decode() in text
    assert hbcompat.server_rss_mib(server.proc.pid) - before < 16
    bystander.check()


def test_more_tables_than_metric_tables_share_one_other_series(server_factory):
    server = server_factory(flags=["--limit", "metric_tables=8"])
    bystander = Bystander(server)
    client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    try:
        names = [b"cap_%02d" % i for i in range(20)]
        for name in names:
            create(client, name)
            client.mutateRow(name, b"r", [Mutation(column=b"f:q", value=b"v")], {})
        series = table_series(server)
        assert "(other)" in series
        assert len(series - {"(other)"}) == 8
        text = fetch(server, "/metrics")[1].decode()
        assert 'hbase_emulator_table_rows_written_total{table="(other)"} 12\n' in text
        assert text.count("hbase_emulator_table_approximate_bytes{") == 8

        # Dropping tables frees their series for new tables, without the console being read:
        # at the cap, dropped tables are looked for at most once a second.
        for name in names:
            client.disableTable(name)
            client.deleteTable(name)
        time.sleep(1.1)
        fresh = [b"cap_new_%d" % i for i in range(8)]
        for name in fresh:
            create(client, name)
            client.mutateRow(name, b"r", [Mutation(column=b"f:q", value=b"v")], {})
        assert table_series(server) - {"(other)"} == {n.decode() for n in fresh}
        bystander.check()
    finally:
        transport.close()
        bystander.close()


# --------------------------------------------------------------------------------------------
# /tables: counting is bounded per request


def test_tables_page_counts_at_most_admin_count_cells_per_request(server_factory):
    server = server_factory(flags=["--limit", "admin_count_cells=1000"])
    bystander = Bystander(server)
    client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    try:
        create(client, b"counted_a")
        create(client, b"counted_b")
        for first in range(0, 3000, 500):
            client.mutateRows(b"counted_a", [BatchMutation(row=b"r%05d" % i,
                                                           mutations=[Mutation(column=b"f:q", value=b"v")])
                                             for i in range(first, first + 500)], {})
        client.mutateRow(b"counted_b", b"r", [Mutation(column=b"f:q", value=b"v")], {})
        tables, _ = fetch_json(server, "/api/tables")
        by_name = {t["name"]: t for t in tables["tables"]}
        a = by_name["counted_a"]
        assert a["stored_cells"] == 1000 and a["counts_complete"] is False
        # counted_a used the request's whole budget: counted_b waits for the next request.
        assert by_name["counted_b"].get("counts_pending") is True
        status, html = fetch(server, "/tables")
        assert status == 200
        assert b"&ge; 1,000" in html  # counts for people: thousands separated
        tables, _ = fetch_json(server, "/api/tables")
        b = {t["name"]: t for t in tables["tables"]}["counted_b"]
        assert b["stored_cells"] == 1 and b["counts_complete"] is True
        bystander.check()
    finally:
        transport.close()
        bystander.close()


def test_connections_past_the_limit_on_the_admin_port_are_refused_at_accept(server_factory):
    """Documented outcome (limit connections, per port): past the limit a new admin connection is
    closed as soon as it is accepted, with one WARNING per burst; the Thrift ports are not
    affected, and once connections close the console answers again."""
    server = server_factory(flags=["--limit", "connections=20"])
    bystander = Bystander(server)
    held = [socket.create_connection((server.host, server.ports["admin"]), timeout=10)
            for _ in range(20)]
    refused = [socket.create_connection((server.host, server.ports["admin"]), timeout=10)
               for _ in range(50)]
    for sock in refused:
        sock.settimeout(5)
        try:
            assert sock.recv(1) == b"", "a refused connection was served"
        except ConnectionResetError:
            pass
        sock.close()
    bystander.check()
    log = server.stderr_text(limit=400_000)
    assert log.count("[admin_http] 20 connections open (limit connections)") == 1
    for sock in held:
        sock.close()
    deadline = time.monotonic() + 10
    status = None
    while time.monotonic() < deadline:
        try:
            status, _ = fetch(server, "/metrics")
            break
        except (ConnectionError, urllib.error.URLError):
            time.sleep(0.1)
    assert status == 200
    bystander.check()
    bystander.close()


# --------------------------------------------------------------------------------------------
# Names as long as HBase can store them (255 bytes a namespace, 255 a qualifier); longer ones,
# which HBase 2.6.1 loses (a namespace) or retries forever (a table), are refused at creation.


def test_longest_names_keep_metrics_answering_within_the_page_budget(server, bystander):
    from thrift.Thrift import TApplicationException
    from hbase2 import THBaseService
    from hbase2.ttypes import (TColumnFamilyDescriptor, TIOError, TNamespaceDescriptor,
                               TTableDescriptor, TTableName)
    from hbase2.ttypes import TColumnValue, TPut

    t2, transport = hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService)
    try:
        for n in (256, 10 << 10, MIB):
            with pytest.raises(TIOError) as refused:
                t2.createNamespace(TNamespaceDescriptor(name="n" * n))
            assert "longer than the 255 bytes" in hbcompat.text(refused.value.message)
            # A table's name is refused as an illegal one is: INTERNAL_ERROR.
            with pytest.raises(TApplicationException):
                t2.createTable(TTableDescriptor(
                    tableName=TTableName(ns=b"default", qualifier=b"t" * n),
                    columns=[TColumnFamilyDescriptor(name=b"f")]), None)
        names = []
        for i in range(5):
            ns = ("%d" % i) * 255
            t2.createNamespace(TNamespaceDescriptor(name=ns))
            name = TTableName(ns=ns.encode(), qualifier=("q%d" % i).encode() * 127 + b"x")
            t2.createTable(TTableDescriptor(tableName=name,
                                            columns=[TColumnFamilyDescriptor(name=b"f")]), None)
            t2.put(name.ns + b":" + name.qualifier,
                   TPut(row=b"r", columnValues=[TColumnValue(b"f", b"q", b"v")]))
            names.append((name.ns + b":" + name.qualifier).decode())
        for _ in range(3):
            status, body = fetch(server, "/metrics")
            assert status == 200, body[:300]
            assert len(body) < PAGE_BYTES
            assert set(names) <= table_series(server)
    finally:
        transport.close()
    bystander.check()
