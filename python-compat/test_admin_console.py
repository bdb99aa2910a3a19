"""The admin HTTP port (--admin-port): /metrics parsed by prometheus_client's own text parser,
the probes, the JSON API, 4xx answers to bad requests, and the rendered pages in headless
Chromium. Each test starts its own emulator (the counters must see only its workload).
"""

import http.client
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from hbase.ttypes import BatchMutation, ColumnDescriptor, Mutation
from hbase.ttypes import IOError as HIOError

import hbcompat

SALTS = "0123456789abcdef"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def admin_url(server, path):
    return "http://%s:%d%s" % (server.host, server.ports["admin"], path)


def fetch(server, path):
    """(status, body text) of a GET."""
    try:
        with urllib.request.urlopen(admin_url(server, path), timeout=30) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def samples(server):
    """{(name, frozenset(labels)): value} of every sample /metrics exposes."""
    status, body = fetch(server, "/metrics")
    assert status == 200
    out = {}
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


def value(snapshot, name, **labels):
    return snapshot.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def admin_server(server_factory):
    server = server_factory()
    assert "admin" in server.ports, "the readiness line names the admin port"
    return server


@pytest.fixture
def client(admin_server):
    from hbase import Hbase

    c, transport = hbcompat.open_raw_client(admin_server.host, admin_server.port, Hbase)
    yield c
    transport.close()


def create(client, name):
    client.createTable(name, [ColumnDescriptor(name=b"f:", maxVersions=3)])


def write_rows(client, table, rows, value_of=lambda row: b"v"):
    """One mutateRows call per 16 rows."""
    for i in range(0, len(rows), 16):
        client.mutateRows(table, [BatchMutation(row=r, mutations=[Mutation(column=b"f:q", value=value_of(r))])
                                  for r in rows[i:i + 16]], {})


def salted_rows(n):
    return [("%s:%06d" % (SALTS[i % 16], i)).encode() for i in range(n)]


def monotonic_rows(n):
    return [("ev%010d" % (1700000000 + i)).encode() for i in range(n)]


# --------------------------------------------------------------------------------------------
# /metrics


def test_metrics_counters_move_by_exactly_what_the_workload_did(admin_server, client):
    create(client, b"m_t")
    before = samples(admin_server)
    write_rows(client, b"m_t", [b"r%02d" % i for i in range(32)])  # 2 calls, 32 rows
    for i in range(5):
        client.getRow(b"m_t", b"r%02d" % i, {})
    with pytest.raises(HIOError):
        client.getRow(b"no_such_table", b"r", {})
    after = samples(admin_server)

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    t1 = dict(service="thrift1")
    assert delta("hbase_emulator_calls_total", method="mutateRows", outcome="ok", **t1) == 2
    assert delta("hbase_emulator_calls_total", method="getRow", outcome="ok", **t1) == 5
    assert delta("hbase_emulator_calls_total", method="getRow", outcome="error", **t1) == 1
    assert delta("hbase_emulator_call_duration_seconds_count", method="getRow", **t1) == 6
    assert delta("hbase_emulator_table_rows_written_total", table="m_t") == 32
    assert delta("hbase_emulator_table_rows_read_total", table="m_t") == 5
    assert delta("hbase_emulator_received_bytes_total", **t1) > 0
    assert delta("hbase_emulator_sent_bytes_total", **t1) > 0
    assert value(after, "hbase_emulator_connections", mode="buffered_binary", **t1) == 1
    assert value(after, "process_resident_memory_bytes") > 0
    assert ("hbase_emulator_leveldb_files", frozenset({("level", "0")})) in after


