"""Hostile clients of the REST gateway, over a real socket against a real server process: bodies
past message_bytes in every encoding, malformed and booby-trapped bodies (truncated protobuf, bad
JSON, XML entity expansion, deep nesting), filter trees past filter_depth and filter_count, absurd
scan numbers, scanners left open by the thousand, reads past result_bytes, header floods and
bodies that drip in. Each test starts its own server, attacks it, and checks the documented
outcome (docs/rest.md, docs/limits.md, COMPATIBILITY.md; statuses HBase 2.6.1's gateway defines
were measured on it), that the server keeps serving, and where memory is at stake that its RSS
stays under a stated bound (not under a sanitizer: hbcompat.server_rss_mib).
"""

import base64
import http.client
import json
import os
import socket
import time

import pytest

import hbcompat

MIB = 1 << 20
ENCODINGS = ["application/json", "text/xml", "application/x-protobuf", "application/octet-stream"]
NOT_UNDER_ASAN = pytest.mark.skipif(os.environ.get("HBEMU_UNDER_SANITIZER") == "1",
                                    reason="memory of a release build; ASan keeps freed blocks")


def b64(data):
    return base64.b64encode(data).decode()


class Rest:
    """A REST client of one server, one connection per call."""

    def __init__(self, server):
        self.host, self.port = server.host, server.ports["rest"]

    def call(self, method, path, body=None, headers=None, timeout=60):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            sent = {"Accept": "application/json"}
            sent.update(headers or {})
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            return response.status, response.read(), dict(response.getheaders())
        finally:
            conn.close()

    def put_json(self, path, model):
        return self.call("PUT", path, json.dumps(model), {"Content-Type": "application/json"})

    def put_cell(self, table, row, column, value):
        status, body, _ = self.call("PUT", "/%s/%s/%s" % (table, row, column), value,
                                    {"Content-Type": "application/octet-stream"})
        assert status == 200, body

    def open_scanner(self, table, model):
        status, body, headers = self.put_json("/%s/scanner" % table, model)
        assert status == 201, body
        location = headers["Location"]
        return location[location.index("/%s/scanner" % table):]


def start(server_factory, *flags):
    """A server with `flags`, its REST client, and a bystander table answering a known cell."""
    server = server_factory(flags=list(flags))
    rest = Rest(server)
    status, body, _ = rest.put_json("/bystander/schema",
                                    {"name": "bystander", "ColumnSchema": [{"name": "f"}]})
    assert status == 201, body
    rest.put_cell("bystander", "row", "f:q", b"still here")
    return server, rest


def assert_serving(server, rest):
    assert server.proc.poll() is None, "the server died: " + server.stderr_text()
    status, body, _ = rest.call("GET", "/bystander/row/f:q",
                                headers={"Accept": "application/octet-stream"})
    assert (status, body) == (200, b"still here")


def create_table(rest, name):
    status, body, _ = rest.put_json("/%s/schema" % name,
                                    {"name": name, "ColumnSchema": [{"name": "f"}]})
    assert status == 201, body


def raw_exchange(rest, head, body_chunks=(), timeout=30):
    """Sends `head` then each chunk until the server stops reading; returns what it answered."""
    sock = socket.create_connection((rest.host, rest.port), timeout=timeout)
    try:
        sock.sendall(head)
        for chunk in body_chunks:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        answer = b""
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
                if b"\r\n\r\n" in answer:
                    head_end = answer.index(b"\r\n\r\n") + 4
                    length = [int(line.split(b":")[1]) for line in answer[:head_end].split(b"\r\n")
                              if line.lower().startswith(b"content-length:")]
                    if length and len(answer) >= head_end + length[0]:
                        break
        except ConnectionResetError:
            pass
        return answer
    finally:
        sock.close()


def status_of(answer):
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None


