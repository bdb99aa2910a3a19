"""The REST gateway ("Stargate") through real clients: starbase (a Stargate client from PyPI) for
table schema, puts, gets, scans and deletes, and plain `requests` for what starbase cannot
express, in every encoding HBase's gateway speaks (text/xml, application/json,
application/x-protobuf, application/octet-stream): multiget, check=put / check=delete, stateless
scans with their parameters, stateful scanners, and the status codes of misses.

The gateway under test is HBASE_REST_TARGET=host:port (HBase 2.6.1's own RESTServer) when set,
else the `rest` port of the suite's server; every expectation below was read off HBase 2.6.1.
"""

import sys

import pytest
import requests

import hbcompat

sys.path.insert(0, str(hbcompat.REPO / "tests" / "differential"))

import rest_codec  # noqa: E402
from rest_codec import JSON, OCTET, PROTOBUF, XML  # noqa: E402

TIMEOUT_S = 30
ENCODINGS = [XML, JSON, PROTOBUF]


@pytest.fixture
def http(rest_url):
    """A requests session with the gateway's base URL as `http.base`."""
    session = requests.Session()
    session.base = rest_url
    yield session
    session.close()


@pytest.fixture
def rest_table(http):
    """make(families=("f",), versions=3) -> a fresh table created through PUT /T/schema (XML
    TableSchema), deleted afterwards."""
    created = []

    def make(families=("f",), versions=3, tag="rest"):
        name = hbcompat.unique_table_name(tag)
        body = "<TableSchema name=\"%s\">%s</TableSchema>" % (name, "".join(
            "<ColumnSchema name=\"%s\" VERSIONS=\"%d\"/>" % (f, versions) for f in families))
        r = http.put("%s/%s/schema" % (http.base, name), data=body,
                     headers={"Content-Type": XML}, timeout=TIMEOUT_S)
        assert r.status_code == 201, (r.status_code, r.text)
        created.append(name)
        return name

    yield make
    for name in created:
        http.delete("%s/%s/schema" % (http.base, name), timeout=TIMEOUT_S)


def starbase_connection(rest_url):
    from starbase import Connection

    host, _, port = rest_url[len("http://"):].rpartition(":")
    return Connection(host=host.strip("[]"), port=int(port))


def put_cells(http, table, rows, encoding, row_in_url=None):
    r = http.put("%s/%s/%s" % (http.base, table, row_in_url or "fakerow"),
                 data=rest_codec.encode_cellset(rows, encoding),
                 headers={"Content-Type": encoding}, timeout=TIMEOUT_S)
    assert r.status_code == 200, (r.status_code, r.text)


def get(http, path, encoding):
    return http.get("%s/%s" % (http.base, path), headers={"Accept": encoding}, timeout=TIMEOUT_S)


