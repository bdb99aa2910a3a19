"""The call log of the test controls (--test-controls): what the code under test called, with its
arguments, outcome and the server's full reason for an error."""

import urllib.request

import happybase  # noqa: F401 (registers Hbase_thrift)
import Hbase_thrift  # registered by `import happybase` (thriftpy2.load)
import pytest
from controls_util import controlled, table_name  # noqa: F401 (fixture)
from hbase_emulator import thrift2
from hbase_emulator.controls import CallRecorder


def test_calls_are_logged_with_table_rows_and_scan_arguments(controlled):
    conn = controlled.happybase()
    name = table_name("log")
    conn.create_table(name, {"f": {}})
    table = conn.table(name)
    calls = CallRecorder(controlled.controls.calls)
    table.put(b"row-1", {b"f:a": b"1"})
    list(table.scan(row_start=b"row-0", row_stop=b"row-9", filter="KeyOnlyFilter()",
                    batch_size=7, columns=[b"f:a"]))
    # A scan's fetches and close carry the table their scanner was opened on.
    assert calls.methods(table=name) == ["mutateRows", "scannerOpenWithScan", "scannerGetList",
                                         "scannerGetList", "scannerClose"]
    calls.assert_called("mutateRows", table=name, times=1, row=b"row-1", rows=["row-1"])
    (scan,) = calls.assert_called("scannerOpenWithScan", table=name, filter="KeyOnlyFilter()")
    assert (scan["row"], scan["stop_row"], scan["caching"], scan["columns"]) == (
        "row-0", "row-9", 7, ["f:a"])
    fetch = calls.calls(method="scannerGetList")[0]
    assert fetch["scanner_id"] >= 0 and fetch["table"] == name
    calls.assert_not_called("deleteAllRow", table=name)
    calls.assert_no_errors()
    assert all(c["duration_us"] >= 0 and c["service"] == "thrift1" for c in calls.calls())


def test_an_error_is_logged_with_the_servers_full_reason(controlled):
    conn = controlled.happybase()
    calls = CallRecorder(controlled.controls.calls)
    with pytest.raises(Hbase_thrift.IOError):
        conn.table("no_such_table_here").row(b"r")
    (error,) = calls.errors()
    assert error["method"] == "getRowWithColumns"
    assert error["exception"] == "IOError"
    assert error["error_class"] == "org.apache.hadoop.hbase.TableNotFoundException"
    assert "no_such_table_here" in error["reason"]
    with pytest.raises(AssertionError) as raised:
        calls.assert_no_errors()
    assert "TableNotFoundException" in str(raised.value)


def test_thrift2_calls_are_logged_with_their_request_structs(controlled):
    conn = controlled.happybase()
    name = table_name("log2")
    conn.create_table(name, {"f": {}})
    client = controlled.thrift2()
    t = thrift2.ttypes
    calls = CallRecorder(controlled.controls.calls)
    client.putMultiple(name.encode(), [
        t.TPut(row=b"a", columnValues=[t.TColumnValue(family=b"f", qualifier=b"q", value=b"1")]),
        t.TPut(row=b"b", columnValues=[t.TColumnValue(family=b"f", qualifier=b"q", value=b"2")])])
    client.get(name.encode(), t.TGet(row=b"a", columns=[t.TColumn(family=b"f", qualifier=b"q")]))
    client.getScannerResults(name.encode(), t.TScan(startRow=b"a", stopRow=b"c", caching=3,
                                                    filterString=b"FirstKeyOnlyFilter()"), 10)
    put = calls.assert_called("putMultiple", table=name, service="thrift2")[0]
    assert (put["rows"], put["row_count"]) == (["a", "b"], 2)
    calls.assert_called("get", table=name, row="a", columns=["f:q"])
    scan = calls.assert_called("getScannerResults", table=name)[0]
    assert (scan["row"], scan["stop_row"], scan["caching"], scan["filter"], scan["num_rows"]) == (
        "a", "c", 3, "FirstKeyOnlyFilter()", 10)