def test_bodies_past_message_bytes_are_refused_with_413_in_every_encoding(server_factory):
    """Documented outcome: a body past message_bytes, whatever its Content-Type, is answered 413
    naming the limit before it is read (HBase's gateway has no bound), and the connection is
    closed; a chunked body that grows past it gets the same. Memory stays flat."""
    server, rest = start(server_factory, "--limit", "message_bytes=1M")
    create_table(rest, "t")
    baseline = hbcompat.server_rss_mib(server.proc.pid)
    megabyte = b"x" * MIB
    for content_type in ENCODINGS:
        head = ("PUT /t/r/f:q HTTP/1.1\r\nHost: localhost\r\nContent-Type: %s\r\n"
                "Content-Length: %d\r\n\r\n" % (content_type, 64 * MIB)).encode()
        answer = raw_exchange(rest, head, [megabyte] * 64)
        assert status_of(answer) == 413, (content_type, answer[:200])
        assert b"past the message_bytes limit of 1048576 bytes" in answer
        chunked = ("PUT /t/r/f:q HTTP/1.1\r\nHost: localhost\r\nContent-Type: %s\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n" % content_type).encode()
        answer = raw_exchange(rest, chunked, [b"100000\r\n" + megabyte + b"\r\n"] * 16)
        assert status_of(answer) == 413, (content_type, answer[:200])
    # Just under the limit is served.
    status, _, _ = rest.call("PUT", "/t/r/f:q", b"y" * (MIB - 1024),
                             {"Content-Type": "application/octet-stream"})
    assert status == 200
    grown = hbcompat.server_rss_mib(server.proc.pid) - baseline
    assert grown < 40, "eight refused 64 MB bodies grew the server by %.0f MiB" % grown
    assert_serving(server, rest)


def test_malformed_bodies_get_hbases_status_in_every_encoding_and_nothing_is_written(
        server_factory):
    """Documented outcome (measured on HBase 2.6.1): a body its reader cannot read is answered as
    HBase's gateway answers it: JSON syntax or a truncated protobuf 500 with no body, malformed
    XML 400 "Bad request"; an XML DOCTYPE (entity expansion) is refused 400 without expanding
    anything; JSON or XML nested past the parsers' bounds is refused the same way, not parsed.
    No cell is written and the server serves on."""
    server, rest = start(server_factory)
    create_table(rest, "t")
    cell_set = {"Row": [{"key": b64(b"r"), "Cell": [{"column": b64(b"f:q"), "$": b64(b"v")}]}]}
    good_json = json.dumps(cell_set)
    laughs = ('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
              + "".join('<!ENTITY %s "%s">' % (chr(98 + i), ("&%s;" % chr(97 + i)) * 10)
                        for i in range(8))
              + ']><CellSet><Row key="%s"><Cell column="%s">&i;</Cell></Row></CellSet>'
              % (b64(b"r"), b64(b"f:q")))
    truncated_protobuf = b"\x0a\x10\x0a\x01r\x12\x0b\x0a\x03f:q"  # a CellSet cut short
    cases = [
        ("application/json", good_json[:-7], 500, b""),
        ("application/json", "[" * 200000 + "]" * 200000, 500, b""),
        ("application/json", '{"Row":' * 100000 + "1" + "}" * 100000, 500, b""),
        ("application/x-protobuf", truncated_protobuf, 500, b""),
        ("text/xml", "<CellSet><Row", 400, b""),
        ("text/xml", laughs, 400, b""),
        ("text/xml", "<CellSet>" + "<Row>" * 100000 + "</Row>" * 100000 + "</CellSet>", 400,
         b""),
    ]
    for content_type, body, status, answer in cases:
        got, text, _ = rest.call("PUT", "/t/r/f:q", body, {"Content-Type": content_type})
        assert (got, text) == (status, answer), (content_type, body[:40])
        got, _, _ = rest.call("GET", "/t/r", headers={"Accept": "application/json"})
        assert got == 404, "a malformed %s body wrote a cell" % content_type
    # Scanner bodies are read by the same readers.
    got, text, _ = rest.call("PUT", "/t/scanner", "<Scanner>" + "<a>" * 100000 + "</a>" * 100000
                             + "</Scanner>", {"Content-Type": "text/xml"})
    assert (got, text) == (400, b"")
    got, _, _ = rest.call("PUT", "/t/scanner", "{", {"Content-Type": "application/json"})
    assert got == 500
    assert_serving(server, rest)


def filter_chain(depth):
    """A scanner's JSON filter tree `depth` FilterLists deep (written as text: too deep for
    Python's json encoder)."""
    inner = '{"type":"PrefixFilter","value":"%s"}' % b64(b"r")
    return ('{"type":"FilterList","op":"MUST_PASS_ALL","filters":[' * depth + inner
            + "]}" * depth)


def filter_fan(width):
    one = '{"type":"PrefixFilter","value":"%s"}' % b64(b"r")
    return '{"type":"FilterList","op":"MUST_PASS_ONE","filters":[%s]}' % ",".join([one] * width)