def test_starbase_creates_writes_reads_scans_deletes_and_drops_a_table(rest_url):
    conn = starbase_connection(rest_url)
    assert conn.cluster_version["Version"].startswith("2.6.1")
    table = conn.table(hbcompat.unique_table_name("sb"))
    assert table.exists() is False
    assert table.create("f", "g") == 201
    try:
        assert table.exists() is True
        assert sorted(table.columns()) == ["f", "g"]
        assert table.name in conn.tables()
        schema = table.schema()
        assert schema["name"] == table.name
        assert sorted(c["name"] for c in schema["ColumnSchema"]) == ["f", "g"]

        assert table.insert("r1", {"f": {"a": "1", "b": "2"}, "g": {"c": "x"}}) == 200
        assert table.insert("r2", {"f": {"a": "x"}}) == 200
        assert table.update("r2", {"f": {"b": "y"}}) == 200
        batch = table.batch()
        batch.insert("r3", {"f": {"a": "3"}})
        batch.insert("r4", {"g": {"c": "4"}})
        assert batch.commit(finalize=True)["response"] == [200]

        assert table.fetch("r1") == {"f": {"a": "1", "b": "2"}, "g": {"c": "x"}}
        assert table.fetch("r1", ["f:a"]) == {"f": {"a": "1"}}
        assert table.fetch("r2") == {"f": {"a": "x", "b": "y"}}
        assert table.fetch("nope") is None
        # starbase's default scanner body is the JSON string "", which HBase answers with 500;
        # an empty ScannerModel object is what a caller passes.
        assert list(table.fetch_all_rows(scanner_config={}, with_row_id=True)) == [
            {"r1": {"f": {"a": "1", "b": "2"}, "g": {"c": "x"}}},
            {"r2": {"f": {"a": "x", "b": "y"}}},
            {"r3": {"f": {"a": "3"}}},
            {"r4": {"g": {"c": "4"}}}]
        row_filter = ('{"type": "RowFilter", "op": "EQUAL", "comparator": '
                      '{"type": "BinaryComparator", "value": "cjM="}}')
        assert list(table.fetch_all_rows(with_row_id=True, filter_string=row_filter)) == [
            {"r3": {"f": {"a": "3"}}}]

        assert table.remove("r1", "f", "a") == 200
        assert table.fetch("r1") == {"f": {"b": "2"}, "g": {"c": "x"}}
        assert table.remove("r2") == 200
        assert table.fetch("r2") is None

        assert table.add_columns("h") == 200
        assert sorted(table.columns()) == ["f", "g", "h"]
        assert table.drop_columns("h") == 201
        assert sorted(table.columns()) == ["f", "g"]
        regions = table.regions()
        assert regions["name"] == table.name and len(regions["Region"]) == 1
    finally:
        assert table.drop() == 200
    assert table.exists() is False


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_cells_written_in_an_encoding_read_back_exactly_in_it(http, rest_table, encoding):
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 10, b"a10"), (b"f:a", 20, b"a20"),
                                     (b"f:b", 5, b"\x00\xffbin")]),
                            (b"r2", [(b"f:a", 7, b"two")])], encoding)
    r = get(http, "%s/r1" % table, encoding)
    assert r.status_code == 200 and r.headers["Content-Type"] == encoding
    assert rest_codec.decode_cellset(r.content, encoding) == [
        (b"r1", [(b"f:a", 20, b"a20"), (b"f:b", 5, b"\x00\xffbin")])]
    r = get(http, "%s/r1/f:a?v=5" % table, encoding)
    assert rest_codec.decode_cellset(r.content, encoding) == [
        (b"r1", [(b"f:a", 20, b"a20"), (b"f:a", 10, b"a10")])]
    # /TIMESTAMP reads the newest version before it; /START,END a time range.
    r = get(http, "%s/r1/f:a/15" % table, encoding)
    assert rest_codec.decode_cellset(r.content, encoding) == [(b"r1", [(b"f:a", 10, b"a10")])]
    r = get(http, "%s/multiget?row=r2&row=missing&row=r1" % table, encoding)
    assert r.status_code == 200
    assert rest_codec.decode_cellset(r.content, encoding) == [
        (b"r2", [(b"f:a", 7, b"two")]),
        (b"r1", [(b"f:a", 20, b"a20"), (b"f:b", 5, b"\x00\xffbin")])]
    r = get(http, "%s/*" % table, encoding)
    assert r.status_code == 200
    assert rest_codec.decode_scan(r.content, encoding) == [
        (b"r1", [(b"f:a", 20, b"a20"), (b"f:b", 5, b"\x00\xffbin")]),
        (b"r2", [(b"f:a", 7, b"two")])]


def test_stateless_protobuf_scan_is_a_stream_of_length_prefixed_cellsets(http, rest_table):
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"x")])], JSON)
    body = get(http, "%s/*" % table, PROTOBUF).content
    assert int.from_bytes(body[:2], "big") == len(body) - 2
    assert rest_codec.decode_cellset(body[2:], PROTOBUF) == [(b"r1", [(b"f:a", 1, b"x")])]


