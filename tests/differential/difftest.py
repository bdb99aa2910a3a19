#!/usr/bin/env python3
"""Randomized differential tester: the same seeded calls to two servers, answers compared.

    difftest.py run [--service thrift1|thrift2|both] [--seeds N] [--calls M] [--first-seed S]
    difftest.py replay SEED [--service S] [--calls M]     every call and both answers
    difftest.py shrink SEED [--service S] [--calls M] [--at CALL] [--out FILE]
    difftest.py script FILE                               replay a script `shrink` printed

Servers: by default two fresh `hbase-emulator --in-memory --port 0` (HBASE_EMULATOR_BIN, else
build/hbase-emulator): a determinism check. With HBASE_THRIFT_TARGET=host:port (and
HBASE_THRIFT2_TARGET=host:port) the second server is that one, e.g. a real HBase. `--a` / `--b`
name servers explicitly as THRIFT1_HOST:PORT,THRIFT2_HOST:PORT. Run it with python-compat's
virtualenv (python-compat/.venv/bin/python; python-compat/run.sh creates it).
"""

import argparse
import contextlib
import os
import secrets
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO / "python-compat")]

import hbcompat  # noqa: E402

hbcompat.ensure_generated_hbase_module()

from calls import script_namespace  # noqa: E402
from report import Tally  # noqa: E402
from runner import SERVICES, Target, describe, run_sequence, sequence_names  # noqa: E402
from shrink import Shrinker, script  # noqa: E402


def generate(service, seed, n_calls):
    if service == "thrift1":
        import gen_thrift1 as gen
    else:
        import gen_thrift2 as gen
    return gen.sequence(seed, n_calls)


def _endpoint(text):
    host, _, port = text.strip().rpartition(":")
    return host.strip("[]"), int(port)


def _target_from_flag(label, text, timeout):
    parts = text.split(",")
    return Target(label, _endpoint(parts[0]), _endpoint(parts[1]) if len(parts) > 1 else None,
                  timeout)


@contextlib.contextmanager
def targets(args):
    """Yields (A, B): the two servers a run compares, starting emulators where none is named."""
    started = []

    def emulator(label):
        server = hbcompat.EmulatorProcess(["--in-memory", "--port", "0", "--no-admin"])
        server.start()
        started.append(server)
        return Target(label, (server.host, server.port), (server.host, server.thrift2_port),
                      args.timeout)

    try:
        a = _target_from_flag("A", args.a, args.timeout) if args.a else emulator("A")
        if args.b:
            b = _target_from_flag("B", args.b, args.timeout)
        elif hbcompat.external_target() is not None:
            b = Target("B", hbcompat.external_target(), hbcompat.external_thrift2_target(),
                       args.timeout)
        else:
            b = emulator("B")
        yield a, b
    finally:
        for server in started:
            rc = server.stop()
            if rc not in (0, None):
                print("emulator exited with %s:\n%s" % (rc, server.stderr_text()), file=sys.stderr)


def services(args):
    return SERVICES if args.service == "both" else (args.service,)


def cmd_run(args):
    first = args.first_seed if args.first_seed is not None else secrets.randbelow(10 ** 6)
    run_id = secrets.token_hex(3)
    tallies = []
    with targets(args) as (a, b):
        print("A = %r\nB = %r\nseeds %d..%d, %d calls each, run %s"
              % (a, b, first, first + args.seeds - 1, args.calls, run_id), flush=True)
        for service in services(args):
            if a.endpoint(service) is None or b.endpoint(service) is None:
                print("== %s: skipped (no endpoint)" % service)
                continue
            tally = Tally(service)
            for seed in range(first, first + args.seeds):
                results = run_sequence(generate(service, seed, args.calls), service, (a, b),
                                       sequence_names(run_id, seed))
                tally.add(seed, results)
                agree = sum(r.agree for r in results)
                print("   %s seed %d: %d/%d agree" % (service, seed, agree, len(results)),
                      flush=True)
            tallies.append(tally)
            print("\n".join(tally.lines(show=args.show, causes=args.causes,
                                        examples=args.examples)), flush=True)
    return 0 if all(t.percent() == 100.0 for t in tallies) else 1


