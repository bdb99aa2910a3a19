"""The differential tester (tests/differential) as a determinism check: two fresh emulators get
the same seeded call sequences through both services and must answer every call alike once
server timestamps, names and scanner ids are normalised. A divergence here means an answer
depends on something other than the calls (timing, process state, hash order, ...).

The same tool compares against real HBase: see docs/differential-testing.md.
"""

import sys

import pytest

import hbcompat

sys.path.insert(0, str(hbcompat.REPO / "tests" / "differential"))

import difftest  # noqa: E402
from runner import Target, describe, run_sequence, sequence_names  # noqa: E402

SEEDS = (1, 2, 3)
CALLS = 200


@pytest.fixture(scope="module")
def two_emulators():
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    servers = [hbcompat.EmulatorProcess(["--in-memory", "--port", "0", "--no-admin"])
               for _ in range(2)]
    try:
        for s in servers:
            s.start()
        yield [Target(label, (s.host, s.port), (s.host, s.thrift2_port), timeout_s=30)
               for label, s in zip("AB", servers)]
    finally:
        for s in servers:
            s.stop()


@pytest.mark.parametrize("service", ["thrift1", "thrift2"])
def test_two_emulators_answer_every_generated_call_alike(two_emulators, service):
    diverged = []
    total = 0
    for seed in SEEDS:
        calls = difftest.generate(service, seed, CALLS)
        results = run_sequence(calls, service, two_emulators, sequence_names("pytest", seed))
        total += len(results)
        diverged += [(seed, r) for r in results if not r.agree]
    assert total == len(SEEDS) * CALLS
    assert not diverged, "%d of %d calls diverged; first ones:\n%s\nreplay one with: " \
        "python-compat/.venv/bin/python tests/differential/difftest.py replay SEED " \
        "--service %s --calls %d" % (len(diverged), total, "\n".join(
            "seed %d %s" % (seed, describe(r)) for seed, r in diverged[:5]), service, CALLS)


def test_normalised_answers_carry_values_timestamps_and_errors(two_emulators):
    """The comparison is not vacuous: the sequences read back written cells (with call tokens
    for server timestamps and explicit stamps as they are) and both kinds of failure."""
    calls = difftest.generate("thrift2", SEEDS[0], CALLS)
    results = run_sequence(calls, "thrift2", two_emulators, sequence_names("pytestv", SEEDS[0]))
    text = "\n".join(repr(r.a) for r in results)
    assert "('timestamp', '@" in text, "no server-dated cell was read back"
    assert "TApplicationException" in text and "TIOError" in text
    assert sum(1 for r in results if r.call.method == "get" and "TColumnValue" in repr(r.a)) >= 5


def test_shrinking_keeps_only_the_calls_a_divergence_needs():
    from shrink import ddmin

    needed = {3, 17, 18}
    calls = list(range(40))
    assert ddmin(calls, lambda subset: needed <= set(subset)) == [3, 17, 18]


def test_server_timestamps_are_named_by_the_call_in_flight():
    from normalise import Clock

    clock = Clock()
    for start in (1_000_000, 1_000_010, 1_000_020):
        clock.record(start, start + 3)
    clock.explicit[1_000_010 + 86_400_000] = "N1+86400000"
    assert [clock.token(t) for t in (1_000_000, 1_000_012, 1_000_015, 1_000_023)] == \
        ["@0", "@1", "@1+", "@2"]
    assert clock.token(1_000_010 + 86_400_000 + 2) == "N1+86400000+2", "an increment on top"
    assert clock.token(5) == 5, "explicit small timestamps are compared as they are"
