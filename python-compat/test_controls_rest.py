"""REST calls and the test controls (--test-controls): fault rules hit REST calls by their REST
name ("PUT /table/row", service "rest"), the call log records them beside the Thrift calls, and
the console's heat map and per-method metrics count their reads and writes."""

import http.client
import json
import urllib.request

import pytest
from controls_util import controlled, table_name  # noqa: F401 (fixture)
from hbase_emulator.controls import CallRecorder, UnknownMethodError

NOT_SERVING = "org.apache.hadoop.hbase.NotServingRegionException"


class Rest:
    def __init__(self, process):
        self.host, self.port = process.host, process.ports["rest"]

    def call(self, method, path, body=None, content_type="application/octet-stream",
             accept="application/octet-stream"):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            headers = {"Accept": accept}
            if body is not None:
                headers["Content-Type"] = content_type
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def create(self, table):
        status, body = self.call("PUT", "/%s/schema" % table,
                                 json.dumps({"name": table, "ColumnSchema": [{"name": "f"}]}),
                                 "application/json")
        assert status == 201, body


def test_a_fail_fault_on_a_rest_call_is_answered_as_hbases_gateway_answers_the_exception(
        controlled):
    """Documented outcome: a `fail` rule of service "rest" answers the call with the status and
    text HBase's gateway gives that exception (503 "Unavailable" and "<class>: <message>" here;
    404 for TableNotFoundException, 400 for IllegalArgumentException) without running it; the
    call log shows the fault; the next call runs."""
    rest = Rest(controlled.process)
    name = table_name("restfault")
    rest.create(name)
    faults = controlled.controls.faults
    calls = CallRecorder(controlled.controls.calls)
    faults.add(service="rest", method="PUT /table/row", table=name, exception=NOT_SERVING,
               message="region is moving", times=1)
    status, body = rest.call("PUT", "/%s/r1/f:q" % name, b"v1")
    assert (status, body) == (503, ("Unavailable\r\n%s: region is moving\r\n" % NOT_SERVING)
                              .encode())
    assert rest.call("GET", "/%s/r1/f:q" % name)[0] == 404  # never written
    assert rest.call("PUT", "/%s/r1/f:q" % name, b"v1")[0] == 200
    assert rest.call("GET", "/%s/r1/f:q" % name) == (200, b"v1")
    failed = calls.calls(service="rest", method="PUT /table/row", table=name)[0]
    assert failed["fault"].startswith("rule ") and failed["outcome"] in ("fault", "error")
    with faults.inject(service="rest", method="GET *", exception="java.lang.IllegalArgumentException",
                       message="no", times=1):
        assert rest.call("GET", "/%s/r1/f:q" % name)[0] == 400


def test_rest_calls_are_in_the_call_log_with_their_rest_names(controlled):
    """Documented outcome: each REST call is logged with service "rest", its REST name
    ("PUT /table/row", "GET /table/multiget", ...), table, row or rows, and its outcome (an
    error status is an error with the body the client got); `method=` takes the same names and
    globs ("* /table/row")."""
    rest = Rest(controlled.process)
    name = table_name("restlog")
    rest.create(name)
    mark = controlled.controls.calls.mark()
    rest.call("PUT", "/%s/row-1/f:q" % name, b"1")
    rest.call("GET", "/%s/row-1/f:q" % name)
    rest.call("GET", "/%s/missing/f:q" % name)
    rest.call("GET", "/%s/multiget?row=row-1&row=row-2" % name, accept="application/json")
    calls = controlled.controls.calls.list(since=mark, service="rest")
    assert [c["method"] for c in calls] == ["PUT /table/row", "GET /table/row", "GET /table/row",
                                           "GET /table/multiget"]
    assert all(c["service"] == "rest" and c["table"] == name for c in calls)
    assert calls[0]["row"] == "row-1"
    assert calls[2]["outcome"] == "error" and "Not found" in calls[2]["error"]
    assert calls[3]["rows"] == ["row-1", "row-2"]
    rows = controlled.controls.calls.list(since=mark, method="* /table/row")
    assert len(rows) == 3
    # Thrift calls are logged beside them.
    controlled.happybase().table(name).put(b"row-2", {b"f:q": b"2"})
    services = {c["service"] for c in controlled.controls.calls.list(since=mark, table=name)}
    assert services == {"rest", "thrift1"}


def test_close_faults_drop_the_rest_connection_before_or_after_the_call_runs(controlled):
    """Documented outcome: `close_before` closes the connection without an answer and the call
    never runs; `close_after` runs it (the cell is written) and closes without an answer."""
    rest = Rest(controlled.process)
    name = table_name("restclose")
    rest.create(name)
    faults = controlled.controls.faults
    with faults.inject(service="rest", method="PUT /table/row", action="close_before", times=1):
        with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
            rest.call("PUT", "/%s/a/f:q" % name, b"v")
    assert rest.call("GET", "/%s/a/f:q" % name)[0] == 404
    with faults.inject(service="rest", method="PUT /table/row", action="close_after", times=1):
        with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
            rest.call("PUT", "/%s/b/f:q" % name, b"v")
    assert rest.call("GET", "/%s/b/f:q" % name) == (200, b"v")


def test_a_misspelt_rest_call_name_is_refused_with_the_close_names(controlled):
    """Documented outcome: a rule naming no REST call is refused (UnknownMethodError in
    Python, 400 from /control/faults) with the close names; GET /control/methods lists them."""
    names = controlled.controls.method_names()
    assert "PUT /table/row" in names["rest"] and "GET /table/scanner/id" in names["rest"]
    with pytest.raises(UnknownMethodError, match="GET /table/row"):
        controlled.controls.faults.add(service="rest", method="GET /table/rows")
    request = urllib.request.Request(
        "http://%s:%d/control/faults" % (controlled.process.host,
                                          controlled.process.ports["admin"]),
        data=json.dumps({"service": "rest", "method": "GET /table/rows"}).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    assert "GET /table/row" in refused.value.read().decode()


def test_rest_reads_and_writes_count_in_the_heat_map_and_per_method_metrics(controlled):
    """Documented outcome: rows a REST call reads or writes count in the table's heat map and
    totals (console /api/tables/T) as a Thrift call's do, and /metrics counts REST calls by
    their REST name under service "rest"."""
    rest = Rest(controlled.process)
    name = table_name("restheat")
    rest.create(name)
    for row in ("a1", "a2", "b1"):
        assert rest.call("PUT", "/%s/%s/f:q" % (name, row), b"v")[0] == 200
    assert rest.call("GET", "/%s/a1/f:q" % name)[0] == 200
    status, scanned = rest.call("GET", "/%s/a*" % name, accept="application/json")
    assert status == 200 and len(json.loads(scanned)["Row"]) == 2
    base = "http://%s:%d" % (controlled.process.host, controlled.process.ports["admin"])
    with urllib.request.urlopen(base + "/api/tables/" + name, timeout=30) as answer:
        table = json.load(answer)
    assert (table["rows_written"], table["rows_read"]) == (3, 3)  # one get, two scanned
    with urllib.request.urlopen(base + "/metrics", timeout=30) as answer:
        metrics = answer.read().decode()
    assert ('hbase_emulator_calls_total{service="rest",method="PUT /table/row",outcome="ok"} 3'
            in metrics)
