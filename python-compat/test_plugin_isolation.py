"""The pytest plugin's isolation: every test that uses the server starts from the session's seed
state (--init scripts, then the hbase_emulator_seed fixture), whatever ran before it, on one
worker or under pytest-xdist; hbase_shared and `hbase_emulator_isolation = false` opt out, and
hbase_snapshot snapshots a defined state. Each case is a project of its own, run as a user
runs it."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import hbcompat

CONFTEST = '''
import json
import os

import pytest


@pytest.fixture(scope="session")
def hbase_emulator_seed(hbase_emulator_server):
    conn = hbase_emulator_server.connection()
    conn.create_table("catalog", {"f": {}})
    conn.table("catalog").put(b"item-1", {b"f:name": b"lamp"})


def state(conn):
    """Every table and its rows, as JSON-able text."""
    return {t.decode(): sorted(r.decode() for r, _ in conn.table(t).scan()) for t in conn.tables()}


@pytest.fixture
def record(request, hbase_connection):
    def write(tag):
        path = os.path.join(os.environ["OUT"], "%s.jsonl" % os.environ.get("PYTEST_XDIST_WORKER", "main"))
        with open(path, "a") as f:
            f.write(json.dumps({"test": request.node.name, "tag": tag,
                                "state": state(hbase_connection)}) + "\\n")
    return write
'''

WRITERS = '''
import pytest


@pytest.mark.parametrize("n", range(3))
def test_each_test_starts_from_the_seed(hbase_connection, record, n):
    record("start")
    # Without isolation the second run would fail: the table exists, the row is gone.
    hbase_connection.create_table("events", {"e": {}})
    hbase_connection.table("catalog").delete(b"item-1")
    hbase_connection.table("catalog").put(b"item-%d" % (n + 2), {b"f:name": b"x"})
'''

SHARED = '''
import pytest

pytestmark = pytest.mark.hbase_shared


def test_a_writes(hbase_connection):
    hbase_connection.create_table("shared", {"f": {}})


def test_b_sees_what_a_wrote(hbase_connection, record):
    record("shared")
'''

SNAPSHOT = '''
import pytest


@pytest.fixture(scope="session")
def with_orders(hbase_emulator):
    conn = hbase_emulator.connection()
    conn.create_table("orders", {"o": {}})
    conn.table("orders").put(b"o-1", {b"o:total": b"9"})


@pytest.mark.hbase_snapshot("with_orders")
@pytest.mark.parametrize("n", range(2))
def test_the_snapshot_is_the_seed_and_its_fixture_only(hbase_connection, record, with_orders, n):
    record("snapshot")
    hbase_connection.create_table("scratch", {"f": {}})
'''


def run_project(tmp_path, files, *args, ini=""):
    project = Path(tempfile.mkdtemp(prefix="project", dir=str(tmp_path)))
    out = project / "out"
    out.mkdir()
    (project / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n" + ini)
    (project / "conftest.py").write_text(CONFTEST)
    for name, text in files.items():
        (project / name).write_text(textwrap.dedent(text))
    env = dict(os.environ, HBASE_EMULATOR_BIN=str(hbcompat.emulator_bin()), OUT=str(out))
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly"] + list(args),
                          cwd=str(project), env=env, capture_output=True, text=True, timeout=300)
    records = [json.loads(line) for f in sorted(out.glob("*.jsonl"))
               for line in f.read_text().splitlines()]
    return proc, records


SEED = {"catalog": ["item-1"]}


@pytest.fixture(autouse=True)
def _own_servers_only():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)


def test_every_test_starts_from_the_seed_whatever_ran_before(tmp_path):
    proc, records = run_project(tmp_path, {"test_writers.py": WRITERS})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [r["state"] for r in records] == [SEED] * 3


def test_init_scripts_are_part_of_the_seed(tmp_path):
    (tmp_path / "schema.hbase").write_text("create 'users', 'u'\nput 'users', 'ada', 'u:n', 'Ada'\n")
    writers = WRITERS.replace('record("start")', 'record("start")\n    hbase_connection.delete_table("users", disable=True)')
    proc, records = run_project(tmp_path, {"test_writers.py": writers},
                                ini="hbase_emulator_init = ../schema.hbase\n")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [r["state"] for r in records] == [dict(SEED, users=["ada"])] * 3


def test_shared_tests_see_what_the_tests_before_them_left(tmp_path):
    proc, records = run_project(tmp_path, {"test_shared.py": SHARED})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [r["state"] for r in records] == [dict(SEED, shared=[])]
    # The ini option turns isolation off for the whole project.
    proc, records = run_project(tmp_path, {"test_writers.py": WRITERS},
                                ini="hbase_emulator_isolation = false\n")
    assert proc.returncode == 1 and "2 failed, 1 passed" in proc.stdout, proc.stdout
    assert "AlreadyExists" in proc.stdout


def test_a_snapshot_marker_snapshots_the_same_state_alone_after_other_files_and_per_worker(tmp_path):
    files = {"test_a_shared.py": SHARED, "test_b_writers.py": WRITERS, "test_c_snapshot.py": SNAPSHOT}
    want = dict(SEED, orders=["o-1"])
    alone, alone_records = run_project(tmp_path, files, "test_c_snapshot.py")
    assert alone.returncode == 0, alone.stdout + alone.stderr
    after, after_records = run_project(tmp_path, files)
    assert after.returncode == 0, after.stdout + after.stderr
    for records in (alone_records, after_records):
        assert [r["state"] for r in records if r["tag"] == "snapshot"] == [want] * 2
    # Under pytest-xdist each worker builds the same seed and the same snapshot on its own server.
    spread, spread_records = run_project(tmp_path, files, "-p", "xdist", "-n", "2", "--dist", "load")
    assert spread.returncode == 0, spread.stdout + spread.stderr
    by_tag = {}
    for r in spread_records:
        by_tag.setdefault(r["tag"], []).append(r["state"])
    assert by_tag["start"] == [SEED] * 3 and by_tag["snapshot"] == [want] * 2