def test_metrics_count_thrift2_calls_and_scanners(admin_server, client):
    from hbase2 import THBaseService
    from hbase2.ttypes import TColumnValue, TPut, TScan

    create(client, b"m2")
    c2, transport = hbcompat.open_raw_client(admin_server.host, admin_server.ports["thrift2"], THBaseService)
    try:
        before = samples(admin_server)
        for i in range(3):
            c2.put(b"m2", TPut(row=b"k%d" % i, columnValues=[TColumnValue(b"f", b"q", b"v")]))
        sid = c2.openScanner(b"m2", TScan())
        rows = c2.getScannerRows(sid, 10)
        assert len(rows) == 3
        mid = samples(admin_server)
        assert value(mid, "hbase_emulator_scanners_open", service="thrift2") == 1
        c2.closeScanner(sid)
        after = samples(admin_server)
    finally:
        transport.close()
    t2 = dict(service="thrift2")
    assert value(after, "hbase_emulator_calls_total", method="put", outcome="ok", **t2) - \
        value(before, "hbase_emulator_calls_total", method="put", outcome="ok", **t2) == 3
    assert value(after, "hbase_emulator_table_rows_written_total", table="m2") - \
        value(before, "hbase_emulator_table_rows_written_total", table="m2") == 3
    assert value(after, "hbase_emulator_table_rows_read_total", table="m2") - \
        value(before, "hbase_emulator_table_rows_read_total", table="m2") == 3
    assert value(after, "hbase_emulator_scanners_open", **t2) == 0


def test_declared_errors_built_by_the_handlers_count_as_failed_calls(admin_server, client):
    """A bad scanner id or a negative mutateRow timestamp reaches the client as IllegalArgument /
    TIllegalArgument; these were thrown past the error mappers and counted outcome="ok"."""
    from hbase.ttypes import IllegalArgument
    from hbase2 import THBaseService
    from hbase2.ttypes import TIllegalArgument

    create(client, b"fails")
    c2, transport = hbcompat.open_raw_client(admin_server.host, admin_server.ports["thrift2"],
                                             THBaseService)
    calls = [
        ("thrift1", "scannerGet", IllegalArgument, lambda: client.scannerGet(987654)),
        ("thrift1", "scannerGetList", IllegalArgument, lambda: client.scannerGetList(987654, 5)),
        ("thrift1", "scannerClose", IllegalArgument, lambda: client.scannerClose(987654)),
        ("thrift1", "mutateRowTs", IllegalArgument,
         lambda: client.mutateRowTs(b"fails", b"r", [Mutation(column=b"f:q", value=b"v")], -5, {})),
        ("thrift2", "getScannerRows", TIllegalArgument, lambda: c2.getScannerRows(987654, 5)),
    ]
    try:
        for service, method, error, call in calls:
            before = samples(admin_server)
            with pytest.raises(error):
                call()
            after = samples(admin_server)
            labels = dict(service=service, method=method)
            for outcome, want in (("error", 1), ("ok", 0)):
                moved = value(after, "hbase_emulator_calls_total", outcome=outcome, **labels) - \
                    value(before, "hbase_emulator_calls_total", outcome=outcome, **labels)
                assert moved == want, "%s %s: outcome=%s moved by %d" % (service, method, outcome, moved)
    finally:
        transport.close()


# --------------------------------------------------------------------------------------------
# probes, API, bad requests


def test_health_ready_and_json_api(admin_server, client):
    create(client, b"api_t")
    write_rows(client, b"api_t", [b"a", b"b"])
    assert fetch(admin_server, "/health") == (200, "ok\n")
    assert fetch(admin_server, "/ready") == (200, "ready\n")
    import json
    status, body = fetch(admin_server, "/api/tables")
    assert status == 200
    names = [t["name"] for t in json.loads(body)["tables"]]
    assert "api_t" in names
    status, body = fetch(admin_server, "/api/tables/api_t/rows?limit=1")
    page = json.loads(body)
    assert [r["key"] for r in page["rows"]] == ["a"]
    assert page["next_start"] == "b"


def raw_http(server, request_bytes):
    with socket.create_connection((server.host, server.ports["admin"]), timeout=30) as s:
        s.sendall(request_bytes)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk


def test_bad_requests_get_clear_4xx_pages(admin_server, client):
    create(client, b"bad_t")
    assert fetch(admin_server, "/no/such/page")[0] == 404
    status, body = fetch(admin_server, "/table/missing_table")
    assert status == 404 and "no table named" in body
    status, body = fetch(admin_server, "/browse/bad_t?start=%FF%FE")
    assert status == 400 and "UTF-8" in body
    assert fetch(admin_server, "/api/tables/missing/rows")[0] == 404
    huge = b"GET / HTTP/1.1\r\nHost: x\r\nX-Huge: " + b"a" * 100000 + b"\r\n\r\n"
    assert raw_http(admin_server, huge).startswith(b"HTTP/1.1 431")
    post = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    assert raw_http(admin_server, post).startswith(b"HTTP/1.1 405")


def test_a_bind_address_that_is_not_loopback_warns_and_keeps_the_console_on_loopback(server_factory):
    server = server_factory(flags=["--bind", "0.0.0.0"])
    warnings = [l for l in server.stderr_text().splitlines() if "no authentication" in l]
    assert len(warnings) == 1 and warnings[0].startswith("W"), server.stderr_text()
    ready = [l for l in server.stderr_text().splitlines() if "console on http://" in l]
    assert ready and "http://127.0.0.1:" in ready[0]
    url = "http://127.0.0.1:%d/health" % server.ports["admin"]
    with urllib.request.urlopen(url, timeout=30) as r:
        assert r.read() == b"ok\n"
    # --admin-bind says otherwise, and that is warned about too.
    exposed = server_factory(flags=["--bind", "0.0.0.0", "--admin-bind", "0.0.0.0"])
    assert "admin console on 0.0.0.0" in exposed.stderr_text()


def test_no_admin_flag_leaves_the_port_closed(server_factory):
    server = server_factory(flags=["--no-admin"])
    assert "admin" not in server.ports


# --------------------------------------------------------------------------------------------
# The pages in a real browser


def chromium(args, timeout=180):
    profile = tempfile.mkdtemp(prefix="hbemu-chromium-")
    try:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--user-data-dir=" + profile] + args,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def dump_dom(url):
    result = chromium(["--dump-dom", url])
    dom = result.stdout.decode("utf-8", "replace")
    assert "</html>" in dom, "chromium rendered nothing for %s: %s" % (url, result.stderr[-2000:])
    return dom


def screenshot(url, path):
    chromium(["--window-size=1100,760", "--hide-scrollbars", "--screenshot=" + str(path), url])
    assert path.is_file() and path.stat().st_size > 1000, "no screenshot of %s" % url


def screenshot_dir():
    """Under the build tree next to the binary (build/admin-screenshots)."""
    d = Path(hbcompat.emulator_bin()).resolve().parent / "admin-screenshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed (scripts/setup.sh)")
