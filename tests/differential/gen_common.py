"""What both services' generators share: the sequence's own picture of its tables, and pickers
for rows, columns, values and timestamps.

The picture is what the calls *meant* to do (a disable means disabled), never what a server
answered, so a sequence depends on its seed alone. It steers the generator away from calls
HBase answers only after minutes of client retries (batches on a disabled table, ...).
"""

import random
import struct

from calls import DAY_MS, HOUR_MS, LONG_MAX, Call, Now

ROWS = [b"r1", b"r2", b"r3", b"r4", b"r5\x00", b"s\xff"]
FILTER_ROWS = ["r1", "r2", "r3", "r4", "s"]
QUALIFIERS = [b"a", b"b", b"c", b""]
FILTER_QUALIFIERS = ["a", "b", "c"]
UNKNOWN_FAMILY = b"zz"
FAMILIES = [b"f", b"g", b"h"]
MISSING_TABLE = 9  # a table index no sequence creates
SMALL_TS = [1, 2, 5, 10, 100]


def long_bytes(n):
    return struct.pack(">q", n)


VALUES = [b"v1", b"v2", b"v3", b"", b"\x00\x01", b"longer value", long_bytes(1), long_bytes(-5)]
FILTER_VALUES = ["v1", "v2", "v", "longer", "x"]


class TableModel:
    def __init__(self, k, families, ns=None):
        self.k = k
        self.families = dict(families)  # name -> {"versions": n, "ttl": seconds or None}
        self.ns = ns
        self.state = "enabled"  # enabled | disabled | gone


class Model:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.tables = {}
        self.namespaces = set()
        self.next_table = 0
        self.next_ns = 0
        self.scanners = []  # scanner k -> table index (None: the open could not succeed)
        self.closed = set()

    # ------------------------------------------------------------------ dice

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def weighted(self, table):
        """A key of `table` (dict key -> weight)."""
        keys = list(table)
        return self.rng.choices(keys, weights=[table[k] for k in keys])[0]

    # ------------------------------------------------------------------ tables

    def new_family_set(self):
        names = self.rng.sample(FAMILIES, self.rng.randint(1, 3))
        return {n: {"versions": self.pick([1, 3, 5]), "ttl": self.pick([None, None, HOUR_MS // 1000,
                                                                          2 * DAY_MS // 1000])}
                for n in sorted(names)}

    def add_table(self, families, ns=None):
        k = self.next_table
        self.next_table += 1
        self.tables[k] = TableModel(k, families, ns)
        return self.tables[k]

    def live(self, state="enabled"):
        return [t for t in self.tables.values() if t.state == state]

    def table(self, allow_disabled=True, p_missing=0.03):
        """A table to call: mostly an enabled one; sometimes disabled (when allowed), dropped or
        never created. Returns a TableModel, or None for the missing one."""
        roll = self.rng.random()
        if roll < p_missing or not self.tables:
            return None
        disabled = self.live("disabled")
        if allow_disabled and disabled and roll < p_missing + 0.05:
            return self.pick(disabled)
        gone = self.live("gone")
        if gone and roll < p_missing + 0.07:
            return self.pick(gone)
        enabled = self.live()
        return self.pick(enabled) if enabled else None

    def table_for_state_change(self, method):
        """Enable and drop mostly disabled tables (otherwise they would mostly just fail)."""
        disabled = self.live("disabled")
        if method in ("enableTable", "deleteTable") and disabled and self.chance(0.7):
            return self.pick(disabled)
        return self.table()

    # ------------------------------------------------------------------ cells

    def row(self, p_empty=0.02):
        """Rows r1-r3 most often, so writes and reads meet."""
        if self.chance(p_empty):
            return b""
        return self.rng.choices(ROWS, weights=[4, 4, 3, 1, 1, 1])[0]

    def rows(self, lo=1, hi=3):
        return [self.row(0) for _ in range(self.rng.randint(lo, hi))]

    def family(self, table, p_unknown=0.03):
        if table is None or not table.families or self.chance(p_unknown):
            return UNKNOWN_FAMILY if table is None or self.chance(0.7) else self.pick(FAMILIES)
        return self.pick(sorted(table.families))

    def qualifier(self):
        return self.pick(QUALIFIERS)

    def value(self):
        return self.pick(VALUES)

    def write_ts(self, p_none=0.55):
        """A timestamp for a write: None (server time), small, near now, far future.
        Never negative: HBase's client retries a put with a negative cell timestamp."""
        roll = self.rng.random()
        if roll < p_none:
            return None
        if roll < p_none + 0.25:
            return self.pick(SMALL_TS)
        return Now(self.pick([-DAY_MS, -HOUR_MS, DAY_MS]))

    def read_ts(self):
        """An upper bound or exact stamp for a read or a delete marker."""
        roll = self.rng.random()
        if roll < 0.4:
            return Now()
        if roll < 0.7:
            return self.pick(SMALL_TS + [3, 6, 11])
        if roll < 0.95:
            return Now(self.pick([-DAY_MS, -HOUR_MS, DAY_MS]))
        return self.pick([0, LONG_MAX])

    def families_of(self, table):
        return sorted(table.families) if table is not None and table.families else [b"f"]

    def filter_pools(self, table):
        return ([f.decode() for f in self.families_of(table)], FILTER_QUALIFIERS, FILTER_ROWS,
                FILTER_VALUES)

    # ------------------------------------------------------------------ scanners

    def open_scanner(self, table):
        """Records a scanner open; its index. A scanner opened on a disabled table is never
        read: HBase opens scanners lazily and its client would retry the first read."""
        k = len(self.scanners)
        if table is None or table.state == "gone":
            self.scanners.append(None)
        else:
            self.scanners.append(table.k)
            if table.state != "enabled":
                self.closed.add(k)
        return k

    def scanner(self, p_unknown=0.05):
        """A scanner index to read, or None (an id no server handed out)."""
        usable = [k for k in range(len(self.scanners)) if k not in self.closed]
        if not usable or self.chance(p_unknown):
            return None
        return self.pick(usable)

    def close_scanner(self, k):
        if k is not None:
            self.closed.add(k)

    def forget_scanners_of(self, table):
        """A table's scanners are not read once it is disabled, dropped or truncated."""
        for k, t in enumerate(self.scanners):
            if t == table.k:
                self.closed.add(k)


def draw_sequence(seed, n_calls, new_table, table_name, build, weights):
    """The seed's calls for one service: two tables first (new_table(m) makes one), then
    n_calls - 2 drawn by `weights` and build(m, kind); when no table is enabled, most draws
    enable a disabled one (table_name(m, t) names it) or make a new one instead, since without
    an enabled table most calls would only fail."""
    m = Model(seed)
    calls = [new_table(m), new_table(m)]
    while len(calls) < n_calls:
        if not m.live() and m.chance(0.9):
            disabled = m.live("disabled")
            if disabled:
                t = m.pick(disabled)
                t.state = "enabled"
                calls.append(Call("enableTable", table_name(m, t)))
            else:
                calls.append(new_table(m))
        else:
            calls.append(build(m, m.weighted(weights)))
    return calls[:n_calls]
