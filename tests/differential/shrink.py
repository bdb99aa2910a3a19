"""Delta debugging of a diverging sequence down to a few calls, printed as a replay script.

The property kept while shrinking is the first divergence's cause (method and the shape of
both answers: which error class or "value"), so a smaller sequence that diverges for another
reason is not mistaken for the same bug. Every attempt runs under fresh table names.
"""

import itertools

from calls import render, tables_of
from runner import cleanup, run_sequence, sequence_names


def first_divergence(results):
    return next((r for r in results if not r.agree), None)


class Shrinker:
    def __init__(self, service, targets, run_id, seed, log=print):
        self.service, self.targets = service, targets
        self.run_id, self.seed = run_id, seed
        self.attempts = itertools.count(1)
        self.log = log
        self.runs = 0
        self.used = []  # every attempt's names, dropped at the end (dropping is slow on HBase)

    def _run(self, calls, stop=None):
        self.runs += 1
        names = sequence_names(self.run_id, self.seed, next(self.attempts))
        self.used.append(names)
        return run_sequence(calls, self.service, self.targets, names, stop=stop, clean=False)

    def diverges(self, calls, cause):
        def same(r):
            return not r.agree and r.cause == cause
        return any(same(r) for r in self._run(calls, stop=same))

    def cleanup(self):
        for names in self.used:
            for target in self.targets:
                cleanup(target, names)
        self.used = []

    def shrink(self, calls, at=None):
        """(minimal calls, cause) or (None, None) when the sequence does not diverge (at call
        `at`, when given; else anywhere)."""
        results = self._run(calls)
        first = first_divergence(results if at is None else results[at:at + 1])
        if first is None:
            return None, None
        cause = first.cause
        calls = calls[:first.index + 1]
        self.log("# divergence at call %d: %s; shrinking %d calls" % (first.index, cause,
                                                                     len(calls)))
        # First a cheap cut: only the calls naming the diverging call's tables (or none).
        wanted = tables_of(calls[-1])
        sliced = [c for c in calls if not tables_of(c) or tables_of(c) & wanted]
        if len(sliced) < len(calls) and self.diverges(sliced, cause):
            calls = sliced
            self.log("#   %d calls on table(s) %s" % (len(calls), sorted(wanted)))
        calls = ddmin(calls, lambda subset: self.diverges(subset, cause), self.log)
        return calls, cause


def ddmin(items, test, log=None):
    """Zeller's ddmin: a 1-minimal sublist of items (order kept) for which test holds."""
    n = 2
    while len(items) >= 2:
        size = -(-len(items) // n)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for i, chunk in enumerate(chunks):
            if test(chunk):
                items, n = chunk, 2
                break
            rest = [x for j, c in enumerate(chunks) if j != i for x in c]
            if len(chunks) > 2 and test(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(2 * n, len(items))
            continue
        if log:
            log("#   %d calls" % len(items))
    return items


def script(service, calls, header=()):
    """A replay script (Python source) for calls."""
    lines = ["# hbase-emulator differential replay script (%s)" % service]
    lines += ["# " + h for h in header]
    lines += ["# run: python-compat/.venv/bin/python tests/differential/difftest.py script FILE",
              "SERVICE = %r" % service, "CALLS = ["]
    lines += ["    %s," % render(c) for c in calls]
    lines.append("]")
    return "\n".join(lines) + "\n"