def _replay(args, service, calls, seed=0):
    with targets(args) as (a, b):
        print("A = %r\nB = %r" % (a, b))
        results = run_sequence(calls, service, (a, b),
                               sequence_names(secrets.token_hex(3), seed),
                               log=lambda r: print(describe(r, width=2000), flush=True))
    agree = sum(r.agree for r in results)
    print("%d/%d calls agree" % (agree, len(results)))
    return 0 if agree == len(results) else 1


def cmd_replay(args):
    return _replay(args, args.service, generate(args.service, args.seed, args.calls), args.seed)


def cmd_script(args):
    scope = script_namespace()
    exec(compile(Path(args.file).read_text(), args.file, "exec"), scope)
    return _replay(args, scope["SERVICE"], scope["CALLS"])


def cmd_shrink(args):
    calls = generate(args.service, args.seed, args.calls)
    with targets(args) as (a, b):
        shrinker = Shrinker(args.service, (a, b), secrets.token_hex(3), args.seed,
                            log=lambda s: print(s, file=sys.stderr, flush=True))
        try:
            minimal, cause = shrinker.shrink(calls, args.at)
        finally:
            shrinker.cleanup()
    if minimal is None:
        print("seed %d (%s, %d calls): no divergence%s" % (
            args.seed, args.service, args.calls, "" if args.at is None else " at call %d" % args.at))
        return 0
    text = script(args.service, minimal, [
        "seed %d, %d calls shrunk to %d in %d runs" % (args.seed, args.calls, len(minimal),
                                                       shrinker.runs),
        "divergence: %s" % " | ".join(cause)])
    if args.out:
        Path(args.out).write_text(text)
    print(text, end="")
    return 1


def main(argv=None):
    # SIGTERM unwinds like an exception, so started emulators stop and tables are dropped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", help="server A as THRIFT1_HOST:PORT,THRIFT2_HOST:PORT (default: start one)")
    p.add_argument("--b", help="server B, likewise (default: HBASE_THRIFT_TARGET/"
                               "HBASE_THRIFT2_TARGET, else start one)")
    p.add_argument("--timeout", type=float, default=float(os.environ.get("DIFFTEST_TIMEOUT", 30)),
                   help="seconds a call may take before it is recorded as a timeout")
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp, default_calls):
        sp.add_argument("--service", choices=SERVICES + ("both",), default="both")
        sp.add_argument("--calls", type=int, default=default_calls)

    r = sub.add_parser("run", help="many seeds: agreement figures and first divergences")
    common(r, 200)
    r.add_argument("--seeds", type=int, default=5)
    r.add_argument("--first-seed", type=int)
    r.add_argument("--show", type=int, default=5, help="first divergences to print per service")
    r.add_argument("--causes", type=int, default=10, help="divergence causes to list per service")
    r.add_argument("--examples", action="store_true", help="print each listed cause's first call")
    r.set_defaults(fn=cmd_run)
    for name, fn, helptext in (("replay", cmd_replay, "rerun one sequence, printing every call"),
                               ("shrink", cmd_shrink, "minimal diverging calls as a script")):
        sp = sub.add_parser(name, help=helptext)
        sp.add_argument("seed", type=int)
        common(sp, 200)
        sp.set_defaults(fn=fn)
        if name == "shrink":
            sp.add_argument("--out", help="also write the script to this file")
            sp.add_argument("--at", type=int, help="the diverging call to keep (default: the first)")
    s = sub.add_parser("script", help="replay a script written by shrink")
    s.add_argument("file")
    s.set_defaults(fn=cmd_script)
    args = p.parse_args(argv)
    if args.cmd in ("replay", "shrink") and args.service == "both":
        p.error("%s needs --service thrift1 or thrift2" % args.cmd)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