def test_the_log_is_queried_since_a_mark_by_table_and_method_and_cleared(controlled):
    conn = controlled.happybase()
    one, two = table_name("q1"), table_name("q2")
    conn.create_table(one, {"f": {}})
    conn.create_table(two, {"f": {}})
    log = controlled.controls.calls
    mark = log.mark()
    conn.table(one).put(b"r", {b"f:a": b"1"})
    conn.table(two).row(b"r")
    assert [c["method"] for c in log.list(since=mark)] == ["mutateRows", "getRowWithColumns"]
    assert [c["table"] for c in log.list(since=mark, table=two)] == [two]
    assert [c["table"] for c in log.list(since=mark, method="mutateRows")] == [one]
    log.clear()
    assert log.list() == []
    assert log.mark() >= mark + 2  # marks keep counting across a clear


def test_the_console_shows_recent_calls(controlled):
    conn = controlled.happybase()
    name = table_name("page")
    conn.create_table(name, {"f": {}})
    conn.table(name).put(b"shown-row", {b"f:a": b"1"})
    page = urllib.request.urlopen(controlled.controls.base + "/calls").read().decode()
    assert "Recent calls" in page and name in page and "shown-row" in page


def test_logging_can_be_turned_off(controlled):
    conn = controlled.happybase()
    name = table_name("off")
    conn.create_table(name, {"f": {}})
    log = controlled.controls.calls
    log.enable(False)
    mark = log.mark()
    conn.table(name).row(b"r")
    assert log.list(since=mark) == []
    log.enable(True)
    conn.table(name).row(b"r")
    assert len(log.list(since=mark)) == 1


def test_a_thrift2_error_is_logged_with_the_exception_class_its_reply_leaves_out(controlled):
    client = controlled.thrift2()
    calls = CallRecorder(controlled.controls.calls)
    with pytest.raises(thrift2.ttypes.TIOError) as raised:
        client.get(b"no_such_t2_table", thrift2.ttypes.TGet(row=b"r"))
    (error,) = calls.errors()
    assert error["exception"] == "TIOError"
    assert error["error"] == raised.value.message
    assert error["reason"].startswith("org.apache.hadoop.hbase.TableNotFoundException: ")
    assert "no_such_t2_table" in error["reason"]


def test_a_long_log_is_answered_in_pages_that_say_where_to_go_on(server_factory):
    """A full log (16 MiB of calls) was one 77 MB JSON answer: an answer now stops at 1,000 calls
    or call_log_page_bytes and says so; the Python client asks for each page in turn."""
    from controls_util import ControlledServer

    server = ControlledServer(server_factory(
        flags=["--test-controls", "--limit", "call_log_page_bytes=8K"]))
    try:
        conn = server.happybase()
        name = table_name("paged")
        conn.create_table(name, {"f": {}})
        table = conn.table(name)
        controls = server.controls
        mark = controls.calls.mark()
        for i in range(120):
            table.put(b"row-%03d" % i, {b"f:a": b"v"})
        first = controls.get("/control/calls", since=mark)
        assert first["truncated"] is True
        assert 1 <= len(first["calls"]) < 120
        assert first["remaining"] == 120 - len(first["calls"])
        assert first["next_since"] == first["calls"][-1]["seq"]
        assert len(controls.get("/control/calls", since=mark, page=5)["calls"]) == 5
        # The newest `limit`, oldest first, in pages.
        (last,) = controls.get("/control/calls", since=mark, limit=1)["calls"]
        assert last["row"] == "row-119"
        every = controls.calls.list(since=mark)
        assert [c["row"] for c in every] == ["row-%03d" % i for i in range(120)]
        newest = controls.calls.list(since=mark, limit=50)
        assert [c["row"] for c in newest] == ["row-%03d" % i for i in range(70, 120)]
        done = controls.get("/control/calls", since=every[-2]["seq"])
        assert done["truncated"] is False and "next_since" not in done
    finally:
        server.close()