def test_octet_stream_puts_and_gets_one_value_with_its_timestamp(http, rest_table):
    table = rest_table()
    url = "%s/%s/r1/f:a" % (http.base, table)
    r = http.put(url, data=b"raw\x00value", headers={"Content-Type": OCTET, "X-Timestamp": "77"},
                 timeout=TIMEOUT_S)
    assert r.status_code == 200
    r = http.get(url, headers={"Accept": OCTET}, timeout=TIMEOUT_S)
    assert (r.status_code, r.content, r.headers["X-Timestamp"]) == (200, b"raw\x00value", "77")
    assert r.headers["Content-Type"] == OCTET
    # The timestamp in the path is not the one written: the cell gets the server's time.
    r = http.put(url + "/5", data=b"later", headers={"Content-Type": OCTET}, timeout=TIMEOUT_S)
    assert r.status_code == 200
    r = http.get(url, headers={"Accept": OCTET}, timeout=TIMEOUT_S)
    assert r.content == b"later" and int(r.headers["X-Timestamp"]) > 1_000_000_000_000
    http.put("%s/%s/r1/f:b" % (http.base, table), data=b"b", headers={"Content-Type": OCTET},
             timeout=TIMEOUT_S)
    r = http.get("%s/%s/r1" % (http.base, table), headers={"Accept": OCTET}, timeout=TIMEOUT_S)
    assert r.status_code == 400
    assert r.text.startswith("Bad request: Default 'GET' method only works if there is exactly "
                             "1 column in the row.")
    r = http.get("%s/%s/r1" % (http.base, table), headers={"Accept": "text/plain"},
                 timeout=TIMEOUT_S)
    assert r.status_code == 406


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_check_put_and_check_delete_answer_200_or_304(http, rest_table, encoding):
    table = rest_table()

    def check(op, row_path, cells):
        body = rest_codec.encode_cellset([(b"r1", cells)], encoding)
        r = http.put("%s/%s/%s?check=%s" % (http.base, table, row_path, op), data=body,
                     headers={"Content-Type": encoding}, timeout=TIMEOUT_S)
        return r.status_code, r.text

    put_cells(http, table, [(b"r1", [(b"f:a", None, b"old"), (b"f:b", None, b"b")])], encoding)
    # The last cell is the check; the put is the other cell of the same column.
    assert check("put", "r1", [(b"f:a", None, b"new"), (b"f:a", None, b"nope")])[0] == 304
    assert check("put", "r1", [(b"f:a", None, b"new"), (b"f:a", None, b"old")])[0] == 200
    cell = rest_codec.decode_cellset(get(http, "%s/r1/f:a" % table, JSON).content, JSON)[0][1][0]
    assert cell[2] == b"new"
    assert check("put", "r1", [(b"f:b", None, b"x"), (b"f:a", None, b"new")]) == \
        (400, "Bad request: The column to put and check do not match.\r\n")
    assert check("put", "r1", [(b"f:a", None, b"new")]) == \
        (400, "Bad request: Either row key is null or no data found for columns specified.\r\n")
    # check=delete deletes the column of the cell before the check (the path's column is not
    # used), or the checked column itself when the check is the only cell.
    put_cells(http, table, [(b"r1", [(b"f:c", 3, b"c")])], encoding)
    assert check("delete", "r1/f:b", [(b"f:c", None, b""), (b"f:a", None, b"old")])[0] == 304
    assert check("delete", "r1/f:b", [(b"f:c", None, b""), (b"f:a", None, b"new")])[0] == 200
    assert [c for c, _, _ in rest_codec.decode_cellset(
        get(http, "%s/r1" % table, JSON).content, JSON)[0][1]] == [b"f:a", b"f:b"]
    assert check("delete", "r1/f:b", [(b"f:a", None, b"new")])[0] == 200
    assert [c for c, _, _ in rest_codec.decode_cellset(
        get(http, "%s/r1" % table, JSON).content, JSON)[0][1]] == [b"f:b"]
    assert check("delete", "r1", [(b"f:b", None, b"b")])[0] == 200
    assert get(http, "%s/r1" % table, JSON).status_code == 404


