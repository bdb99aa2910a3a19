"""What a container image relies on: `hbase-emulator --health-check` (its HEALTHCHECK, run with no
shell) answers from the admin port's /ready, a server bound beyond loopback warns once, and
`--in-memory` after the image's `--data-dir /data` keeps the disk untouched."""

import socket
import subprocess
import time

import hbcompat


def health_check(*flags):
    started = time.monotonic()
    proc = subprocess.run([str(hbcompat.emulator_bin()), "--health-check"] + list(flags),
                          capture_output=True, text=True, timeout=30)
    return proc, time.monotonic() - started


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_health_check_passes_against_a_running_server(server_factory):
    server = server_factory()
    proc, _ = health_check("--admin-port", str(server.ports["admin"]))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    assert lines[0] == "hbase-emulator: ready: http://127.0.0.1:%d/ready answered 200" % server.ports["admin"]
    assert server.alive()


def test_health_check_fails_fast_on_a_closed_port():
    port = closed_port()
    proc, took = health_check("--admin-port", str(port))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.startswith("hbase-emulator: not ready: cannot connect to http://127.0.0.1:%d/ready: " % port), proc.stdout
    assert took < 10


def test_health_check_gives_up_on_a_port_that_never_answers():
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        proc, took = health_check("--admin-port", str(silent.getsockname()[1]))
    assert proc.returncode == 1, proc.stdout
    assert "timed out" in proc.stdout
    assert 1.5 < took < 10


def test_binding_thrift_and_console_everywhere_warns_once(server_factory):
    server = server_factory(flags=["--bind", "0.0.0.0", "--admin-bind", "0.0.0.0"])
    warnings = [l for l in server.stderr_text().splitlines() if "no authentication" in l]
    assert len(warnings) == 1, server.stderr_text()
    assert warnings[0].startswith("W")
    assert "Thrift and REST ports and admin console on 0.0.0.0" in warnings[0]
    # What the image's HEALTHCHECK runs, entrypoint flags and all, finds it through loopback.
    proc, _ = health_check("--bind", "0.0.0.0", "--admin-bind", "0.0.0.0",
                           "--admin-port", str(server.ports["admin"]))
    assert proc.returncode == 0, proc.stdout


def test_in_memory_wins_over_the_images_data_dir(server_factory, tmp_path):
    data = tmp_path / "data"
    # The image's entrypoint ends in --data-dir /data; `docker run IMAGE --in-memory` appends.
    server = server_factory(data_dir=data, flags=["--in-memory"])
    import happybase

    conn = happybase.Connection(server.host, server.port)
    conn.create_table("t", {"f": {}})
    conn.table("t").put(b"r", {b"f:q": b"v"})
    assert conn.table("t").row(b"r") == {b"f:q": b"v"}
    conn.close()
    assert not data.exists()
    assert "store open: in memory" in server.stderr_text()
