"""The transfer tools' progress line on stderr.

`import ns:t: 120000 cells, 45% of 58.0 MB, 2.1 s, 57000 cells/s, ETA 2.6 s`

The percentage and the ETA appear only where the total is known: an import reading a file (bytes
read of the file's size). An export cannot know how many rows a table holds before scanning it, so
it shows counts only. At most one line a second, rewritten in place on a terminal, and a last line
at the end. Once a run has touched several tables, the cells counted are theirs together, so the
line says so: `export 9000 cells over 3 tables, now ns:t (table 3 of 3): ...` while running and
`export total over 3 tables: 12000 cells, ...` at the end.
"""

import sys
import time


def human_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return ("%d %s" if unit == "B" else "%.1f %s") % (n, unit)
        n /= 1000.0
    return "%.1f TB" % n  # not reached


def human_seconds(s):
    s = int(round(s))
    if s < 60:
        return "%d s" % s
    if s < 3600:
        return "%d min %02d s" % (s // 60, s % 60)
    return "%d h %02d min" % (s // 3600, s % 3600 // 60)


class Progress:
    def __init__(self, verb, quiet=False, stream=None, total_bytes=None):
        self.verb = verb
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.monotonic()
        self.last = self.start
        self.cells = 0
        self.table = ""
        self.where = ""  # where in the table the run is, e.g. "table 2 of 3, region 1 of 4"
        self.tables = {}  # every table counted, in order
        self.total_bytes = total_bytes  # None: unknown
        self.done_bytes = 0

    def add(self, n, table, done_bytes=None, where=""):
        self.cells += n
        self.table = table
        self.where = where
        self.tables[table] = True
        if done_bytes is not None:
            self.done_bytes = done_bytes
        now = time.monotonic()
        if now - self.last >= 1.0:
            self.last = now
            self._line(end="\r" if self.tty else "\n")

    def rate(self):
        elapsed = time.monotonic() - self.start
        return self.cells / elapsed if elapsed > 0 else 0.0

    def text(self, final=False):
        elapsed = time.monotonic() - self.start
        several = len(self.tables) > 1
        if final and several:
            parts = ["%s total over %d tables: %d cells" % (self.verb, len(self.tables), self.cells)]
        elif several:
            parts = ["%s %d cells over %d tables, now %s" % (self.verb, self.cells, len(self.tables),
                                                             self._label())]
        else:
            parts = ["%s %s: %d cells" % (self.verb, self._label(final) or "-", self.cells)]
        known = self.total_bytes is not None and self.total_bytes > 0
        if known:
            fraction = min(1.0, self.done_bytes / float(self.total_bytes))
            parts.append("%d%% of %s" % (int(fraction * 100), human_bytes(self.total_bytes)))
        parts.append("%.1f s" % elapsed)
        parts.append("%.0f cells/s" % self.rate())
        if known and not final and 0 < fraction < 1:
            parts.append("ETA %s" % human_seconds(elapsed * (1 - fraction) / fraction))
        return ", ".join(parts)

    def _label(self, final=False):
        return self.table + (" (%s)" % self.where if self.where and not final else "")

    def _line(self, end, final=False):
        if self.quiet:
            return
        self.stream.write(self.text(final) + end)
        self.stream.flush()

    def interrupt(self):
        """Ends a progress line left open on a terminal, so an error message starts a line."""
        if self.tty and not self.quiet and self.last != self.start:
            self.stream.write("\n")
            self.stream.flush()

    def done(self):
        self._line(end="\n", final=True)
