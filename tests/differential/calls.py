"""What a generated call is, before and after it meets a server.

A call is a method name and its arguments, built from the generated Thrift types, with
placeholders where a value depends on the run rather than on the seed: table and namespace
names (unique per run, so a shared HBase never sees a name twice), "now" (the millisecond the
call is sent) and scanner ids (each server hands out its own). `resolve` swaps them for the
concrete values of one server; `render` prints a call as Python source a script can replay.
"""

import copy

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
LONG_MAX = 2 ** 63 - 1
UNKNOWN_SCANNER_ID = 987_654  # no server hands out this id in a short sequence


class Placeholder:
    """A value each server receives in its own concrete form."""

    def __eq__(self, other):
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(sorted(vars(self).items())))


class Tab(Placeholder):
    """Table k of the sequence, as bytes: `qualifier`, or `ns:qualifier` when ns (a namespace
    index) is given and full is true. TTableName takes the bare qualifier (full=False)."""

    def __init__(self, k, ns=None, full=True):
        self.k, self.ns, self.full = k, ns, full

    def __repr__(self):
        args = [str(self.k)]
        if self.ns is not None:
            args.append("ns=%d" % self.ns)
        if not self.full:
            args.append("full=False")
        return "Tab(%s)" % ", ".join(args)


class Ns(Placeholder):
    """Namespace j of the sequence, as str (or bytes, for TTableName.ns)."""

    def __init__(self, j, binary=False):
        self.j, self.binary = j, binary

    def __repr__(self):
        return "Ns(%d%s)" % (self.j, ", binary=True" if self.binary else "")


class Now(Placeholder):
    """The millisecond the call is sent, plus delta: an explicit timestamp near the server's
    clock that both servers receive relative to their own call."""

    def __init__(self, delta=0):
        self.delta = delta

    def __repr__(self):
        return "Now(%d)" % self.delta if self.delta else "Now()"


class Scanner(Placeholder):
    """The id the server returned for the sequence's k-th scanner open (None: an id never
    handed out)."""

    def __init__(self, k):
        self.k = k

    def __repr__(self):
        return "Scanner(%r)" % self.k


class Pattern(Placeholder):
    """A table-name regex: the sequence's name prefix followed by `suffix` (so a listing on a
    shared server only ever matches this sequence's tables)."""

    def __init__(self, suffix=".*"):
        self.suffix = suffix

    def __repr__(self):
        return "Pattern(%r)" % self.suffix


class MetaKey(Placeholder):
    """A hbase:meta row key `<table k>,<row>,99999999999999` (Thrift1 getRegionInfo)."""

    def __init__(self, k, row=b""):
        self.k, self.row = k, row

    def __repr__(self):
        return "MetaKey(%d, %r)" % (self.k, self.row)


class Call:
    """One generated request: `method` of the sequence's service with `args`. A call that
    opens a scanner names the scanner's index (what later Scanner(k) placeholders read), so
    removing calls while shrinking leaves the others' meaning alone."""

    def __init__(self, method, *args, opens_scanner=None):
        self.method = method
        self.args = args
        self.opens_scanner = opens_scanner

    def __repr__(self):
        return render(self)


class Names:
    """The concrete names of one sequence in one run (shared by both servers)."""

    def __init__(self, prefix):
        self.prefix = prefix  # letters, digits and '_' only: legal in HBase names and regexes

    def table(self, k):
        return "%st%d" % (self.prefix, k)

    def namespace(self, j):
        return "%sn%d" % (self.prefix, j)

    def logical(self):
        """[(concrete, logical)] longest first, for mapping answers back."""
        pairs = [(self.namespace(j), "<ns%d>" % j) for j in range(20)]
        pairs += [(self.table(k), "<t%d>" % k) for k in range(20)]
        return sorted(pairs, key=lambda p: -len(p[0]))


class Context:
    """What resolving needs from one server's session: names, the send time, scanner ids."""

    def __init__(self, names, now_ms, scanner_ids, explicit):
        self.names = names
        self.now_ms = now_ms
        self.scanner_ids = scanner_ids  # logical index -> concrete id on this server
        self.explicit = explicit  # concrete timestamp -> token, filled as Now(delta) resolves


def resolve(value, ctx, call_index):
    """A deep copy of value with every placeholder replaced by its concrete form."""
    if isinstance(value, Placeholder):
        return _concrete(value, ctx, call_index)
    if isinstance(value, list):
        return [resolve(v, ctx, call_index) for v in value]
    if isinstance(value, tuple):
        return tuple(resolve(v, ctx, call_index) for v in value)
    if isinstance(value, dict):
        return {resolve(k, ctx, call_index): resolve(v, ctx, call_index) for k, v in value.items()}
    if hasattr(value, "thrift_spec"):
        out = copy.copy(value)
        for key, field in vars(value).items():
            setattr(out, key, resolve(field, ctx, call_index))
        return out
    return value


def _concrete(p, ctx, call_index):
    names = ctx.names
    if isinstance(p, Tab):
        name = names.table(p.k)
        if p.ns is not None and p.full:
            name = names.namespace(p.ns) + ":" + name
        return name.encode()
    if isinstance(p, Ns):
        name = names.namespace(p.j)
        return name.encode() if p.binary else name
    if isinstance(p, Now):
        ts = ctx.now_ms + p.delta
        if p.delta:
            ctx.explicit[ts] = "N%d%+d" % (call_index, p.delta)
        return ts
    if isinstance(p, Scanner):
        return ctx.scanner_ids.get(p.k, UNKNOWN_SCANNER_ID)
    if isinstance(p, Pattern):
        return names.prefix + p.suffix
    if isinstance(p, MetaKey):
        return names.table(p.k).encode() + b"," + p.row + b",99999999999999"
    raise TypeError(p)


def tables_of(value, found=None):
    """The table indexes a call (or any value) names."""
    found = set() if found is None else found
    if isinstance(value, Call):
        tables_of(value.args, found)
    elif isinstance(value, (Tab, MetaKey)):
        found.add(value.k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            tables_of(v, found)
    elif isinstance(value, dict):
        for k, v in value.items():
            tables_of(k, found)
            tables_of(v, found)
    elif hasattr(value, "thrift_spec"):
        tables_of(list(vars(value).values()), found)
    return found


# ---------------------------------------------------------------- rendering as Python source


def _module_alias(obj):
    return "t2" if type(obj).__module__.startswith("hbase2") else "t1"


def show(value):
    """Python source for value: thrift structs without their unset fields, placeholders as
    their constructors."""
    if isinstance(value, Placeholder):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(show(v) + ", " for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (show(k), show(v)) for k, v in value.items()) + "}"
    if hasattr(value, "thrift_spec"):
        defaults = {spec[2]: spec[4] for spec in type(value).thrift_spec if spec}
        fields = ["%s=%s" % (k, show(v)) for k, v in vars(value).items()
                  if v is not None and v != defaults.get(k)]
        return "%s.%s(%s)" % (_module_alias(value), type(value).__name__, ", ".join(fields))
    return repr(value)


def render(call):
    args = "".join(", " + show(a) for a in call.args)
    extra = "" if call.opens_scanner is None else ", opens_scanner=%d" % call.opens_scanner
    return "Call(%r%s%s)" % (call.method, args, extra)


def script_namespace():
    """The names a replay script's CALLS list is evaluated with."""
    from hbase import ttypes as t1
    from hbase2 import ttypes as t2

    return {"Call": Call, "Tab": Tab, "Ns": Ns, "Now": Now, "Scanner": Scanner,
            "Pattern": Pattern, "MetaKey": MetaKey, "t1": t1, "t2": t2}
