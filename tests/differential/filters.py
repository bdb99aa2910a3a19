"""A small grammar of HBase filter strings (TScan/TGet.filterString), drawn from a seeded RNG.

    filter := atom | filter AND filter | filter OR filter | SKIP atom | WHILE atom | (filter)

Each result says whether HBase's `hasFilterRow()` is true for it: a scan with batchSize and such
a filter fails only after HBase's client has retried for minutes (measured on HBase 2.6.1), so
the generators never combine the two.
"""

COMPARE_OPS = ["=", "!=", "<", "<=", ">", ">="]

# Filters whose hasFilterRow() is true in HBase 2.6.
ROW_LEVEL = {"PageFilter", "SingleColumnValueFilter", "SingleColumnValueExcludeFilter",
             "DependentColumnFilter", "SKIP", "WHILE"}


def _quote(b):
    return "'" + b.replace("'", "''") + "'"


def _comparator(rng, pool):
    kind = rng.choice(["binary", "binary", "binaryprefix", "substring", "regexstring"])
    text = rng.choice(pool)
    if kind == "regexstring":
        text = rng.choice([text + ".*", "^" + text, ".*" + text[-1:] + "$", "[a-c]"])
    return _quote("%s:%s" % (kind, text))


def atom(rng, families, qualifiers, rows, values):
    """One filter call: (text, row_level)."""
    fam = rng.choice(families)
    qual = rng.choice(qualifiers)
    name = rng.choice([
        "PrefixFilter", "KeyOnlyFilter", "FirstKeyOnlyFilter", "ColumnPrefixFilter",
        "MultipleColumnPrefixFilter", "ColumnCountGetFilter", "PageFilter",
        "ColumnPaginationFilter", "InclusiveStopFilter", "TimestampsFilter", "RowFilter",
        "FamilyFilter", "QualifierFilter", "ValueFilter", "ColumnRangeFilter",
        "SingleColumnValueFilter", "SingleColumnValueExcludeFilter", "DependentColumnFilter",
        "ColumnValueFilter"])
    op = rng.choice(COMPARE_OPS)
    bool_ = lambda: rng.choice(["true", "false"])  # noqa: E731
    if name == "PrefixFilter":
        args = [_quote(rng.choice(rows)[:rng.randint(0, 2)])]
    elif name in ("KeyOnlyFilter", "FirstKeyOnlyFilter"):
        args = []
    elif name == "ColumnPrefixFilter":
        args = [_quote(qual[:1])]
    elif name == "MultipleColumnPrefixFilter":
        args = [_quote(q) for q in rng.sample(qualifiers, min(2, len(qualifiers)))]
    elif name in ("ColumnCountGetFilter", "PageFilter"):
        args = [str(rng.randint(0, 3))]
    elif name == "ColumnPaginationFilter":
        args = [str(rng.randint(0, 3)), str(rng.randint(0, 2))]
    elif name == "InclusiveStopFilter":
        args = [_quote(rng.choice(rows))]
    elif name == "TimestampsFilter":
        args = [str(t) for t in sorted(rng.sample([1, 2, 5, 10, 100], rng.randint(1, 3)))]
    elif name == "RowFilter":
        args = [op, _comparator(rng, rows)]
    elif name == "FamilyFilter":
        args = [op, _comparator(rng, families)]
    elif name == "QualifierFilter":
        args = [op, _comparator(rng, qualifiers + [""])]
    elif name == "ValueFilter":
        args = [op, _comparator(rng, values)]
    elif name == "ColumnRangeFilter":
        lo, hi = sorted(rng.sample(qualifiers + [""], 2))
        args = [_quote(lo), bool_(), _quote(hi), bool_()]
    elif name in ("SingleColumnValueFilter", "SingleColumnValueExcludeFilter"):
        args = [_quote(fam), _quote(qual), op, _comparator(rng, values)]
        if rng.random() < 0.6:
            args += [bool_(), bool_()]
    elif name == "DependentColumnFilter":
        args = [_quote(fam), _quote(qual)]
        if rng.random() < 0.5:
            args.append(bool_())
            if rng.random() < 0.5:
                args += [op, _comparator(rng, values)]
    else:  # ColumnValueFilter
        args = [_quote(fam), _quote(qual), op, _comparator(rng, values)]
    return "%s(%s)" % (name, ", ".join(args)), name in ROW_LEVEL


def filter_string(rng, families, qualifiers, rows, values, depth=0):
    """A filter expression: (text, row_level)."""
    roll = rng.random()
    if depth >= 2 or roll < 0.55:
        return atom(rng, families, qualifiers, rows, values)
    if roll < 0.85:
        left, lrow = filter_string(rng, families, qualifiers, rows, values, depth + 1)
        right, rrow = filter_string(rng, families, qualifiers, rows, values, depth + 1)
        text = "%s %s %s" % (left, rng.choice(["AND", "OR"]), right)
        return ("(%s)" % text if rng.random() < 0.5 else text), lrow or rrow
    inner, _ = atom(rng, families, qualifiers, rows, values)
    return "%s %s" % (rng.choice(["SKIP", "WHILE"]), inner), True


BAD_FILTERS = ["PrefixFilter(", "NoSuchFilter()", "ValueFilter(=, 'nokind:x')",
               "PageFilter('x')", "KeyOnlyFilter() AND", "RowFilter(=, 'regexstring:(')"]


def maybe_filter(rng, families, qualifiers, rows, values, p=0.5, p_bad=0.04):
    """None (no filter), a bad filter string, or a grammatical one: (text or None, row_level)."""
    roll = rng.random()
    if roll < p_bad:
        return rng.choice(BAD_FILTERS), False
    if roll < p:
        return filter_string(rng, families, qualifiers, rows, values)
    return None, False