def test_console_pages_render_in_headless_chromium(admin_server, client):
    from hbase2 import THBaseService
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableDescriptor, TTableName

    # The salted table is pre-split at 4, 8 and c (through Thrift2, which takes split keys): four
    # regions, four salts each.
    c2, transport = hbcompat.open_raw_client(admin_server.host, admin_server.ports["thrift2"], THBaseService)
    try:
        c2.createTable(TTableDescriptor(tableName=TTableName(ns=b"default", qualifier=b"salted"),
                                        columns=[TColumnFamilyDescriptor(name=b"f")]), [b"4", b"8", b"c"])
    finally:
        transport.close()
    create(client, b"monotonic")
    write_rows(client, b"salted", salted_rows(320))
    write_rows(client, b"monotonic", monotonic_rows(320),
               value_of=lambda row: struct.pack(">q", 42) if row.endswith(b"0000") else b"x")
    shots = screenshot_dir()

    overview = dump_dom(admin_url(admin_server, "/"))
    assert 'id="version"' in overview
    assert "<code>mutateRows</code>" in overview
    screenshot(admin_url(admin_server, "/"), shots / "overview.png")

    tables = dump_dom(admin_url(admin_server, "/tables"))
    assert 'data-name="salted"' in tables and 'data-name="monotonic"' in tables

    salted = dump_dom(admin_url(admin_server, "/table/salted"))
    monotonic = dump_dom(admin_url(admin_server, "/table/monotonic"))
    # The regions the console shows are the ones clients are told about.
    assert 'id="region-count" data-count="%d"' % len(client.getTableRegions(b"salted")) in salted
    assert 'id="region-count" data-count="4"' in salted
    for region in range(4):
        assert 'class="heat-region" data-label="region %d" data-writes="80"' % region in salted
    assert 'data-spread="even"' in salted
    assert 'data-buckets="16"' in salted
    for salt in SALTS:
        assert 'class="heat-bucket" data-label="%s" data-writes="20"' % salt in salted
    assert 'data-spread="hot"' in monotonic
    assert 'data-buckets="1"' in monotonic
    assert 'class="heat-bucket" data-label="e" data-writes="320"' in monotonic
    # The prefix length is chosen on the table page with a GET form (a select and a delimiter
    # box); loading the URL it submits for "2" groups the salted keys by their salt "0:".."f:".
    assert '<form id="bucket-form" method="get" action="/table/salted">' in salted
    assert '<select name="prefix_bytes">' in salted and 'data-prefix-bytes="1"' in salted
    assert '<option value="2">2</option>' in salted and '<input name="delimiter"' in salted
    salted2 = dump_dom(admin_url(admin_server, "/table/salted?prefix_bytes=2&delimiter="))
    assert 'data-prefix-bytes="2"' in salted2
    assert 'data-buckets="16"' in salted2
    for salt in SALTS:
        assert 'class="heat-bucket" data-label="%s:" data-writes="20"' % salt in salted2
    assert 'data-spread="even"' in salted2
    assert "\u2026" not in salted2.split('id="heat-buckets"')[1]  # no untracked rest bucket
    # The JSON API takes the same choice, and a salt delimiter gives the same buckets.
    import json
    status, body = fetch(admin_server, "/api/tables/salted?delimiter=%3A")
    assert status == 200
    heat = json.loads(body)["heat"]
    assert [(b["bucket"], b["writes"]) for b in heat["buckets"]] == [(s + ":", 20) for s in SALTS]
    # Longer prefixes of the monotonic key still land in one bucket: it is hot at any length.
    monotonic4 = dump_dom(admin_url(admin_server, "/table/monotonic?prefix_bytes=4"))
    assert 'data-buckets="1"' in monotonic4 and 'data-spread="hot"' in monotonic4
    assert 'class="heat-bucket" data-label="ev17" data-writes="320"' in monotonic4
    assert fetch(admin_server, "/table/salted?prefix_bytes=9")[0] == 400
    screenshot(admin_url(admin_server, "/table/salted"), shots / "heat-salted.png")
    screenshot(admin_url(admin_server, "/table/salted?prefix_bytes=2"), shots / "heat-salted-2-bytes.png")
    screenshot(admin_url(admin_server, "/table/monotonic"), shots / "heat-monotonic.png")

    browse = dump_dom(admin_url(admin_server, "/browse/monotonic?start=ev1700000000&limit=3&format=long"))
    assert 'data-row="ev1700000000"' in browse
    assert '<td class="mono value">42</td>' in browse
    assert 'id="next-page"' in browse
    screenshot(admin_url(admin_server, "/browse/monotonic?limit=8&format=hex"), shots / "browse.png")


# --------------------------------------------------------------------------------------------
# Test-control pages, the configuration page, numbers for people


