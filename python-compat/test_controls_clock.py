"""The test controls' clock (--test-controls): TTL, scanner leases and server timestamps follow
it, so time-dependent behaviour is tested without sleeping."""

import time

import pytest

import happybase  # noqa: F401 (registers Hbase_thrift)
import Hbase_thrift  # registered by `import happybase` (thriftpy2.load)
from controls_util import controlled, table_name  # noqa: F401 (fixture)
from hbase_emulator.controls import ControlError


def test_ttl_cells_vanish_as_soon_as_the_clock_passes_their_ttl(controlled):
    conn = controlled.happybase()
    name = table_name("ttl")
    conn.create_table(name, {"f": dict(time_to_live=3600)})
    table = conn.table(name)
    clock = controlled.controls.clock
    clock.freeze()
    table.put(b"r", {b"f:a": b"1"})
    clock.advance(seconds=3599)
    assert table.row(b"r") == {b"f:a": b"1"}
    started = time.monotonic()
    clock.advance(seconds=2)
    assert table.row(b"r") == {}
    assert list(table.scan()) == []
    assert time.monotonic() - started < 60  # nothing waited for the hour to pass
    # Going back brings the cell back: TTL is judged at read time, as in HBase.
    clock.advance(hours=-1)
    assert table.row(b"r") == {b"f:a": b"1"}


def test_server_timestamps_are_the_frozen_time(controlled):
    conn = controlled.happybase()
    name = table_name("frozen")
    conn.create_table(name, {"f": dict(max_versions=5)})
    table = conn.table(name)
    at_ms = 1700000000000
    controlled.controls.clock.freeze(at=at_ms)
    table.put(b"r", {b"f:a": b"1"})
    assert table.row(b"r", include_timestamp=True) == {b"f:a": (b"1", at_ms)}
    controlled.controls.clock.advance(days=2)
    table.put(b"r", {b"f:b": b"2"})
    assert table.row(b"r", columns=[b"f:b"], include_timestamp=True) == {
        b"f:b": (b"2", at_ms + 2 * 86400000)}


def test_increments_in_frozen_time_still_get_increasing_timestamps(controlled):
    conn = controlled.happybase()
    name = table_name("incr")
    conn.create_table(name, {"f": dict(max_versions=5)})
    table = conn.table(name)
    controlled.controls.clock.freeze(at=1700000000000)
    for _ in range(3):
        table.counter_inc(b"r", b"f:c")
    cells = table.cells(b"r", b"f:c", versions=5, include_timestamp=True)
    stamps = [ts for _, ts in cells]
    # HBase dates an increment max(now, previous + 1): three distinct versions, newest first.
    assert stamps == sorted(set(stamps), reverse=True) and len(stamps) == 3
    assert table.counter_get(b"r", b"f:c") == 3


def test_advancing_past_the_scanner_lease_expires_an_idle_scanner(controlled):
    conn = controlled.happybase()
    name = table_name("lease")
    conn.create_table(name, {"f": {}})
    table = conn.table(name)
    for i in range(5):
        table.put(b"r%d" % i, {b"f:a": b"x"})
    scanner = table.scan(batch_size=1)
    assert next(scanner)[0] == b"r0"
    # Thrift1 keeps an idle scanner 120 s (twice hbase.client.scanner.timeout.period).
    controlled.controls.clock.advance(seconds=121)
    with pytest.raises(Hbase_thrift.IllegalArgument) as raised:
        list(scanner)
    assert b"scanner ID is invalid" in raised.value.message


def test_a_scanner_used_within_its_lease_survives_a_clock_move(controlled):
    conn = controlled.happybase()
    name = table_name("lease_ok")
    conn.create_table(name, {"f": {}})
    table = conn.table(name)
    for i in range(3):
        table.put(b"r%d" % i, {b"f:a": b"x"})
    scanner = table.scan(batch_size=1)
    assert next(scanner)[0] == b"r0"
    controlled.controls.clock.advance(seconds=100)
    assert [k for k, _ in scanner] == [b"r1", b"r2"]


def test_clock_state_offset_and_resume(controlled):
    clock = controlled.controls.clock
    state = clock.set_offset(days=-1)
    assert not state["frozen"]
    assert -86400000 - 5000 < state["offset_ms"] <= -86400000 + 5000
    state = clock.resume()
    assert abs(state["offset_ms"]) < 5000 and not state["frozen"]


