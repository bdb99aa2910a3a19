"""The test controls from hbase-shell: test_clock, test_faults and test_calls (hbase-emulator's
commands, outside HBase's set) against a server run with --test-controls."""

import json
import os
import socket
import subprocess
from pathlib import Path

import pytest

import hbcompat
from controls_util import controlled  # noqa: F401 (fixture)


def shell(server, *commands):
    binary = Path(os.environ.get("HBASE_SHELL_BIN") or Path(hbcompat.emulator_bin()).parent / "hbase-shell")
    if not binary.is_file():
        pytest.skip("hbase-shell is not built next to the server")
    process = server.process
    argv = [str(binary), "--host", process.host, "--port", str(process.port),
            "--thrift2-port", str(process.thrift2_port), "--admin-port", str(process.ports["admin"])]
    for c in commands:
        argv += ["-e", c]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60)


def json_documents(text):
    """The JSON answers in the shell's output (each starts on a line of its own with "{")."""
    decoder = json.JSONDecoder()
    docs, i = [], 0
    while True:
        i = text.find("{\n", i)
        if i < 0:
            return docs
        doc, end = decoder.raw_decode(text, i)
        docs.append(doc)
        i = end


def test_shell_moves_the_clock_past_a_ttl(controlled):
    out = shell(controlled, "create 'ttl_shell', {NAME => 'f', TTL => 60}",
                "test_clock 'freeze', {AT_MS => 1000000}", "put 'ttl_shell', 'r', 'f:a', 'v'",
                "test_clock 'advance', {SECONDS => 61}", "get 'ttl_shell', 'r'", "test_clock")
    assert out.returncode == 0, out.stdout + out.stderr
    clocks = json_documents(out.stdout)
    assert [c["now_ms"] for c in clocks] == [1000000, 1061000, 1061000]
    assert "0 row(s)" in out.stdout


def test_shell_installs_lists_and_clears_faults_and_reads_the_call_log(controlled):
    out = shell(controlled, "create 'faults_shell', 'f'",
                "test_faults 'add', {METHOD => 'get*', TIMES => 1, "
                "EXCEPTION => 'org.apache.hadoop.hbase.RegionTooBusyException', "
                "MESSAGE => 'region is busy'}",
                "test_faults")
    assert out.returncode == 0, out.stdout + out.stderr
    added, listed = json_documents(out.stdout)
    assert added["exception"] == "org.apache.hadoop.hbase.RegionTooBusyException"
    assert [r["id"] for r in listed["rules"]] == [added["id"]]
    failed = shell(controlled, "get 'faults_shell', 'r'")
    assert failed.returncode != 0
    assert "ERROR: region is busy" in failed.stderr
    out = shell(controlled, "test_calls 'list', {TABLE => 'faults_shell', ERRORS => true}",
                "test_faults 'clear'", "test_faults")
    assert out.returncode == 0, out.stdout + out.stderr
    calls, _, after = json_documents(out.stdout)
    assert [c["fault"].split(":")[0] for c in calls["calls"]] == ["rule %d" % added["id"]]
    assert after["rules"] == []


def test_shell_reports_controls_the_server_does_not_have(server_factory):
    server = server_factory()

    class Plain:
        process = server

    out = shell(Plain, "test_clock 'freeze'")
    assert out.returncode != 0
    assert "--test-controls" in out.stdout + out.stderr


def test_raw_scan_note_links_the_console_only_on_the_servers_own_admin_port(controlled):
    process = controlled.process
    admin = process.ports["admin"]
    linked = shell(controlled, "create 'raw_note', 'f'", "scan 'raw_note', {RAW => true}")
    assert linked.returncode == 0, linked.stdout + linked.stderr
    assert "http://%s:%d/browse/raw_note" % (process.host, admin) in linked.stdout

    # A shell given another port (its default 9095 while this server runs elsewhere) must not
    # send the user to whatever console, if any, answers there.
    binary = Path(os.environ.get("HBASE_SHELL_BIN") or Path(hbcompat.emulator_bin()).parent / "hbase-shell")
    with socket.socket() as probe:  # a port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        other = probe.getsockname()[1]
    out = subprocess.run([str(binary), "--host", process.host, "--port", str(process.port),
                          "--thrift2-port", str(process.thrift2_port), "--admin-port", str(other),
                          "-e", "scan 'raw_note', {RAW => true}"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "http://" not in out.stdout
    assert ("console shows the cells it stores at /browse/raw_note on the server's admin port "
            "(not %d; give it to hbase-shell as --admin-port for a link)" % other) in out.stdout