def test_delete_removes_a_column_then_the_row(http, rest_table):
    table = rest_table(families=("f", "g"))
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"a"), (b"f:b", 1, b"b"), (b"g:c", 1, b"c")])],
              XML)
    assert http.delete("%s/%s/r1/f:a" % (http.base, table), timeout=TIMEOUT_S).status_code == 200
    assert rest_codec.decode_cellset(get(http, "%s/r1" % table, XML).content, XML) == [
        (b"r1", [(b"f:b", 1, b"b"), (b"g:c", 1, b"c")])]
    assert http.delete("%s/%s/r1/g" % (http.base, table), timeout=TIMEOUT_S).status_code == 200
    assert rest_codec.decode_cellset(get(http, "%s/r1" % table, XML).content, XML) == [
        (b"r1", [(b"f:b", 1, b"b")])]
    assert http.delete("%s/%s/r1" % (http.base, table), timeout=TIMEOUT_S).status_code == 200
    assert get(http, "%s/r1" % table, XML).status_code == 404


def test_stateless_scan_parameters(http, rest_table):
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"v1"), (b"f:b", 1, b"w1")]),
                            (b"r2", [(b"f:a", 10, b"old"), (b"f:a", 20, b"new")]),
                            (b"r3", [(b"f:c", 7, b"c3")])], JSON)

    def scan(query):
        r = get(http, "%s/*?%s" % (table, query), JSON)
        assert r.status_code == 200, (query, r.status_code, r.text)
        return [(k, [(c, t, v) for c, t, v in cells])
                for k, cells in rest_codec.decode_cellset(r.content, JSON)]

    assert [k for k, _ in scan("startrow=r2&endrow=r3")] == [b"r2"]
    assert scan("limit=1") == [(b"r1", [(b"f:a", 1, b"v1"), (b"f:b", 1, b"w1")])]
    assert [k for k, _ in scan("reversed=true")] == [b"r3", b"r2", b"r1"]
    assert scan("column=f:c") == [(b"r3", [(b"f:c", 7, b"c3")])]
    assert scan("column=f:a&maxversions=2")[1] == (b"r2", [(b"f:a", 20, b"new"),
                                                          (b"f:a", 10, b"old")])
    assert scan("column=f:a")[1] == (b"r2", [(b"f:a", 20, b"new")])
    assert scan("starttime=5&endtime=15") == [(b"r2", [(b"f:a", 10, b"old")]),
                                              (b"r3", [(b"f:c", 7, b"c3")])]
    # batchsize splits a row into several entries with the same key; limit counts entries.
    assert scan("batchsize=1&limit=2") == [(b"r1", [(b"f:a", 1, b"v1")]),
                                           (b"r1", [(b"f:b", 1, b"w1")])]
    assert scan("filter=ValueFilter(%3D,'binary:old')&maxversions=5") == [
        (b"r2", [(b"f:a", 10, b"old")])]
    r = get(http, "%s/r2*" % table, JSON)
    assert [k for k, _ in rest_codec.decode_cellset(r.content, JSON)] == [b"r2"]
    r = get(http, "%s/q*" % table, JSON)
    assert (r.status_code, r.json()) == (200, {"Row": []})


@pytest.mark.parametrize("encoding", [XML, JSON])
def test_stateful_scanner_pages_cells_then_answers_204_and_is_deleted(http, rest_table, encoding):
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"v1"), (b"f:b", 1, b"w1")]),
                            (b"r2", [(b"f:a", 2, b"v2")])], PROTOBUF)
    body = '<Scanner batch="2"/>' if encoding == XML else '{"batch": 2}'
    r = http.put("%s/%s/scanner" % (http.base, table), data=body,
                 headers={"Content-Type": encoding}, timeout=TIMEOUT_S)
    assert r.status_code == 201
    location = r.headers["Location"]
    assert location.startswith("http") and "/%s/scanner/" % table in location
    pages = []
    for _ in range(5):
        r = http.get(location, headers={"Accept": encoding}, timeout=TIMEOUT_S)
        if r.status_code != 200:
            break
        pages.append(rest_codec.decode_cellset(r.content, encoding))
    assert r.status_code == 204 and r.content == b""
    assert pages == [[(b"r1", [(b"f:a", 1, b"v1"), (b"f:b", 1, b"w1")])],
                     [(b"r2", [(b"f:a", 2, b"v2")])]]
    assert http.delete(location, timeout=TIMEOUT_S).status_code == 200
    assert http.get(location, headers={"Accept": encoding}, timeout=TIMEOUT_S).status_code == 404
    assert http.delete(location, timeout=TIMEOUT_S).status_code == 404