def test_scanner_filter_trees_past_filter_depth_or_filter_count_are_refused(server_factory):
    """Documented outcome: a scanner whose JSON filter nests FilterLists past filter_depth, or
    holds more filters than filter_count, is refused 400 "Bad request" (the answer HBase gives a
    filter it cannot build) naming the limit when it is created, before a tree is built; within the limits it
    scans."""
    server, rest = start(server_factory, "--limit", "filter_depth=16", "--limit",
                         "filter_count=100")
    create_table(rest, "t")
    rest.put_cell("t", "r1", "f:q", b"v")
    for tree in (filter_chain(15), filter_fan(99)):
        scanner = rest.open_scanner("t", {"filter": tree})
        status, body, _ = rest.call("GET", scanner)
        assert status == 200 and b64(b"r1").encode() in body
    for tree, limit in ((filter_chain(17), b"filter_depth"), (filter_chain(5000), b"filter_depth"),
                        (filter_fan(101), b"filter_count"), (filter_fan(100000), b"filter_count")):
        status, body, _ = rest.call("PUT", "/t/scanner", json.dumps({"filter": tree}),
                                    {"Content-Type": "application/json"})
        assert status == 400 and body.startswith(b"Bad request\r\n"), (tree[:60], body[:200])
        assert b"(limit " + limit + b")" in body, body[:200]
    assert_serving(server, rest)


def test_absurd_scan_numbers_get_hbases_answers_and_replies_stay_bounded(server_factory):
    """Documented outcome (measured on HBase 2.6.1): a stateless scan's limit, batchsize or
    maxversions, or a scanner fetch's n or c, that Java cannot read as an int (letters, a space,
    a fraction, past 2^31) is Jersey's 404 page; an empty one is the default; a negative limit
    or maxversions finds no rows; a negative batchsize is no batch; a negative or inverted time
    range is Jetty's 500. A fetch of n=2147483647 gets at most scanner_rows_per_call rows, and
    the scan goes on."""
    server, rest = start(server_factory, "--limit", "scanner_rows_per_call=100")
    create_table(rest, "t")
    rows = [b"r%04d" % i for i in range(250)]
    cell_set = {"Row": [{"key": b64(r), "Cell": [{"column": b64(b"f:q"), "$": b64(b"v")}]}
                        for r in rows]}
    status, body, _ = rest.put_json("/t/fake-row", cell_set)
    assert status == 200, body
    for query in ("limit=abc", "limit=2147483648", "limit=-2147483649", "limit=%205",
                  "limit=1.5", "batchsize=99999999999", "batchsize=x", "maxversions=x",
                  "starttime=99999999999999999999"):
        status, body, _ = rest.call("GET", "/t/*?" + query)
        assert status == 404 and json.loads(body)["message"] == "Not Found", query
    for query, count in (("limit=", 250), ("limit=-5", 0), ("limit=0", 0), ("maxversions=0", 0),
                         ("maxversions=-1", 0), ("batchsize=-1", 250), ("limit=2147483647", 250),
                         ("batchsize=2147483647&limit=3", 3)):
        status, body, _ = rest.call("GET", "/t/*?" + query)
        assert status == 200 and len(json.loads(body)["Row"]) == count, query
    for query in ("starttime=-5", "endtime=-1", "starttime=10&endtime=5"):
        status, body, _ = rest.call("GET", "/t/*?" + query)
        assert status == 500 and json.loads(body)["message"] == "Request failed.", query
    scanner = rest.open_scanner("t", {"batch": 2147483647})
    for query in ("n=x", "n=99999999999", "c=x", "c=-99999999999"):
        status, body, _ = rest.call("GET", scanner + "?" + query)
        assert status == 404 and json.loads(body)["message"] == "Not Found", query
    seen = []
    for _ in range(3):
        status, body, _ = rest.call("GET", scanner + "?n=2147483647&c=2147483647")
        assert status == 200
        seen.append(len(json.loads(body)["Row"]))
    assert seen == [100, 100, 50]
    assert rest.call("GET", scanner + "?n=-5")[0] == 204
    for model in ({"batch": -5}, {"maxVersions": -1}):
        negative = rest.open_scanner("t", model)
        status, _, _ = rest.call("GET", negative + "?n=1")
        assert status == (200 if "batch" in model else 204), model
    for body in ('{"batch":99999999999}', '{"batch":"x"}', '{"limit":-1}'):
        assert rest.call("PUT", "/t/scanner", body,
                         {"Content-Type": "application/json"})[0] == 500, body
    assert_serving(server, rest)


