"""Fault rules of the test controls (--test-controls), seen by real clients: the failure each
gateway sends, delays, and connections closed before a call runs or after it was applied."""

import urllib.error
import urllib.request

import pytest
from thriftpy2.transport import TTransportException

import happybase  # noqa: F401 (registers Hbase_thrift)
import Hbase_thrift  # registered by `import happybase` (thriftpy2.load)
from controls_util import controlled, table_name  # noqa: F401 (fixture)
from hbase_emulator import thrift2

NSRE = "org.apache.hadoop.hbase.NotServingRegionException"
TRANSPORT_ERRORS = (TTransportException, OSError, EOFError)


def make_table(server, tag, families=None):
    conn = server.happybase()
    name = table_name(tag)
    conn.create_table(name, families or {"f": {}})
    return conn, name


def row_with_retry(table, row, attempts=5):
    """What application code does: retry a read that failed with a retriable IOError."""
    failures = []
    for _ in range(attempts):
        try:
            return table.row(row), failures
        except Hbase_thrift.IOError as e:
            message = e.message.decode()
            if "DoNotRetryIOException" in message:  # happybase's IDL has no canRetry field
                raise
            failures.append(message)
    raise AssertionError("gave up after %s" % failures)


def test_happybase_retry_loop_survives_fail_twice_then_succeed(controlled):
    conn, name = make_table(controlled, "retry")
    table = conn.table(name)
    table.put(b"r1", {b"f:a": b"v"})
    rule = controlled.controls.faults.add(service="thrift1", method="getRow*", table=name,
                                          times=2, exception=NSRE, message="region moved")
    row, failures = row_with_retry(table, b"r1")
    assert row == {b"f:a": b"v"}
    # Thrift1 carries the class in the IOError's message, as HBase's gateway does.
    assert failures == [NSRE + ": region moved"] * 2
    listed = controlled.controls.faults.rule(rule["id"])
    assert listed["triggered"] == 2 and listed["times"] == 0
    calls = controlled.controls.calls.list(table=name, method="getRowWithColumns")
    assert [c["outcome"] for c in calls] == ["error", "error", "ok"]
    assert calls[0]["error_class"] == NSRE and calls[0]["fault"].startswith("rule ")


def test_a_do_not_retry_exception_is_sent_with_can_retry_false(controlled):
    conn, name = make_table(controlled, "dnr")
    dnr = "org.apache.hadoop.hbase.DoNotRetryIOException"
    controlled.controls.faults.add(method="get*", exception=dnr, message="bad row")
    with pytest.raises(Hbase_thrift.IOError) as raised:
        row_with_retry(conn.table(name), b"r1")
    assert raised.value.message == (dnr + ": bad row").encode()
    client = controlled.thrift2()
    with pytest.raises(thrift2.ttypes.TIOError) as raised:
        client.get(name.encode(), thrift2.ttypes.TGet(row=b"r1"))
    assert raised.value.canRetry is False


def test_an_illegal_argument_fault_is_the_declared_illegal_argument(controlled):
    conn, name = make_table(controlled, "ia")
    table = conn.table(name)
    table.put(b"r", {b"f:a": b"1"})
    controlled.controls.faults.add(method="scannerGetList", times=1,
                                   exception="java.lang.IllegalArgumentException",
                                   message="scanner ID is invalid")
    with pytest.raises(Hbase_thrift.IllegalArgument) as raised:
        list(table.scan())
    assert raised.value.message == b"scanner ID is invalid"


def incr_with_reconnect(conn, table_name_, row, column, attempts=3):
    """A naive retry: reconnect and send the increment again when the connection drops."""
    for _ in range(attempts):
        try:
            return conn.table(table_name_).counter_inc(row, column)
        except TRANSPORT_ERRORS:
            conn.close()
            conn.open()
    raise AssertionError("increment never answered")


