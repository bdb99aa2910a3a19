#!/usr/bin/env python3
"""The shell, transcript for transcript against the real `hbase shell` 2.6.1.

transcript/session.hbase is run as `hbase shell session.hbase < session.stdin` runs it: each
command echoed after irb's prompt, errors printed and the session going on. transcript/real.out
is what the real JRuby shell (HBase 2.6.1) printed against a real HBase; transcript/emulator.out
is what hbase-shell prints against hbase-emulator. The test runs our side afresh and compares it
with real.out command by command, after normalising only what varies from run to run
(NORMALISE below). A command whose output still differs must be listed in ALLOWED with the
reason (COMPATIBILITY.md mirrors the list); a listed command that now matches fails the test
too, so the list only shrinks.

  run_transcript.py --shell build/hbase-shell --server build/hbase-emulator     # CTest runs this
  run_transcript.py ... --update            # rewrite emulator.out from this run
  run_transcript.py --refresh-real          # rerun the real `hbase shell` 2.6.1 (the script
                                            # HBASE_SHELL_SH names) and rewrite real.out

The session makes and drops its own tables and namespaces (gs_*), lists only those, and ends
with none left; refresh on an oracle that holds no gs_* of its own (SHELL_FAST=1 speeds it up).
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "transcript")
SCRIPT = os.path.join(DIR, "session.hbase")
STDIN = os.path.join(DIR, "session.stdin")  # answers to the y/n questions of disable_all & co.
REAL = os.path.join(DIR, "real.out")
OURS = os.path.join(DIR, "emulator.out")

# What varies between two runs of the same shell against the same server, and nothing else.
NORMALISE = [
    (re.compile(r"Took \d+\.\d{4} seconds"), "Took N.NNNN seconds"),
    # cells written "now": a date-time of this century (fixed test timestamps are 1970 or 2023)
    (re.compile(r"20(2[4-9]|[3-9]\d)-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{3})?)?"), "<now>"),
    # region names and encoded names: "t,start,1795684044787.3964a776...f." and ENCODED => ...
    (re.compile(r",(\d{13})\.([0-9a-f]{32})\."), ",<id>.<encoded>."),
    (re.compile(r"ENCODED => [0-9a-f]{32}"), "ENCODED => <encoded>"),
    # a region server's name: host, port and start code differ with each deployment
    (re.compile(r"[\w.-]+,\d+,\d{13}"), "<server>"),
    (re.compile(r"^ [\w.-]+:\d+ \{ENCODED"), " <server> {ENCODED"),
    # Ruby object ids
    (re.compile(r":0x[0-9a-f]+>"), ":0x?>"),
    # status: the average load depends on the regions other users of the server hold
    (re.compile(r"\d+ servers, 0 dead, \d+\.\d{4} average load"), "N servers, 0 dead, L average load"),
]
# A Java stack trace (its "\tat ..." lines) follows some errors of the real shell; no client
# without Java can print one.
STACK = re.compile(r"^\t(at |\.\.\. \d+ more)")

# command (as written in session.hbase) -> why its output still differs from HBase's.
ALLOWED = {
    "version": "Thrift has no call that returns the server's version; the shell prints its own",
    "put 'gs_t', 'r1', 'nofam:q', 'v'":
        "a missing family: the emulator's NoSuchColumnFamilyException names the table, not the "
        "region (t,,<id>.<encoded>.), and leaves out the table descriptor HBase appends",
    "get 'gs_t', 'r1', {COLUMN => 'nofam:a'}": "a missing family, as for put",
    "scan 'gs_t', {COLUMNS => ['nofam']}": "a missing family, as for put",
    "table_help": "the shell's own, shorter help text on table references (t = get_table 't'; "
                  "t.put ...), which work as in HBase",
    "scan 'gs_t', {RAW => true, VERSIONS => 2, LIMIT => 1}":
        "the same cells (nothing here needs a raw scan), then the shell's one-line note that "
        "HBase's Thrift API has no raw scan and which cells it therefore cannot show",
    "help 'get_counter'": "help texts are the shell's own, shorter than HBase's",
    "balancer": "a cluster command: HBase runs its balancer (nothing to move), the shell says in "
                "one line that the emulator has no balancer",
}

PROMPT = re.compile(r"^hbase:(\d{3}):0[>*] ")


def normalise(text):
    lines = []
    for line in text.splitlines():
        if STACK.match(line):
            continue
        for pattern, repl in NORMALISE:
            line = pattern.sub(repl, line)
        if line.endswith(" |"):  # list_regions' table: its padding follows the server's name
            line = re.sub(r"-+", "-", re.sub(r" +", " ", line))
        lines.append(line.rstrip() + "\n")
    return lines


def blocks(lines):
    """Splits a transcript into {(prompt number, command): [prompt + the output it produced]}."""
    out = {}
    current = None
    for line in lines:
        m = PROMPT.match(line)
        if m:
            current = (int(m.group(1)), line[m.end():].rstrip("\n"))
            out[current] = [line]
        elif current is not None:
            out[current].append(line)
    return out


def start_server(binary):
    proc = subprocess.Popen([binary, "--port", "0", "--in-memory"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    m = re.match(r"hbase-emulator ready on ([^:]+):(\d+) thrift2=[^:]+:(\d+)", line)
    if not m:
        proc.kill()
        sys.exit("server did not report ready: %r" % line)
    return proc, m.group(1), m.group(2), m.group(3)


def run_ours(shell, host, t1, t2):
    env = dict(os.environ, TZ="UTC")
    with open(STDIN) as answers:
        res = subprocess.run([shell, "--host", host, "--port", t1, "--thrift2-port", t2,
                              "--transcript", SCRIPT], stdin=answers, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=600, env=env)
    return res.stdout.decode("utf-8", "replace")


def run_real():
    shell_sh = os.environ.get("HBASE_SHELL_SH")
    if not shell_sh:
        sys.exit("--refresh-real needs HBASE_SHELL_SH: a script that runs the real `hbase shell` "
                 "2.6.1 (it is given the session file and reads the answers on stdin)")
    env = dict(os.environ, TZ="UTC")
    with open(STDIN) as answers:
        res = subprocess.run([shell_sh, SCRIPT], stdin=answers, stdout=subprocess.PIPE,
                             timeout=1200, env=env)
    return res.stdout.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shell")
    ap.add_argument("--server")
    ap.add_argument("--external", help="HOST:T1PORT:T2PORT instead of starting --server")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--refresh-real", action="store_true")
    args = ap.parse_args()
    if args.refresh_real:
        text = run_real()
        with open(REAL, "w") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (REAL, text.count("\n")))
        return 0
    proc = None
    if args.external:
        host, t1, t2 = args.external.split(":")
    else:
        proc, host, t1, t2 = start_server(args.server)
    try:
        ours = run_ours(args.shell, host, t1, t2)
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
    if args.update:
        with open(OURS, "w") as f:
            f.write(ours)
    want = blocks(normalise(open(REAL).read()))
    got = blocks(normalise(ours))
    failed = []
    for key in ALLOWED:
        if not any(cmd == key for _, cmd in want):
            failed.append((0, key))
            print("ALLOWED names %r, which session.hbase does not run" % key)
    for n in sorted(set(want) | set(got)):
        w, g = want.get(n, []), got.get(n, [])
        if n[1] in ALLOWED:
            if w == g:
                failed.append(n)
                print("%r now matches HBase: remove it from ALLOWED" % n[1])
            continue
        if w != g:
            failed.append(n)
            sys.stdout.writelines(difflib.unified_diff(w, g, "real.out", "hbase-shell", n=9))
    print("%d commands, %d allowed to differ, %d unexpected differences%s" % (
        len(want), len(ALLOWED), len(failed), (": " + ", ".join("%d %s" % n for n in failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
