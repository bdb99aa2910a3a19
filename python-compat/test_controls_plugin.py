"""The pytest plugin's test-control fixtures (hbase_clock, hbase_faults, hbase_calls) and the
server-side errors it appends to a failing test's report, run in a project of their own as a
user would run them."""

import os
import subprocess
import sys
import textwrap

import pytest

import hbcompat

PROJECT_TESTS = '''
import happybase
import Hbase_thrift
import pytest


def make_table(conn, name, **family):
    if name.encode() not in conn.tables():
        conn.create_table(name, {"f": family})
    return conn.table(name)


def test_ttl_without_sleeping(hbase_connection, hbase_clock):
    table = make_table(hbase_connection, "ttl", time_to_live=86400)
    hbase_clock.freeze()
    table.put(b"session", {b"f:user": b"ada"})
    hbase_clock.advance(days=2)
    assert table.row(b"session") == {}


def test_clock_is_resumed_after_the_test_that_moved_it(hbase_clock):
    state = hbase_clock.state()
    assert not state["frozen"] and abs(state["offset_ms"]) < 60000


def test_retry_against_a_region_that_moves_twice(hbase_connection, hbase_faults, hbase_calls):
    table = make_table(hbase_connection, "retry")
    table.put(b"r", {b"f:a": b"1"})
    with hbase_faults.inject(method="getRow*", times=2,
                             exception="org.apache.hadoop.hbase.NotServingRegionException"):
        for attempt in range(3):
            try:
                row = table.row(b"r")
                break
            except Hbase_thrift.IOError:
                continue
    assert row == {b"f:a": b"1"} and attempt == 2
    hbase_calls.assert_called("getRowWithColumns", table="retry", times=3, row=b"r")
    assert [c["outcome"] for c in hbase_calls.calls(method="getRowWithColumns")] == [
        "error", "error", "ok"]


def test_faults_added_by_a_test_are_gone_after_it(hbase_faults):
    assert hbase_faults.list()["rules"] == []
    hbase_faults.add(method="deleteTable", table="nothing_uses_this")


def test_calls_only_show_this_tests_calls(hbase_connection, hbase_calls):
    assert hbase_calls.calls() == []
    make_table(hbase_connection, "mine").row(b"x")
    assert hbase_calls.methods(table="mine")[-1] == "getRowWithColumns"


def test_failing_test_reports_server_errors(hbase_connection):
    hbase_connection.table("table_that_is_not_there").row(b"r")
'''


def test_plugin_fixtures_and_server_errors_in_failure_reports(tmp_path):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    (tmp_path / "test_project.py").write_text(textwrap.dedent(PROJECT_TESTS))
    env = dict(os.environ, HBASE_EMULATOR_BIN=str(hbcompat.emulator_bin()))
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly"],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout
    assert "1 failed, 5 passed" in out, out + proc.stderr
    assert "FAILED test_project.py::test_failing_test_reports_server_errors" in out
    # The report of the failing test carries what the server said, which happybase hides.
    section = out[out.index("hbase-emulator server-side errors"):]
    assert "getRowWithColumns table_that_is_not_there r" in section
    assert "org.apache.hadoop.hbase.TableNotFoundException" in section
    # The test started from the seed state: the report says where shared tables belong.
    assert "started from the seed state" in section and "hbase_emulator_seed" in section