def test_stateful_scanner_in_protobuf_with_a_row_range(http, rest_table):
    table = rest_table()
    put_cells(http, table, [(k, [(b"f:a", 3, k + b"v")]) for k in (b"a", b"b", b"c", b"d")], XML)
    # Scanner { startRow = 1; endRow = 2; batch = 4 }
    body = (rest_codec.pb_field(1, b"b") + rest_codec.pb_field(2, b"d")
            + rest_codec.pb_field(4, 10))
    r = http.post("%s/%s/scanner" % (http.base, table), data=body,
                  headers={"Content-Type": PROTOBUF}, timeout=TIMEOUT_S)
    assert r.status_code == 201
    r = http.get(r.headers["Location"], headers={"Accept": PROTOBUF}, timeout=TIMEOUT_S)
    assert rest_codec.decode_cellset(r.content, PROTOBUF) == [(b"b", [(b"f:a", 3, b"bv")]),
                                                              (b"c", [(b"f:a", 3, b"cv")])]


def test_misses_answer_404_with_hbase_texts(http, rest_table):
    table = rest_table()
    assert (get(http, "%s/nope" % table, JSON).status_code,
            get(http, "%s/nope" % table, JSON).text) == (404, "Not found\r\n")
    missing = hbcompat.unique_table_name("absent")
    assert get(http, "%s/r1" % missing, JSON).status_code == 404
    r = get(http, "%s/multiget?row=nope" % table, JSON)
    assert (r.status_code, r.text) == (404, "No rows found.\r\n")
    assert http.get("%s/%s/exists" % (http.base, table), timeout=TIMEOUT_S).status_code == 200
    assert http.get("%s/%s/exists" % (http.base, missing), timeout=TIMEOUT_S).status_code == 404
    assert http.delete("%s/%s/schema" % (http.base, missing), timeout=TIMEOUT_S).status_code \
        == 404


def test_multiget_of_several_rows_fails_as_a_batch_and_of_one_row_as_a_single_get(http,
                                                                                  rest_table):
    """HBase sends several rows as one batch, whose missing table or family is 404 "Not found";
    a single row's get swallows it and the gateway fails in its container (500)."""
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"v")])], JSON)
    missing = hbcompat.unique_table_name("absent")
    for path in ("%s/multiget?row=r1&row=r2" % missing, "%s/multiget?row=r1&row=r2/zz:a" % table):
        r = get(http, path, PROTOBUF)
        assert (r.status_code, r.headers.get("Content-Type"), r.text.split("\r\n")[0]) \
            == (404, "text/plain", "Not found"), (path, r.text[:200])
    for path in ("%s/multiget?row=r1" % missing, "%s/multiget?row=r1/zz:a" % table):
        assert get(http, path, JSON).status_code == 500, path


def test_unreadable_bodies_answer_as_hbase_s_reader_or_resource(http, rest_table):
    """Malformed XML: Jersey's reader refuses it, 400 without a body. An empty JSON body is no
    model at all: the row and schema resources fail on it, 400 "Bad request"."""
    table = rest_table()
    for body in (b"", b"{", b"<CellSet><Row", b'{"Row":[]}'):
        r = http.put("%s/%s/r1" % (http.base, table), data=body, headers={"Content-Type": XML},
                     timeout=TIMEOUT_S)
        assert (r.status_code, r.content, r.headers.get("Content-Type")) == (400, b"", None), body
    for path in ("%s/r1" % table, "%s/schema" % hbcompat.unique_table_name("nomodel")):
        r = http.put("%s/%s" % (http.base, path), data=b"", headers={"Content-Type": JSON},
                     timeout=TIMEOUT_S)
        assert (r.status_code, r.text.split("\r\n")[0]) == (400, "Bad request"), (path, r.text)


