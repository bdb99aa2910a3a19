#!/usr/bin/env python3
"""REST differential tester: the same seeded REST calls to two gateways, answers compared.

    restdiff.py run [--seeds N] [--calls M] [--first-seed S]     agreement figures
    restdiff.py replay SEED [--calls M]                          every call and both answers
    restdiff.py shrink SEED [--calls M] [--out FILE]             minimal diverging calls
    restdiff.py script FILE                                      replay a script `shrink` wrote

Gateways: `--a HOST:PORT` and `--b HOST:PORT`. Without --a an emulator is started
(`hbase-emulator --in-memory --port 0 --rest-port 0`, HBASE_EMULATOR_BIN else
build/hbase-emulator) and its REST port used; without --b, HBASE_REST_TARGET=host:port (e.g.
HBase's own gateway). A and B may be the same gateway: each side gets its own table names.
Run it with python-compat's virtualenv (python-compat/.venv/bin/python).
"""

import argparse
import collections
import contextlib
import os
import secrets
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO / "python-compat")]

import gen_rest  # noqa: E402
from calls import Ns, Scanner, Tab  # noqa: E402
from rest_runner import (DEFAULT_TIMEOUT_S, RestTarget, cleanup, describe,  # noqa: E402
                         names_for, run_sequence)
from shrink import ddmin  # noqa: E402


def _endpoint(text):
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit():
        raise SystemExit("a gateway is HOST:PORT, got %r" % text)
    return host.strip("[]"), int(port)


@contextlib.contextmanager
def targets(args):
    """Yields (A, B), starting an emulator for A when none is named."""
    started = []
    try:
        if args.a:
            a = RestTarget("A", *_endpoint(args.a), timeout_s=args.timeout)
        else:
            import hbcompat

            server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0", "--rest-port", "0",
                                               "--no-admin"])
            server.start()
            started.append(server)
            if "rest" not in server.ports:
                raise SystemExit("the emulator's ready line names no rest port")
            a = RestTarget("A", server.host, server.ports["rest"], timeout_s=args.timeout)
        b_text = args.b or os.environ.get("HBASE_REST_TARGET", "").strip()
        if not b_text:
            raise SystemExit("name gateway B with --b HOST:PORT or HBASE_REST_TARGET")
        yield a, RestTarget("B", *_endpoint(b_text), timeout_s=args.timeout)
    finally:
        for server in started:
            server.stop()


def pair(run_id, seed, attempt=None):
    return names_for(run_id, seed, "A", attempt), names_for(run_id, seed, "B", attempt)


class Tally:
    """Agreement over many sequences: totals, per endpoint, causes, first divergences."""

    def __init__(self):
        self.per_label = collections.defaultdict(lambda: [0, 0])
        self.causes = collections.Counter()
        self.first_of_cause = {}
        self.first_divergences = []

    def add(self, seed, results):
        first = None
        for r in results:
            counts = self.per_label[r.call.label]
            counts[1] += 1
            counts[0] += r.agree
            if not r.agree:
                self.causes[r.cause] += 1
                self.first_of_cause.setdefault(r.cause, (seed, r))
                first = first or r
        if first is not None:
            self.first_divergences.append((seed, first))

    def totals(self):
        return (sum(a for a, _ in self.per_label.values()),
                sum(t for _, t in self.per_label.values()))

    def percent(self):
        agree, total = self.totals()
        return 100.0 * agree / total if total else 100.0

    def lines(self, show=3, causes=15):
        agree, total = self.totals()
        out = ["== rest: %d/%d calls agree (%.2f %%)" % (agree, total, self.percent()),
               "   per endpoint (agree/total):"]
        for label, (a, t) in sorted(self.per_label.items(), key=lambda kv: (kv[1][0] / kv[1][1],
                                                                           kv[0])):
            out.append("     %-34s %5d/%-5d %6.1f %%" % (label, a, t, 100.0 * a / t))
        if self.causes:
            out.append("   divergence causes (endpoint, status A, status B, part): count, "
                       "first seen")
            for cause, n in self.causes.most_common(causes):
                seed, r = self.first_of_cause[cause]
                out.append("     %4d  %s  (seed %d call %d)" % (n, " | ".join(cause), seed,
                                                                 r.index))
        for seed, r in self.first_divergences[:show]:
            out.append("   first divergence of seed %d:" % seed)
            out.extend("     " + line for line in describe(r).split("\n"))
        return out