@NOT_UNDER_ASAN
def test_scanners_past_open_scanners_close_the_longest_idle_and_memory_stays_flat(
        server_factory):
    """Documented outcome: past open_scanners REST scanners, opening one closes the longest idle
    (its next fetch is 404, as HBase answers an id its scanner cache evicted); the server holds at most open_scanners of them, so 3,000
    scanners each holding the rest of a 64 KB row cost no more than 100 do."""
    server, rest = start(server_factory, "--limit", "open_scanners=100")
    create_table(rest, "t")
    for i in range(16):
        rest.put_cell("t", "wide", "f:c%02d" % i, b"x" * 4096)
    conn = http.client.HTTPConnection(rest.host, rest.port, timeout=60)

    def call(method, path, body=None, headers=None):
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read(), response.getheader("Location")

    def open_and_fetch():
        status, _, location = call("PUT", "/t/scanner", "{}",
                                   {"Content-Type": "application/json"})
        assert status == 201
        path = location[location.index("/t/scanner"):]
        assert call("GET", path + "?c=1", headers={"Accept": "application/json"})[0] == 200
        return path

    scanners = [open_and_fetch() for _ in range(100)]
    baseline = hbcompat.server_rss_mib(server.proc.pid)
    scanners += [open_and_fetch() for _ in range(2900)]
    grown = hbcompat.server_rss_mib(server.proc.pid) - baseline
    assert grown < 30, "2,900 more scanners grew the server by %.0f MiB" % grown
    assert call("GET", scanners[-101], headers={"Accept": "application/json"})[:2] == (
        404, b"Not found\r\n")
    assert call("GET", scanners[0], headers={"Accept": "application/json"})[:2] == (
        404, b"Not found\r\n")
    status, body, _ = call("GET", scanners[-1] + "?c=100", headers={"Accept": "application/json"})
    assert status == 200 and len(json.loads(body)["Row"][0]["Cell"]) == 15
    conn.close()
    assert_serving(server, rest)


def test_rest_scanners_share_the_scanner_bytes_budget_of_the_thrift_scanners(server_factory):
    """Documented outcome: what a REST scanner holds (the columns it names, the rows it read
    ahead) counts against scanner_bytes together with the Thrift scanners; past it a new REST
    scanner is refused 503 with HBase's RegionTooBusyException naming the limit, and a Thrift
    scanner past it too; deleting a REST scanner gives its room back."""
    from hbase import Hbase
    from hbase.ttypes import IOError as T1IOError

    server, rest = start(server_factory, "--limit", "scanner_bytes=40M")
    create_table(rest, "t")
    rest.put_cell("t", "r", "f:c0000001", b"v")
    # 13-16 MB of scanner state each, by the C++ library's node and string sizes.
    columns = [b64(b"f:c%07d" % i) for i in range(200000)]
    opened = []
    for _ in range(6):
        status, body, headers = rest.put_json("/t/scanner", {"column": columns})
        if status != 201:
            break
        opened.append(headers["Location"][headers["Location"].index("/t/scanner"):])
    assert 2 <= len(opened) <= 3, "%d scanners fit in 40 MiB" % len(opened)
    assert status == 503
    assert body.startswith(b"Unavailable\r\norg.apache.hadoop.hbase.RegionTooBusyException: "
                           b"Above scanner memory limit"), body[:200]
    assert b"scanner_bytes limit of 41943040 bytes" in body
    client, transport = hbcompat.open_raw_client(server.host, server.port, Hbase)
    try:
        # The same columns through Thrift1 no longer fit in what is left; deleting a REST
        # scanner makes room for half as many.
        with pytest.raises(T1IOError) as refused:
            client.scannerOpen(b"t", b"", [b"f:c%07d" % i for i in range(200000)], {})
        assert "scanner_bytes limit of 41943040 bytes" in hbcompat.text(refused.value.message)
        assert rest.call("DELETE", opened[-1])[0] == 200
        scanner = client.scannerOpen(b"t", b"", [b"f:c%07d" % i for i in range(100000)], {})
        assert [r.row for r in client.scannerGetList(scanner, 10)] == [b"r"]
    finally:
        transport.close()
    status, body, _ = rest.call("GET", opened[0])
    assert status == 200 and b64(b"r").encode() in body
    assert_serving(server, rest)


