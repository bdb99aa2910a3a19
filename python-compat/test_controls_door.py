"""The test controls' door: off without --test-controls, loopback only unless forced, POST for
changes, and never reachable through the read-only console's routes."""

import socket
import subprocess
import urllib.error
import urllib.request

import pytest

import hbcompat
from controls_util import controlled  # noqa: F401 (fixture)
from hbase_emulator.controls import ControlError, Controls


def status_of(url, method="GET", body=None):
    request = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as e:
        return e.code


def test_without_the_flag_there_are_no_controls(server_factory):
    server = server_factory()
    controls = Controls(server.host, server.ports["admin"])
    for call in (lambda: controls.routes(), lambda: controls.clock.freeze(),
                 lambda: controls.faults.add(method="*")):
        with pytest.raises(ControlError) as raised:
            call()
        assert raised.value.status == 404
        assert "--test-controls" in raised.value.message


@pytest.mark.parametrize("flags", [["--bind", "0.0.0.0"], ["--admin-bind", "0.0.0.0"]])
def test_the_flag_is_refused_on_a_non_loopback_address(flags):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    proc = subprocess.run([str(hbcompat.emulator_bin()), "--in-memory", "--port", "0",
                           "--test-controls"] + flags, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert "--test-controls" in proc.stderr and "0.0.0.0" in proc.stderr
    assert "--test-controls-remote" in proc.stderr


def this_hosts_address():
    """An address of this machine other than loopback, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent for a UDP connect
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def test_the_remote_flag_lets_callers_from_other_addresses_in(server_factory):
    address = this_hosts_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address")
    server = server_factory(flags=["--test-controls-remote", "--bind", "0.0.0.0",
                                   "--admin-bind", "0.0.0.0"])
    remote = Controls(address, server.ports["admin"])
    assert remote.clock.freeze(at=5)["now_ms"] == 5


def test_console_routes_never_reach_the_controls(controlled):
    base = controlled.controls.base
    # The console stays read-only.
    assert status_of(base + "/api/tables", "POST", b"{}") == 405
    assert status_of(base + "/calls", "POST", b"{}") == 405
    # A change needs POST; GET on a change's path is refused and changes nothing.
    assert status_of(base + "/control/clock/freeze") == 405
    assert controlled.controls.clock.state()["frozen"] is False
    # An encoded path is the console's, which has no such page.
    assert status_of(base + "/%63ontrol/clock/freeze", "POST", b"{}") == 405
    assert status_of(base + "/%63ontrol/clock") == 404
    assert controlled.controls.clock.state()["frozen"] is False


def test_the_control_root_lists_every_route(controlled):
    routes = controlled.controls.routes()
    for route in ("POST /control/clock/advance", "POST /control/faults",
                  "GET /control/calls", "POST /control/calls/clear"):
        assert route in routes