def test_scans_naming_a_missing_family(http, rest_table):
    """The stateless scan fails in HBase's container (500); a stateful scanner's fetch reads the
    region server's refusal as the end of its rows (204), at every fetch."""
    table = rest_table()
    put_cells(http, table, [(b"r1", [(b"f:a", 1, b"v")])], JSON)
    assert get(http, "%s/*?column=zz:a" % table, JSON).status_code == 500
    r = http.put("%s/%s/scanner" % (http.base, table), headers={"Content-Type": JSON},
                 data='{"column":["%s"]}' % rest_codec.b64(b"zz"), timeout=TIMEOUT_S)
    assert r.status_code == 201, r.text
    for accept in (JSON, OCTET):
        r2 = http.get(r.headers["Location"], headers={"Accept": accept}, timeout=TIMEOUT_S)
        assert (r2.status_code, r2.content) == (204, b""), accept


def test_namespace_body_the_reader_refuses_is_jetty_s_page_with_its_status(http):
    ns = hbcompat.unique_table_name("nsbody")
    url = "%s/namespaces/%s" % (http.base, ns)
    try:
        for ctype, status, message in ((XML, 400, "Bad Request"), (JSON, 500, "Request failed."),
                                       (PROTOBUF, 500, "Request failed.")):
            r = http.post(url, data=b"{", timeout=TIMEOUT_S,
                          headers={"Content-Type": ctype, "Accept": JSON})
            assert (r.status_code, r.json()["message"]) == (status, message), ctype
        r = http.post(url, data=b"", headers={"Content-Type": XML}, timeout=TIMEOUT_S)
        assert r.status_code == 400
    finally:
        http.delete(url, timeout=TIMEOUT_S)


def test_jetty_pages_405_and_406_for_get_and_post_only(http, rest_table):
    table = rest_table()
    r = http.post("%s/version" % http.base, headers={"Accept": JSON}, timeout=TIMEOUT_S)
    assert (r.status_code, r.headers["Allow"], r.json()["message"]) \
        == (405, "GET,OPTIONS", "Method Not Allowed")
    r = http.delete("%s/%s/exists" % (http.base, table), headers={"Accept": JSON},
                    timeout=TIMEOUT_S)
    assert (r.status_code, r.content) == (405, b"")
    r = http.patch("%s/%s/schema" % (http.base, table), timeout=TIMEOUT_S)
    assert (r.status_code, r.headers["Allow"]) == (405, "DELETE,POST,GET,OPTIONS,PUT")
    r = get(http, "%s/r1" % table, "text/plain")
    assert (r.status_code, r.text.split("\n")[0]) == (406, "HTTP ERROR 406 Not Acceptable")
    r = http.put("%s/%s/a*b" % (http.base, table), data=b"x", timeout=TIMEOUT_S,
                 headers={"Accept": JSON, "Content-Type": OCTET})
    assert (r.status_code, r.content) == (404, b"")


def test_table_created_in_a_missing_namespace_is_unavailable(http):
    name = "%s:t" % hbcompat.unique_table_name("nons")
    body = "<TableSchema name=\"%s\"><ColumnSchema name=\"f\"/></TableSchema>" % name
    for method in ("PUT", "POST"):
        r = http.request(method, "%s/%s/schema" % (http.base, name), data=body,
                         headers={"Content-Type": XML}, timeout=TIMEOUT_S)
        assert (r.status_code, r.text.split("\r\n")[0]) == (503, "Unavailable"), r.text[:200]
        assert "NamespaceNotFoundException" in r.text


