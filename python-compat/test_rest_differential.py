"""The REST differential (tests/differential/restdiff.py) in the suite: seeded sequences of REST
calls in every encoding sent to two gateways, answers compared after normalising names, server
timestamps, hosts and scanner ids.

- The emulator's gateway against HBASE_REST_TARGET (HBase 2.6.1's own gateway) when it is set:
  at least 99.5 % of calls agree; without it, against a second emulator: every call agrees (a
  determinism check, like test_differential.py for Thrift).
- The target against itself under two sets of table names: every call agrees, which proves the
  normaliser hides only what differs between runs.
- The generator and the normaliser on their own, without a server.
"""

import sys

import pytest

import hbcompat

sys.path.insert(0, str(hbcompat.REPO / "tests" / "differential"))

import gen_rest  # noqa: E402
from calls import Names  # noqa: E402
from normalise import Clock  # noqa: E402
from rest_runner import (RestNormaliser, RestTarget, names_for, normalise_answer,  # noqa: E402
                         run_sequence)

SEEDS = (11, 12)
CALLS = 100
AGAINST_HBASE_MIN_PERCENT = 99.5


def _emulator():
    server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0", "--rest-port", "0",
                                       "--no-admin"])
    server.start()
    return server


@pytest.fixture(scope="module")
def emulators():
    """start() -> a fresh emulator with a REST gateway; all stopped after the module."""
    started = []

    def start():
        if hbcompat.external_target() is not None:
            pytest.skip(hbcompat.RESTART_SKIP_REASON)
        server = _emulator()
        started.append(server)
        if "rest" not in server.ports:
            pytest.fail("the emulator's ready line names no rest port", pytrace=False)
        return RestTarget("A", server.host, server.ports["rest"])

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def reference(emulators):
    """(gateway B, against_hbase): HBASE_REST_TARGET, else a fresh emulator."""
    target = hbcompat.external_rest_target()
    if target is not None:
        return RestTarget("B", target[0], target[1]), True
    b = emulators()
    b.label = "B"
    return b, False


def _run(a, b, tag):
    results = []
    for seed in SEEDS:
        names = (names_for(tag, seed, "A"), names_for(tag, seed, "B"))
        results += [(seed, r) for r in run_sequence(gen_rest.sequence(seed, CALLS), (a, b), names)]
    return results


def _report(diverged, total):
    from rest_runner import describe

    return "%d of %d calls diverged; first ones:\n%s\nreplay one with: python-compat/.venv/bin/" \
        "python tests/differential/restdiff.py --a HOST:PORT --b HOST:PORT replay SEED --calls %d" \
        % (len(diverged), total, "\n".join("seed %d %s" % (s, describe(r))
                                          for s, r in diverged[:5]), CALLS)


def test_emulator_gateway_answers_as_the_target(emulators, reference):
    b, against_hbase = reference
    a = emulators()
    results = _run(a, b, "pt")
    diverged = [(s, r) for s, r in results if not r.agree]
    assert len(results) == len(SEEDS) * CALLS
    if against_hbase:
        percent = 100.0 * (len(results) - len(diverged)) / len(results)
        assert percent >= AGAINST_HBASE_MIN_PERCENT, _report(diverged, len(results))
    else:
        assert not diverged, _report(diverged, len(results))


def test_target_against_itself_agrees_on_every_call(reference):
    """Two sets of names on one gateway: what the normaliser leaves must be identical."""
    b, _ = reference
    results = _run(b, b, "ps")
    diverged = [(s, r) for s, r in results if not r.agree]
    assert not diverged, _report(diverged, len(results))
    statuses = {r.a[0] for _, r in results}
    assert {200, 201, 204, 304, 400, 404} <= statuses, statuses
    text = "\n".join(repr(r.a) for _, r in results)
    assert "'cells', [(b'r" in text and "'@" in text, "no server-dated cell was read back"