def test_the_heat_maps_windows_follow_the_clock(controlled):
    import json
    import urllib.request

    conn = controlled.happybase()
    name = table_name("heat")
    conn.create_table(name, {"f": {}})
    clock = controlled.controls.clock
    clock.freeze()
    for i in range(20):
        conn.table(name).put(b"r%d" % i, {b"f:a": b"1"})

    def region_heat():
        url = controlled.controls.base + "/api/tables/" + name
        return json.load(urllib.request.urlopen(url))["heat"]["regions"][0]

    heat = region_heat()
    assert heat["window_writes"][-1] == 20
    clock.advance(seconds=30)  # three 10-second windows on
    assert region_heat()["window_writes"][-4:] == [20, 0, 0, 0]
    clock.advance(minutes=5)  # past all twelve windows
    heat = region_heat()
    assert sum(heat["window_writes"]) == 0 and heat["writes"] == 20


def test_frozen_time_still_moves_on_between_writes_of_one_column(controlled):
    conn = controlled.happybase()
    name = table_name("frozen_seq")
    conn.create_table(name, {"f": dict(max_versions=5)})
    table = conn.table(name)
    controlled.controls.clock.freeze()
    # In HBase a delete and the put after it never share a millisecond; in stopped time each
    # server-dated write of a column still goes one past the previous one.
    table.put(b"r", {b"f:a": b"1"})
    table.delete(b"r")
    table.put(b"r", {b"f:a": b"2"})
    assert table.row(b"r") == {b"f:a": b"2"}
    table.counter_inc(b"r", b"f:n")
    table.counter_set(b"r", b"f:n", 5)
    assert table.counter_get(b"r", b"f:n") == 5


LATEST_MS = 2 ** 63 - 3  # the top of the clock: LATEST_TIMESTAMP - 1 stays above it


def refused(call):
    with pytest.raises(ControlError) as e:
        call()
    assert e.value.status == 400, e.value
    return e.value.message


def test_the_clock_refuses_times_before_1970_and_server_dated_writes_stay_visible(controlled):
    # Frozen at -5 ms, every later server-dated write was acknowledged and never read back.
    conn = controlled.happybase()
    name = table_name("pre1970")
    conn.create_table(name, {"f": {}})
    table = conn.table(name)
    clock = controlled.controls.clock
    message = refused(lambda: clock.freeze(at=-5))
    assert "freezing at -5" in message and "1970" in message and "unchanged" in message
    assert not clock.state()["frozen"]
    refused(lambda: clock.set_offset(days=-100 * 365))
    assert abs(clock.state()["offset_ms"]) < 5000
    clock.freeze(at=1000)
    refused(lambda: clock.advance(seconds=-2))
    assert clock.state()["now_ms"] == 1000
    clock.advance(seconds=-1)  # 1970 itself is allowed
    table.put(b"r", {b"f:a": b"1"})
    assert table.row(b"r", include_timestamp=True) == {b"f:a": (b"1", 0)}


def test_the_clock_refuses_moves_past_its_top_instead_of_wrapping(controlled):
    clock = controlled.controls.clock
    refused(lambda: clock.freeze(at=2 ** 63 - 1))
    clock.freeze(at=LATEST_MS - 10)
    assert clock.state()["now_ms"] == LATEST_MS - 10  # read exactly, not through a double
    message = refused(lambda: clock.advance(ms=100))
    assert "moving by 100 ms" in message
    assert clock.state()["now_ms"] == LATEST_MS - 10
    # Advances of the most one call gives used to sum past INT64_MAX into a time before 1970.
    clock.freeze(at=0)
    for _ in range(1100):
        try:
            clock.advance(days=100000000)
        except ControlError as e:
            assert e.status == 400 and "would take the clock outside" in e.message
            break
    else:
        pytest.fail("1,100 advances of 8.64e15 ms were all accepted")
    assert 0 <= clock.state()["now_ms"] <= LATEST_MS
    conn = controlled.happybase()
    name = table_name("top")
    conn.create_table(name, {"f": {}})
    conn.table(name).put(b"r", {b"f:a": b"1"})
    assert conn.table(name).row(b"r") == {b"f:a": b"1"}