@pytest.mark.parametrize("encoding", [XML, JSON])
def test_schema_created_in_an_encoding_is_described_and_listed(http, encoding):
    name = hbcompat.unique_table_name("schema")
    if encoding == XML:
        body = '<TableSchema name="%s"><ColumnSchema name="f" VERSIONS="4"/></TableSchema>' % name
    else:
        body = '{"name": "%s", "ColumnSchema": [{"name": "f", "VERSIONS": "4"}]}' % name
    url = "%s/%s/schema" % (http.base, name)
    r = http.put(url, data=body, headers={"Content-Type": encoding}, timeout=TIMEOUT_S)
    assert r.status_code == 201, r.text
    try:
        schema = http.get(url, headers={"Accept": JSON}, timeout=TIMEOUT_S).json()
        assert schema["name"] == name
        assert [(c["name"], c["VERSIONS"]) for c in schema["ColumnSchema"]] == [("f", "4")]
        tables = http.get(http.base + "/", headers={"Accept": JSON}, timeout=TIMEOUT_S).json()
        assert {"name": name} in tables["table"]
        listed = http.get(http.base + "/namespaces/default/tables", headers={"Accept": JSON},
                          timeout=TIMEOUT_S)
        assert listed.status_code == 200 and name in listed.text
    finally:
        assert http.delete(url, timeout=TIMEOUT_S).status_code == 200
    assert http.get(url, headers={"Accept": JSON}, timeout=TIMEOUT_S).status_code == 404


def test_version_in_text_json_and_protobuf(http):
    text = http.get(http.base + "/version", headers={"Accept": "text/plain"}, timeout=TIMEOUT_S)
    assert text.status_code == 200 and text.text.startswith("rest 0.0.3 [JVM: ")
    doc = http.get(http.base + "/version", headers={"Accept": JSON}, timeout=TIMEOUT_S).json()
    assert doc["REST"] == "0.0.3"
    pb = http.get(http.base + "/version", headers={"Accept": PROTOBUF}, timeout=TIMEOUT_S)
    assert rest_codec.decode_version(pb.content)["REST"] == "0.0.3"
    cluster = http.get(http.base + "/version/cluster", headers={"Accept": JSON},
                       timeout=TIMEOUT_S).json()
    assert cluster["Version"].startswith("2.6.1")


def test_namespace_create_alter_list_and_drop(http):
    ns = hbcompat.unique_table_name("ns")
    url = "%s/namespaces/%s" % (http.base, ns)
    r = http.post(url, timeout=TIMEOUT_S)
    assert r.status_code == 201 and r.headers["Location"].endswith("/namespaces/" + ns)
    try:
        r = http.post(url, timeout=TIMEOUT_S)
        assert (r.status_code, r.text) == (403, "Namespace '%s' already exists.  Use REST PUT to "
                                                "alter the existing namespace." % ns)
        assert http.get(url, headers={"Accept": JSON}, timeout=TIMEOUT_S).json() == \
            {"properties": None}
        r = http.put(url, data='{"properties":{"owner":"me"}}',
                     headers={"Content-Type": JSON}, timeout=TIMEOUT_S)
        assert (r.status_code, r.headers["Content-Type"], r.text) == (200, "text/plain", url)
        r = http.put(url, headers={"Accept": JSON}, timeout=TIMEOUT_S)
        assert (r.status_code, r.json()) == (200, url)
        r = http.put(url, data='{"properties":{"owner":"me"}}', timeout=TIMEOUT_S,
                     headers={"Content-Type": JSON, "Accept": XML})
        assert (r.status_code, r.content) == (500, b"")
        assert http.get(url, headers={"Accept": JSON}, timeout=TIMEOUT_S).json() == \
            {"properties": {"owner": "me"}}
        listed = http.get(http.base + "/namespaces", headers={"Accept": JSON},
                          timeout=TIMEOUT_S).json()
        assert ns in listed["Namespace"] and "default" in listed["Namespace"]
        table = "%s:t" % ns
        r = http.put("%s/%s/schema" % (http.base, table), data='{"name":"%s","ColumnSchema":'
                     '[{"name":"f"}]}' % table, headers={"Content-Type": JSON}, timeout=TIMEOUT_S)
        assert r.status_code == 201
        assert http.get(url + "/tables", headers={"Accept": JSON}, timeout=TIMEOUT_S).json() == \
            {"table": [{"name": "t"}]}
        put_cells(http, table, [(b"r", [(b"f:q", 3, b"in a namespace")])], JSON)
        assert rest_codec.decode_cellset(get(http, "%s/r" % table, JSON).content, JSON) == [
            (b"r", [(b"f:q", 3, b"in a namespace")])]
        assert http.delete(url, timeout=TIMEOUT_S).status_code == 503  # not empty
        assert http.delete("%s/%s/schema" % (http.base, table), timeout=TIMEOUT_S).status_code \
            == 200
    finally:
        r = http.delete(url, timeout=TIMEOUT_S)
    assert r.status_code == 200
    r = http.delete(url, timeout=TIMEOUT_S)
    assert (r.status_code, r.text) == (404, "Namespace '%s' does not exists.  Cannot drop "
                                            "namespace." % ns)