def cmd_run(args):
    first = args.first_seed if args.first_seed is not None else secrets.randbelow(10 ** 6)
    run_id = secrets.token_hex(2)
    tally = Tally()
    with targets(args) as (a, b):
        print("A = %r\nB = %r\nseeds %d..%d, %d calls each, run %s"
              % (a, b, first, first + args.seeds - 1, args.calls, run_id), flush=True)
        for seed in range(first, first + args.seeds):
            results = run_sequence(gen_rest.sequence(seed, args.calls), (a, b),
                                   pair(run_id, seed))
            tally.add(seed, results)
            print("   seed %d: %d/%d agree" % (seed, sum(r.agree for r in results), len(results)),
                  flush=True)
    print("\n".join(tally.lines(show=args.show)))
    if tally.first_divergences and args.shrink:
        seed = tally.first_divergences[0][0]
        print("\nshrinking the first divergence (seed %d):" % seed, flush=True)
        args.seed = seed
        _shrink(args)
    return 0 if tally.percent() == 100.0 else 1


def _replay(args, calls, seed=0):
    with targets(args) as (a, b):
        print("A = %r\nB = %r" % (a, b))
        results = run_sequence(calls, (a, b), pair(secrets.token_hex(2), seed),
                               log=lambda r: print(describe(r, width=2000), flush=True))
    agree = sum(r.agree for r in results)
    print("%d/%d calls agree" % (agree, len(results)))
    return 0 if agree == len(results) else 1


def cmd_replay(args):
    return _replay(args, gen_rest.sequence(args.seed, args.calls), args.seed)


def script_namespace():
    return {"R": gen_rest.R, "Tab": Tab, "Ns": Ns, "Scanner": Scanner}


def cmd_script(args):
    scope = script_namespace()
    exec(compile(Path(args.file).read_text(), args.file, "exec"), scope)
    return _replay(args, scope["CALLS"])


def shrink_calls(calls, targets_ab, run_id, seed, log=lambda s: None):
    """(minimal calls, cause) keeping the first divergence's cause, or (None, None)."""
    attempts = iter(range(1, 10 ** 6))
    used = []

    def run(subset, stop=None):
        names = pair(run_id, seed, next(attempts))
        used.append(names)
        return run_sequence(subset, targets_ab, names, stop=stop, clean=False)

    try:
        first = next((r for r in run(calls) if not r.agree), None)
        if first is None:
            return None, None
        cause = first.cause
        log("# divergence at call %d: %s; shrinking %d calls" % (first.index, cause,
                                                                 first.index + 1))

        def same(r):
            return not r.agree and r.cause == cause

        minimal = ddmin(calls[:first.index + 1], lambda s: any(same(r) for r in run(s, same)),
                        log)
        return minimal, cause
    finally:
        for names in used:
            for target, n in zip(targets_ab, names):
                cleanup(target, n)


def _shrink(args):
    calls = gen_rest.sequence(args.seed, args.calls)
    with targets(args) as ab:
        minimal, cause = shrink_calls(calls, ab, secrets.token_hex(2), args.seed,
                                      log=lambda s: print(s, file=sys.stderr, flush=True))
    if minimal is None:
        print("seed %d (%d calls): no divergence" % (args.seed, args.calls))
        return 0
    lines = ["# hbase-emulator REST differential replay script",
             "# seed %d, %d calls shrunk to %d" % (args.seed, args.calls, len(minimal)),
             "# divergence: %s" % " | ".join(cause),
             "# run: python-compat/.venv/bin/python tests/differential/restdiff.py script FILE",
             "CALLS = ["] + ["    %r," % c for c in minimal] + ["]"]
    text = "\n".join(lines) + "\n"
    if getattr(args, "out", None):
        Path(args.out).write_text(text)
    print(text, end="")
    return 1


def main(argv=None):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", help="gateway A as HOST:PORT (default: start an emulator)")
    p.add_argument("--b", help="gateway B as HOST:PORT (default: HBASE_REST_TARGET)")
    p.add_argument("--timeout", type=float,
                   default=float(os.environ.get("DIFFTEST_TIMEOUT", DEFAULT_TIMEOUT_S)),
                   help="seconds one call may take (default %(default)s: HBase answers a scan "
                        "its region server refuses only after its client's retries)")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="many seeds: agreement figures and first divergences")
    r.add_argument("--calls", type=int, default=200)
    r.add_argument("--seeds", type=int, default=5)
    r.add_argument("--first-seed", type=int)
    r.add_argument("--show", type=int, default=3)
    r.add_argument("--shrink", action="store_true", help="then shrink the first divergence")
    r.set_defaults(fn=cmd_run)
    for name, fn in (("replay", cmd_replay), ("shrink", _shrink)):
        sp = sub.add_parser(name)
        sp.add_argument("seed", type=int)
        sp.add_argument("--calls", type=int, default=200)
        if name == "shrink":
            sp.add_argument("--out")
        sp.set_defaults(fn=fn)
    s = sub.add_parser("script")
    s.add_argument("file")
    s.set_defaults(fn=cmd_script)
    args = p.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
