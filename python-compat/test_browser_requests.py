"""A page open in a browser on the developer's machine can reach every door on 127.0.0.1: with a
"simple" cross-origin request (a form's Content-Type, no preflight), or through DNS rebinding
(its own name re-pointed at 127.0.0.1, so it reads answers and sends `Host: <its name>`). These
are the requests such a page sends, each refused before it acts; the same requests from test code
or a Thrift client still work."""

import http.client
import json

from thrift.protocol import TBinaryProtocol
from thrift.transport import TTransport

from controls_util import controlled  # noqa: F401 (fixture)
from controls_util import table_name


def exchange(host, port, method, path, body=b"", headers=None):
    conn = http.client.HTTPConnection(host, port, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, reply.read().decode("utf-8", "replace")
    finally:
        conn.close()


def disable_table_call(name):
    """The bytes a Thrift1 client sends for disableTable(name), binary protocol."""
    from hbase import Hbase

    buffer = TTransport.TMemoryBuffer()
    Hbase.Client(TBinaryProtocol.TBinaryProtocol(buffer)).send_disableTable(name.encode())
    return buffer.getvalue()


def test_a_page_cannot_drive_the_controls_with_a_simple_request(controlled):
    admin = controlled.process.ports["admin"]
    host = controlled.process.host
    body = json.dumps({"at_ms": 5}).encode()
    for headers in ({"Content-Type": "text/plain", "Origin": "https://evil.example"},
                    {"Content-Type": "application/x-www-form-urlencoded"},
                    {"Origin": "https://evil.example", "Content-Type": "application/json"},
                    {"Origin": "null", "Content-Type": "application/json"}):
        status, text = exchange(host, admin, "POST", "/control/clock/freeze", body, headers)
        assert status in (403, 415), (headers, status, text)
        assert "error" in json.loads(text)
    assert controlled.controls.clock.state()["frozen"] is False
    # Test code (the plugin's client) still drives them.
    assert controlled.controls.clock.freeze(at=5)["now_ms"] == 5


def test_a_rebinding_page_cannot_read_the_console_or_the_controls(controlled):
    admin = controlled.process.ports["admin"]
    host = controlled.process.host
    for path in ("/api/tables", "/", "/metrics", "/control/calls"):
        status, text = exchange(host, admin, "GET", path, headers={"Host": f"evil.example:{admin}"})
        assert status == 403, (path, status)
        assert "--allowed-hosts" in text
    status, _ = exchange(host, admin, "GET", "/api/tables", headers={"Host": f"localhost:{admin}"})
    assert status == 200


def test_allowed_hosts_lets_a_named_server_be_reached(server_factory):
    server = server_factory(flags=["--allowed-hosts", "emulator.test"])
    admin = server.ports["admin"]
    status, _ = exchange(server.host, admin, "GET", "/api/tables",
                         headers={"Host": f"emulator.test:{admin}"})
    assert status == 200
    status, _ = exchange(server.host, admin, "GET", "/api/tables",
                         headers={"Host": f"other.test:{admin}"})
    assert status == 403


def test_a_page_cannot_change_data_through_thrift_over_http(controlled):
    client = controlled.happybase()
    name = table_name("browser")
    client.create_table(name, {"f": {}})
    call = disable_table_call(name)
    host, port = controlled.process.host, controlled.process.port
    for headers, want in (({"Content-Type": "text/plain"}, 415),
                          ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
                          ({"Content-Type": "application/x-thrift",
                            "Origin": "http://evil.example"}, 403),
                          ({"Content-Type": "application/x-thrift", "Origin": "null"}, 403)):
        status, text = exchange(host, port, "POST", "/", call, headers)
        assert status == want, (headers, status, text)
        assert client.is_table_enabled(name), headers
    # The same bytes from a Thrift HTTP client do what they say.
    status, _ = exchange(host, port, "POST", "/", call, {"Content-Type": "application/x-thrift"})
    assert status == 200
    assert not client.is_table_enabled(name)