def test_sequences_depend_on_the_seed_alone_and_reach_every_endpoint():
    first = [repr(c) for c in gen_rest.sequence(5, 300)]
    assert first == [repr(c) for c in gen_rest.sequence(5, 300)]
    assert first != [repr(c) for c in gen_rest.sequence(6, 300)]
    labels = {c.label for c in gen_rest.sequence(5, 300)}
    for expected in ("PUT /T/schema", "GET /T/multiget", "GET /T/PREFIX*", "GET /T/scanner/ID",
                     "DELETE /T/scanner/ID", "GET /namespaces", "GET /version"):
        assert any(label.startswith(expected.split(" ")[0]) and expected.split(" ")[1] in label
                   for label in labels), (expected, sorted(labels))
    assert any("check=put" in label for label in labels)
    assert any("check=delete" in label for label in labels)
    encodings = {c.body[1] for c in gen_rest.sequence(5, 300)
                 if c.body and c.body[0] in ("cells", "schema", "scanner")}
    assert encodings == {"text/xml", "application/json", "application/x-protobuf"}


def test_normaliser_names_tables_stamps_hosts_and_scanner_ids_alike():
    call = gen_rest.R("GET", [gen_rest.Tab(0), "regions"], accept="application/json")
    answers = []
    for prefix, now, port in (("rdfxs1a_", 1_795_000_000_000, 8080),
                              ("rdfxs1b_", 1_795_000_050_000, 18080)):
        clock = Clock()
        clock.record(now, now + 3)
        norm = RestNormaliser(Names(prefix), clock)
        body = ('{"name":"%st0","Region":[{"id":%d,"startKey":"","endKey":"","location":'
                '"host-%d:%d","name":"%st0,,%d.0123456789abcdef0123456789abcdef."}]}'
                % (prefix, now + 1, port, port, prefix, now + 1)).encode()
        headers = {"content-type": "application/json",
                   "location": "http://h:%d/%st0/scanner/%d" % (port, prefix, now)}
        answers.append(normalise_answer(call, 200, headers, body, norm))
    assert answers[0] == answers[1]
    assert "<t0>" in repr(answers[0]) and "'@0'" in repr(answers[0])
    clock = Clock()
    clock.record(1_795_000_000_000, 1_795_000_000_003)
    other = normalise_answer(call, 200, {"content-type": "application/json"},
                             b'{"name":"rdfxs1a_t1","Region":[]}',
                             RestNormaliser(Names("rdfxs1a_"), clock))
    assert other[-1] != answers[0][-1]


def test_normaliser_drops_only_the_hadoop_build_flavour_of_the_cluster_version():
    """COMPATIBILITY.md documents HBase's "2.6.1-hadoop3" against our "2.6.1"; any other
    version still differs."""
    call = gen_rest.R("GET", ["version", "cluster"], accept="text/plain")
    norm = RestNormaliser(Names("rdfxs1a_"), Clock())

    def answer(body):
        return normalise_answer(call, 200, {"content-type": "text/plain"}, body, norm)

    assert answer(b"2.6.1-hadoop3") == answer(b"2.6.1")
    assert answer(b"2.6.2") != answer(b"2.6.1")


class _FakeGateway(RestTarget):
    """Answers every request 200 with an empty body; with `broken`, a multiget that follows a
    check=put on the same table answers 500 (a divergence that needs two calls)."""

    def __init__(self, label, broken):
        super().__init__(label, "fake", 0)
        self.broken, self.checked = broken, set()

    def request(self, method, url, headers, body=None):
        table = url.split("/")[1]
        if "check=put" in url:
            self.checked.add(table)
        if self.broken and "/multiget" in url and table in self.checked:
            return 500, {"content-type": "text/plain"}, b"boom\r\n"
        return 200, {}, b""


def test_shrinking_keeps_the_calls_a_rest_divergence_needs():
    import restdiff

    calls = gen_rest.sequence(3, 200)
    minimal, cause = restdiff.shrink_calls(calls, (_FakeGateway("A", False),
                                                   _FakeGateway("B", True)), "sh", 3)
    assert [c.label for c in minimal] in (["POST /T/x?check=put", "GET /T/multiget"],
                                          ["PUT /T/x?check=put", "GET /T/multiget"])
    assert cause[0] == "GET /T/multiget" and cause[1:3] == ("200", "500")