def test_apply_then_drop_the_connection_makes_a_retried_increment_count_twice(controlled):
    conn, name = make_table(controlled, "dup")
    controlled.controls.faults.add(action="close_after", method="atomicIncrement", table=name,
                                   times=1)
    returned = incr_with_reconnect(conn, name, b"r", b"f:n")
    calls = controlled.controls.calls.list(table=name, method="atomicIncrement")
    # The code incremented once; the first call was applied before the connection dropped, and
    # the retry applied it again: the duplicate a non-idempotent retry makes.
    assert returned == 2
    assert conn.table(name).counter_get(b"r", b"f:n") == 2
    assert len(calls) == 2
    assert "close_after" in calls[0]["fault"]
    assert calls[0]["reason"] == "the call was applied, then the connection was closed"
    assert calls[1]["outcome"] == "ok"


def test_closing_before_the_call_runs_applies_nothing(controlled):
    conn, name = make_table(controlled, "before")
    controlled.controls.faults.add(action="close_before", method="mutateRow*", table=name,
                                   times=1)
    with pytest.raises(TRANSPORT_ERRORS):
        conn.table(name).put(b"r", {b"f:a": b"1"})
    conn.close()
    conn.open()
    assert conn.table(name).row(b"r") == {}
    conn.table(name).put(b"r", {b"f:a": b"1"})  # the rule was for one call only
    assert conn.table(name).row(b"r") == {b"f:a": b"1"}


def test_a_thrift2_client_sees_not_serving_region_as_a_retriable_tioerror(controlled):
    _, name = make_table(controlled, "t2")
    client = controlled.thrift2()
    t = thrift2.ttypes
    client.put(name.encode(), t.TPut(row=b"r", columnValues=[
        t.TColumnValue(family=b"f", qualifier=b"a", value=b"1")]))
    with controlled.controls.faults.inject(service="thrift2", method="get", table=name,
                                           row_prefix="r", exception=NSRE,
                                           message="Region is not online: " + name):
        with pytest.raises(t.TIOError) as raised:
            client.get(name.encode(), t.TGet(row=b"r"))
        # Thrift2 sends the message alone, without the class, as HBase's gateway does.
        assert raised.value.message == "Region is not online: " + name
        assert raised.value.canRetry is True
        # Another row prefix is not matched.
        assert client.get(name.encode(), t.TGet(row=b"other")).row is None
    assert client.get(name.encode(), t.TGet(row=b"r")).row == b"r"


def test_a_delay_rule_holds_the_call_and_the_log_says_so(controlled):
    conn, name = make_table(controlled, "delay")
    controlled.controls.faults.add(action="delay", delay_ms=300, method="getRow*", times=1)
    assert conn.table(name).row(b"r") == {}
    call = controlled.controls.calls.list(table=name, method="getRowWithColumns")[-1]
    assert call["fault"].endswith("delay 300 ms")
    assert call["outcome"] == "ok"
    assert call["duration_us"] >= 300000  # the sleep is inside the call


def test_seeded_probability_hits_the_same_calls_on_every_run(controlled):
    conn, name = make_table(controlled, "prob")
    table = conn.table(name)

    def pattern():
        rule = controlled.controls.faults.add(method="getRow*", probability=0.5, seed=7)
        hits = ""
        for _ in range(24):
            try:
                table.row(b"r")
                hits += "."
            except Hbase_thrift.IOError:
                hits += "x"
        controlled.controls.faults.remove(rule["id"])
        return hits

    first = pattern()
    assert "x" in first and "." in first
    assert pattern() == first


def test_triggered_faults_are_counted_in_metrics_and_shown_on_the_console(controlled):
    conn, name = make_table(controlled, "metrics")
    controlled.controls.faults.add(method="getRow*", times=1, exception=NSRE, message="moved")
    with pytest.raises(Hbase_thrift.IOError):
        conn.table(name).row(b"r")
    base = controlled.controls.base
    metrics = urllib.request.urlopen(base + "/metrics").read().decode()
    assert 'hbase_emulator_test_faults_triggered_total{action="fail"} 1' in metrics
    errors_page = urllib.request.urlopen(base + "/errors").read().decode()
    assert NSRE + ": moved" in errors_page
    assert "Fault rules" in errors_page


def test_rules_are_listed_and_cleared_and_bad_rules_refused(controlled):
    from hbase_emulator.controls import ControlError

    faults = controlled.controls.faults
    faults.add(method="get*", times=3)
    faults.add(action="close_before", table="x")
    assert [r["action"] for r in faults.list()["rules"]] == ["fail", "close_before"]
    faults.clear()
    assert faults.list()["rules"] == []
    with pytest.raises(ControlError) as raised:
        faults.add(action="explode")
    assert raised.value.status == 400 and "action" in raised.value.message


