"""The admin port: what a container's health check and a Prometheus scrape read."""

import urllib.request


def get(target, path):
    url = "http://%s:%d%s" % (target.host, target.admin, path)
    with urllib.request.urlopen(url, timeout=60) as reply:
        return reply.status, reply.read().decode()


def test_ready_health_and_metrics(target):
    assert get(target, "/ready") == (200, "ready\n")
    assert get(target, "/health") == (200, "ok\n")
    status, metrics = get(target, "/metrics")
    assert status == 200
    assert "\nhbase_emulator_info{version=\"" in metrics, metrics[:500]
