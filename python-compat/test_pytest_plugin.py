"""The pytest plugin (package hbase_emulator, installed by run.sh as `pip install ./python-compat`
does) drives a sample project in a subprocess, under pytest-xdist with two workers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hbcompat

SAMPLE = hbcompat.HERE / "plugin_sample"


def run_sample(tmp_path, *args, env_extra=None):
    env = dict(os.environ, HBASE_EMULATOR_BIN=str(hbcompat.emulator_bin()), SAMPLE_OUT=str(tmp_path))
    env.update(env_extra or {})
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"] + list(args),
                          cwd=str(SAMPLE), env=env, capture_output=True, text=True, timeout=300)
    return proc


@pytest.fixture(autouse=True)
def _own_servers_only():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)


def test_sample_project_passes_under_xdist_with_one_server_per_worker(tmp_path):
    proc = run_sample(tmp_path, "-p", "xdist", "-n", "2", "--dist", "loadfile")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "6 passed, 2 skipped" in proc.stdout, proc.stdout
    records = [json.loads(line) for f in sorted(tmp_path.glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert len(records) == 7  # the init-script test records, then skips
    by_worker = {}
    for r in records:
        by_worker.setdefault(r["worker"], set()).add((r["pid"], r["port"]))
    assert sorted(by_worker) == ["gw0", "gw1"]
    # One server per worker, for the whole session, and not shared between workers.
    assert all(len(servers) == 1 for servers in by_worker.values()), by_worker
    assert len({s for servers in by_worker.values() for s in servers}) == 2


def test_servers_are_stopped_after_the_session(tmp_path):
    proc = run_sample(tmp_path, "-p", "xdist", "-n", "2", "--dist", "loadfile")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pids = {json.loads(line)["pid"] for f in tmp_path.glob("*.jsonl") for line in f.read_text().splitlines()}
    assert pids
    for pid in pids:
        assert not Path("/proc/%d" % pid).exists() or "zombie" in Path("/proc/%d/status" % pid).read_text()


def test_missing_binary_fails_with_the_places_looked_at(tmp_path):
    proc = run_sample(tmp_path, "-k", "write_then_read", "--hbase-emulator-bin", str(tmp_path / "nope"),
                      env_extra={"PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert "hbase-emulator binary not found" in proc.stdout, proc.stdout
    assert str(tmp_path / "nope") in proc.stdout


@pytest.fixture
def server_has_init():
    usage = subprocess.run([str(hbcompat.emulator_bin()), "--help"], capture_output=True, text=True)
    if "--init" not in usage.stdout + usage.stderr:
        pytest.skip("this hbase-emulator has no --init flag")


def test_init_scripts_from_the_ini_option_run_before_the_first_test(tmp_path, server_has_init):
    proc = run_sample(tmp_path, "-o", "hbase_emulator_init=schema.hbase", "-k", "init_script")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout, proc.stdout


def test_a_failing_init_script_fails_the_fixture_with_the_failing_line_first(tmp_path,
                                                                              server_has_init):
    bad = tmp_path / "bad.hbase"
    # The third line fails: a table needs at least one family.
    bad.write_text("create 'fine', 'f'\nput 'fine', 'r', 'f:a', '1'\ncreate 'broken'\n")
    proc = run_sample(tmp_path, "-o", "hbase_emulator_init=%s" % bad, "-k", "init_script")
    assert proc.returncode != 0
    out = proc.stdout
    # The error section starts with the line to fix and the shell's error, no traceback.
    section = out[out.index("ERROR at setup of"):].splitlines()[1:3]
    assert section == ["hbase-emulator --init failed at %s:3: create 'broken'" % bad,
                       "ERROR: Table must have at least one column family"], out
    assert "During handling" not in out and "Traceback" not in out
    # The server's output follows for anything else.
    assert "hbase-emulator did not become ready" in out
    assert "--init %s" % bad in out


def test_the_plugins_server_keeps_idle_connections_unless_a_timeout_is_set(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    (tmp_path / "test_idle.py").write_text(IDLE_PROJECT)
    env = dict(os.environ, HBASE_EMULATOR_BIN=str(hbcompat.emulator_bin()))
    env.pop("PYTEST_XDIST_WORKER", None)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "pytest", "-q"] + list(args),
                              cwd=str(tmp_path), env=env, capture_output=True, text=True,
                              timeout=300)
    # Default: the session-wide connection outlives an idle second (and HBase's minute).
    kept = run()
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "--idle-timeout-ms 0" in (tmp_path / "argv.txt").read_text()
    # Opt-in: a short timeout closes it, as HBase's 60 s one would after a minute.
    closed = run("-o", "hbase_emulator_idle_timeout_ms=300")
    assert closed.returncode == 1, closed.stdout + closed.stderr
    assert "--idle-timeout-ms 300" in (tmp_path / "argv.txt").read_text()
    assert "TTransportException" in closed.stdout, closed.stdout
    # hbase_emulator_args may set it too, and wins.
    flag = run("-o", "hbase_emulator_idle_timeout_ms=300",
               "-o", "hbase_emulator_args=--idle-timeout-ms 100000")
    assert flag.returncode == 0, flag.stdout + flag.stderr
    assert "--idle-timeout-ms 300" not in (tmp_path / "argv.txt").read_text()


IDLE_PROJECT = '''
import time

import pytest


@pytest.fixture(scope="session")
def shared_connection(hbase_emulator):
    with open("argv.txt", "w") as f:
        f.write(" ".join(hbase_emulator.process.argv))
    return hbase_emulator.connection()


def test_a_session_connection_survives_an_idle_second(shared_connection):
    shared_connection.tables()
    time.sleep(1.0)
    shared_connection.tables()
'''


def test_every_plugin_fixture_has_a_docstring(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "--fixtures"], cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    plugin = out[out.index("fixtures defined from hbase_emulator"):]
    plugin = plugin[:plugin.index("fixtures defined from xdist")] if "from xdist" in plugin \
        else plugin
    blocks = {}
    name = None
    for line in plugin.splitlines():
        if line.startswith("hbase_"):
            name = line.split()[0]
            blocks[name] = []
        elif name and line.strip():
            blocks[name].append(line.strip())
    assert {"hbase_emulator", "hbase_emulator_server", "hbase_emulator_seed", "hbase_connection",
            "hbase_reset", "hbase_controls", "hbase_clock", "hbase_faults", "hbase_calls",
            "hbase_snapshots"} <= set(blocks), plugin
    for fixture, doc in blocks.items():
        assert doc and "no docstring available" not in doc[0], (fixture, doc)


def test_reset_reconnects_when_the_server_dropped_the_idle_admin_connection(tmp_path):
    proc = run_sample(tmp_path, "-o", "hbase_emulator_args=--idle-timeout-ms 200", "-k", "idle_admin")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout, proc.stdout


def test_extra_flags_from_the_environment_reach_every_server_the_suite_starts(monkeypatch):
    """HBEMU_EXTRA_FLAGS is how CI runs the hostile files with --test-controls on."""
    monkeypatch.setenv("HBEMU_EXTRA_FLAGS", "--test-controls --limit connections=9")
    args = hbcompat.EmulatorProcess(["--port", "0", "--test-controls"]).args
    assert args == ["--port", "0", "--test-controls", "--test-controls", "--limit",
                    "connections=9"]
    monkeypatch.delenv("HBEMU_EXTRA_FLAGS")
    assert hbcompat.EmulatorProcess(["--port", "0"]).args == ["--port", "0"]

