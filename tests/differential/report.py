"""Agreement figures over many sequences: per service, per method, and the divergences."""

import collections

from runner import describe


class Tally:
    def __init__(self, service):
        self.service = service
        self.per_method = collections.defaultdict(lambda: [0, 0])  # method -> [agree, total]
        self.causes = collections.Counter()
        self.first_of_cause = {}  # cause -> (seed, CallResult): the earliest example
        self.first_divergences = []  # (seed, CallResult) per diverging sequence
        self.sequences = 0

    def add(self, seed, results):
        self.sequences += 1
        first = None
        for r in results:
            counts = self.per_method[r.call.method]
            counts[1] += 1
            if r.agree:
                counts[0] += 1
                continue
            self.causes[r.cause] += 1
            self.first_of_cause.setdefault(r.cause, (seed, r))
            if first is None:
                first = r
                self.first_divergences.append((seed, r))

    @property
    def totals(self):
        agree = sum(a for a, _ in self.per_method.values())
        total = sum(t for _, t in self.per_method.values())
        return agree, total

    def percent(self):
        agree, total = self.totals
        return 100.0 * agree / total if total else 100.0

    def lines(self, show=5, causes=10, examples=False):
        agree, total = self.totals
        out = ["== %s: %d/%d calls agree (%.2f %%) over %d sequences"
               % (self.service, agree, total, self.percent(), self.sequences)]
        rows = sorted(self.per_method.items(), key=lambda kv: (kv[1][0] / kv[1][1], kv[0]))
        out.append("   per method (agree/total):")
        for method, (a, t) in rows:
            out.append("     %-32s %5d/%-5d %6.1f %%" % (method, a, t, 100.0 * a / t))
        if self.causes:
            out.append("   divergence causes (method, answer A, answer B): count, first seen")
            for cause, n in self.causes.most_common(causes):
                seed, r = self.first_of_cause[cause]
                out.append("     %4d  %s  (seed %d call %d)" % (n, " | ".join(cause), seed, r.index))
                if examples:
                    out.extend("           " + line for line in describe(r).split("\n"))
        for seed, r in self.first_divergences[:show]:
            out.append("   first divergence of seed %d:" % seed)
            out.extend("     " + line for line in describe(r).split("\n"))
        return out