def test_rule_numbers_out_of_range_or_not_whole_are_refused(controlled):
    """"times": 1e300 became INT64_MIN, a rule that never ran out; a seed went through a
    double."""
    from hbase_emulator.controls import ControlError

    faults = controlled.controls.faults
    for fields, named in (({"times": 1e300}, "times"), ({"times": 1.5}, "times"),
                          ({"times": -2}, "times"), ({"times": 0}, "times"),
                          ({"times": 2 ** 63}, "times"), ({"seed": -1}, "seed"),
                          ({"seed": 1e300}, "seed"), ({"seed": 0.5}, "seed"),
                          ({"action": "delay", "delay_ms": 0.5}, "delay_ms"),
                          ({"action": "delay", "delay_ms": 600001}, "delay_ms"),
                          ({"probability": 1.5}, "probability")):
        with pytest.raises(ControlError) as raised:
            faults.add(**fields)
        assert raised.value.status == 400 and '"%s"' % named in raised.value.message, fields
    assert faults.list()["rules"] == []
    rule = faults.add(times=1000000000, seed=2 ** 64 - 1, probability=0.5)
    assert (rule["times"], rule["seed"]) == (1000000000, 2 ** 64 - 1)
    assert faults.add(times=-1)["times"] == -1
    assert faults.add(times=2.0)["times"] == 2  # a whole number written as a float


def test_a_misspelt_method_is_refused_with_the_close_names_by_the_server_and_the_client(controlled):
    import json

    from hbase_emulator.controls import UnknownMethodError

    controls = controlled.controls
    # The server: any client of the control door gets a 400 naming the method meant.
    for path, body in (("/control/faults", {"method": "getRowWithColums"}),
                       ("/control/calls?method=Table.scna", None)):
        request = urllib.request.Request(
            controls.base + path, method="POST" if body else "GET",
            data=json.dumps(body).encode() if body else None,
            headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        message = json.loads(refused.value.read())["error"]
        assert ("getRowWithColumns" if body else "Table.scan") in message, message
    assert controls.faults.list()["rules"] == []
    # The Python API: refused before any request is sent.
    controls.method_names()  # the names are read once, before the requests counted here
    sent = []
    real_request = controls._request
    controls._request = lambda method, path, **kw: sent.append(path) or real_request(method, path, **kw)
    with pytest.raises(UnknownMethodError, match="did you mean getRowWithColumns"):
        controls.faults.add(method="getRowWithColums")
    with pytest.raises(UnknownMethodError, match="Table.scan"):
        controls.calls.list(method="Table.scna")
    with pytest.raises(UnknownMethodError):
        controls.faults.add(service="thrift2", method="Table.put")  # a Thrift1 operation
    assert sent == []
    # Real names, globs and operations are taken.
    assert controls.faults.add(method="Table.put")["methods"] == ["mutateRows", "mutateRowsTs"]
    controls.faults.add(service="thrift2", method="getScanner*")
    assert sent == ["/control/faults", "/control/faults"]


def test_a_fault_with_a_table_hits_the_scanner_fetches_of_that_table_only(controlled):
    conn, name = make_table(controlled, "scanfault")
    _, other = make_table(controlled, "scanother")
    table = conn.table(name)
    table.put(b"r", {b"f:a": b"1"})
    conn.table(other).put(b"r", {b"f:a": b"1"})
    controlled.controls.faults.add(method="scannerGetList", table=name, exception=NSRE)
    assert len(list(conn.table(other).scan())) == 1
    with pytest.raises(Hbase_thrift.IOError, match="NotServingRegionException"):
        list(table.scan())
    # Thrift2's scanner calls carry their table too.
    client = controlled.thrift2()
    calls = controlled.controls.calls
    mark = calls.mark()
    scanner = client.openScanner(other.encode(), thrift2.ttypes.TScan())
    client.getScannerRows(scanner, 10)
    client.closeScanner(scanner)
    assert [(c["method"], c.get("table")) for c in calls.list(since=mark, service="thrift2")] == [
        ("openScanner", other), ("getScannerRows", other), ("closeScanner", other)]