def test_test_control_pages_are_in_the_navigation_and_calls_filter_by_table_method_and_errors(server_factory):
    server = server_factory(flags=["--test-controls"])
    from hbase import Hbase

    c, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    try:
        create(c, b"page_a")
        create(c, b"page_b")
        write_rows(c, b"page_a", [b"row-a"])
        write_rows(c, b"page_b", [b"row-b"])
        c.getRow(b"page_b", b"row-b", {})
        with pytest.raises(HIOError):
            c.getRow(b"page_missing", b"r", {})
    finally:
        transport.close()
    status, overview = fetch(server, "/")
    assert status == 200
    for page in ("/calls", "/errors", "/clock", "/faults", "/snapshots", "/config"):
        assert '<a href="%s">' % page in overview, page
        assert fetch(server, page)[0] == 200, page

    status, page = fetch(server, "/calls?table=page_b")
    assert status == 200
    assert "<th>time</th>" in page
    assert "row-b" in page and "row-a" not in page
    assert 'on table <code>page_b</code>' in page and 'id="clear-filter" href="/calls"' in page
    _, page = fetch(server, "/calls?method=getRow")
    assert "page_b" in page and "page_missing" in page and "mutateRows" not in page.split('id="calls"')[1]
    _, page = fetch(server, "/calls?errors=1")
    body = page.split('id="calls"')[1].split("</table>")[0]
    assert "page_missing" in body and "row-b" not in body and 'data-outcome="ok"' not in body
    assert "that failed" in page
    _, unfiltered = fetch(server, "/calls")
    assert 'id="filter"' not in unfiltered and "row-a" in unfiltered


def test_without_test_controls_their_pages_are_404_and_not_in_the_navigation(admin_server):
    status, overview = fetch(admin_server, "/")
    assert '<a href="/calls">' not in overview and '<a href="/config">' in overview
    status, page = fetch(admin_server, "/calls")
    assert status == 404 and "--test-controls" in page


def test_the_configuration_page_shows_flags_limits_doors_and_version(server_factory):
    server = server_factory(flags=["--limit", "open_scanners=77", "--idle-timeout-ms", "0"])
    status, page = fetch(server, "/config")
    assert status == 200
    assert "--limit open_scanners=77" in page and "--idle-timeout-ms 0" in page
    assert 'class="limit changed" data-name="open_scanners" data-value="77"' in page
    assert "idle connections are never closed" in page
    assert 'id="test-controls">off<' in page
    import json
    config = json.loads(fetch(server, "/api/config")[1])
    doors = {d["name"]: d for d in config["doors"]}
    assert doors["thrift1"]["address"] == "%s:%d" % (server.host, server.port)
    assert doors["thrift2"]["address"] == "%s:%d" % (server.host, server.ports["thrift2"])
    assert doors["admin"]["address"] == "%s:%d" % (server.host, server.ports["admin"])
    assert doors["control"]["address"] == "off"
    assert config["data"] == "in memory"
    assert config["version"][0].startswith("hbase-emulator ")
    assert any(line.startswith("build: ") for line in config["version"])


def test_numbers_are_formatted_for_people_and_prometheus_bounds_are_shortest(admin_server, client):
    create(client, b"fmt_t")
    write_rows(client, b"fmt_t", [b"r"])
    _, overview = fetch(admin_server, "/")
    process = overview.split('id="process"')[1].split(">", 1)[1].split("</td>")[0]
    # "0.35781199999999996 s CPU" was the float noise; now three significant digits and a unit.
    import re
    assert re.search(r"^[0-9.,]+ [^ ]+ resident, [0-9.]+ (µs|ms|s|min \d+ s) CPU", process), process
    assert not re.search(r"\d\.\d{5,}", process), process
    status, metrics = fetch(admin_server, "/metrics")
    bounds = re.findall(r'call_duration_seconds_bucket\{[^}]*le="([^"]+)"', metrics)
    assert "5e-05" in bounds and "0.0001" in bounds and "+Inf" in bounds
    assert not any("0000000" in b for b in bounds), sorted(set(bounds))
    # The parser Prometheus's Python client ships reads them back as the same bounds.
    assert samples(admin_server)  # parses