@pytest.mark.parametrize("encoding", [XML, PROTOBUF])
def test_check_append_and_increment_apply_every_cell(http, rest_table, encoding):
    table = rest_table()

    def check(op, cells):
        r = http.put("%s/%s/r1?check=%s" % (http.base, table, op),
                     data=rest_codec.encode_cellset([(b"r1", cells)], encoding),
                     headers={"Content-Type": encoding}, timeout=TIMEOUT_S)
        return r.status_code, r.text.split("\r\n")[0]

    assert check("append", [(b"f:s", None, b"ab")]) == (200, "")
    assert check("append", [(b"f:s", None, b"cd")]) == (200, "")
    # The amount is decimal text; the cell holds an 8-byte big-endian long.
    assert check("increment", [(b"f:n", None, b"5"), (b"f:m", None, b"-2")]) == (200, "")
    assert check("increment", [(b"f:n", None, b"2")]) == (200, "")
    values = {c: v for c, _, v in rest_codec.decode_cellset(
        get(http, "%s/r1" % table, JSON).content, JSON)[0][1]}
    assert values == {b"f:s": b"abcd", b"f:n": (7).to_bytes(8, "big"),
                      b"f:m": (-2).to_bytes(8, "big", signed=True)}
    assert check("increment", [(b"f:n", None, b"x")]) == (400, "Bad request")
    assert check("increment", [(b"f:s", None, b"1")]) == (503, "Unavailable")
    assert check("append", [(b"zz:q", None, b"1")]) == (404, "Not found")
    assert check("bogus", [(b"f:s", None, b"1")]) == (400, "Invalid check value 'bogus'")


def test_encoding_b64_header_reads_row_and_column_from_base64_path_segments(http, rest_table):
    table = rest_table()
    b64 = {"Encoding": "b64"}
    row, column = rest_codec.b64(b"r 1"), rest_codec.b64(b"f:a")
    r = http.put("%s/%s/%s/%s" % (http.base, table, row, column), data=b"x",
                 headers=dict(b64, **{"Content-Type": OCTET}), timeout=TIMEOUT_S)
    assert r.status_code == 200
    assert rest_codec.decode_cellset(get(http, "%s/r%%201" % table, JSON).content, JSON)[0][0] \
        == b"r 1"
    r = http.get("%s/%s/%s/%s" % (http.base, table, row, column),
                 headers=dict(b64, Accept=OCTET), timeout=TIMEOUT_S)
    assert (r.status_code, r.content) == (200, b"x")
    assert http.delete("%s/%s/%s" % (http.base, table, row), headers=b64,
                       timeout=TIMEOUT_S).status_code == 200
    assert get(http, "%s/r%%201" % table, JSON).status_code == 404