@NOT_UNDER_ASAN
def test_multigets_and_globs_past_result_bytes_are_503_and_memory_stays_bounded(server_factory):
    """Documented outcome: a multiget naming a 4 MB row 200 times, or a row-prefix read or
    stateless scan over rows holding more than result_bytes, is answered 503 "Unavailable"
    naming the result_bytes limit as soon as the rows found pass it (HBase's gateway has no such
    bound); memory does not grow with repeated refusals; within the limit it is served."""
    server, rest = start(server_factory, "--limit", "result_bytes=32M")
    create_table(rest, "t")
    for i in range(4):
        rest.put_cell("t", "big", "f:c%d" % i, b"x" * MIB)
    for i in range(12):
        rest.put_cell("t", "wide%02d" % i, "f:q", b"y" * (3 * MIB))
    many = "&".join(["row=big"] * 200)

    def refused_reads():
        for path in ("/t/multiget?" + many, "/t/wide*", "/t/*"):
            status, body, _ = rest.call("GET", path)
            assert status == 503, (path[:30], status)
            assert body == (b"Unavailable\r\nthe rows found exceed the result_bytes limit of "
                            b"33554432 bytes (--limit result_bytes=N raises it)\r\n"), body[:200]

    baseline = hbcompat.server_rss_mib(server.proc.pid)
    for _ in range(10):
        refused_reads()
    first = hbcompat.server_rss_mib(server.proc.pid) - baseline
    for _ in range(5):
        refused_reads()
    again = hbcompat.server_rss_mib(server.proc.pid) - baseline - first
    # Each read holds at most result_bytes of rows and their answer model before it stops, and
    # each of the door's 4 threads' allocator arenas keeps about that much for its next call.
    # Measured: +91 MiB after one round, +167 MiB from the fourth on, then flat.
    assert first < 4 * 2 * 32, "refused reads grew the server by %.0f MiB" % first
    assert again < 10, "repeated refused reads grew the server by %.0f MiB more" % again
    status, body, _ = rest.call("GET", "/t/multiget?" + "&".join(["row=big"] * 4))
    assert status == 200 and len(json.loads(body)["Row"]) == 4
    assert_serving(server, rest)


def test_a_header_flood_past_http_header_bytes_is_refused_with_431(server_factory):
    """Documented outcome: a request whose header passes http_header_bytes (Jetty's 65,534
    bytes), as one long field or as many fields, gets 431 naming the limit and its connection is
    closed; a megabyte of header lines is not kept."""
    server, rest = start(server_factory)
    baseline = hbcompat.server_rss_mib(server.proc.pid)
    status, body, _ = rest.call("GET", "/version", headers={"X-Big": "a" * 70000})
    assert status == 431 and b"past the http_header_bytes limit of 65534 bytes" in body
    lines = b"".join(b"X-%06d: %s\r\n" % (i, b"v" * 64) for i in range(16000))
    answer = raw_exchange(rest, b"GET /version HTTP/1.1\r\nHost: localhost\r\n",
                          [lines[i:i + 65536] for i in range(0, len(lines), 65536)] + [b"\r\n"])
    assert status_of(answer) == 431, answer[:200]
    # Many small fields within the bound are served.
    status, _, _ = rest.call("GET", "/version", headers={"X-%d" % i: "v" for i in range(3000)})
    assert status == 200
    grown = hbcompat.server_rss_mib(server.proc.pid) - baseline
    assert grown < 20, "header floods grew the server by %.0f MiB" % grown
    assert_serving(server, rest)


def test_a_body_that_drips_in_is_cut_off_at_the_message_timeout(server_factory):
    """Documented outcome: a request whose body has not all arrived message_timeout_ms after it
    began is dropped (the connection closes without an answer), however steadily it drips;
    other clients are served meanwhile and nothing is written."""
    server, rest = start(server_factory, "--limit", "message_timeout_ms=2000")
    create_table(rest, "t")
    sock = socket.create_connection((rest.host, rest.port), timeout=30)
    try:
        sock.sendall(b"PUT /t/slow/f:q HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n")
        began = time.monotonic()
        closed_after = None
        while time.monotonic() - began < 15:
            try:
                sock.sendall(b"x")
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.monotonic() - began
                break
            assert_serving(server, rest)
            time.sleep(0.25)
        if closed_after is None:
            sock.settimeout(5)
            assert sock.recv(4096) == b"", "the dripping request was still open after 15 s"
    finally:
        sock.close()
    assert closed_after is None or closed_after < 6, closed_after
    assert rest.call("GET", "/t/slow")[0] == 404
    # Headers that never end are cut off the same way.
    sock = socket.create_connection((rest.host, rest.port), timeout=30)
    try:
        sock.sendall(b"GET /version HTTP/1.1\r\nHost: localhost\r\n")
        began = time.monotonic()
        sock.settimeout(10)
        assert sock.recv(4096) in (b"",)
        assert time.monotonic() - began < 6
    finally:
        sock.close()
    assert_serving(server, rest)
