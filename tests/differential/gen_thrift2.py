"""Seeded call sequences for Thrift2 (`THBaseService`)."""

from hbase2.ttypes import (TAppend, TColumn, TColumnFamilyDescriptor, TColumnIncrement, TColumnValue,
                           TCompareOp, TDelete, TGet, TIncrement, TMutation,
                           TNamespaceDescriptor, TPut, TRowMutations, TScan, TTableDescriptor,
                           TTableName, TTimeRange)

from calls import DAY_MS, Call, Now, Ns, Pattern, Scanner, Tab
from filters import maybe_filter
from gen_common import MISSING_TABLE, draw_sequence, long_bytes

# NO_OP is left out: a checkAndMutate that must compare with it makes HBase's client retry.
COMPARE_OPS = [TCompareOp.LESS, TCompareOp.LESS_OR_EQUAL, TCompareOp.EQUAL,
               TCompareOp.NOT_EQUAL, TCompareOp.GREATER_OR_EQUAL,
               TCompareOp.GREATER]


def _data_name(t):
    if t is None:
        return Tab(MISSING_TABLE)
    return Tab(t.k, ns=t.ns)


def _table_name(m, t):
    if t is None:
        return TTableName(qualifier=Tab(MISSING_TABLE, full=False))
    if t.ns is not None:
        return TTableName(ns=Ns(t.ns, binary=True), qualifier=Tab(t.k, full=False))
    return TTableName(ns=b"default" if m.chance(0.2) else None, qualifier=Tab(t.k, full=False))


def _family_descriptor(m, name, opts):
    fields = {"name": name, "maxVersions": opts["versions"]}
    if opts["ttl"]:
        fields["timeToLive"] = opts["ttl"]
    if m.chance(0.2):
        fields["minVersions"] = m.pick([0, 1])
    if m.chance(0.2):
        fields["keepDeletedCells"] = m.pick([0, 1, 2])
    if m.chance(0.15):
        fields["compressionType"] = m.pick([2, 1, 6])  # NONE, GZ, ZSTD (refused by stock HBase)
    if m.chance(0.1):
        fields["bloomnFilterType"] = m.pick([0, 1, 2])
    if m.chance(0.1):
        fields["inMemory"] = True
    if m.chance(0.1):
        fields["blockSize"] = m.pick([8192, 65536])
    if m.chance(0.1):
        fields["dataBlockEncoding"] = m.pick([0, 4])
    return TColumnFamilyDescriptor(**fields)


def create_table(m, first=False):
    if not first and m.tables and m.chance(0.12):
        t = m.pick(list(m.tables.values()))  # again: TableExistsException, or back after a drop
        if t.state == "gone":
            t.state = "enabled"
    else:
        ns = None
        if not first and m.namespaces and m.chance(0.3):
            ns = m.pick(sorted(m.namespaces))
        t = m.add_table(m.new_family_set(), ns)
        if not first and m.chance(0.04):
            t.families, t.state = {}, "gone"  # no families: refused
    columns = [_family_descriptor(m, n, o) for n, o in t.families.items()]
    splits = m.pick([None, None, None, [b"r3"], [b"r2", b"r4"]]) if not first else None
    desc = TTableDescriptor(tableName=_table_name(m, t), columns=columns,
                            durability=m.pick([None, None, 0, 3]))
    return Call("createTable", desc, splits)


def _admin(m, method):
    t = m.table_for_state_change(method)
    tn = _table_name(m, t)
    live = t is not None and t.state != "gone"
    if method == "disableTable" and live and t.state == "enabled":
        t.state = "disabled"
        m.forget_scanners_of(t)
    elif method == "enableTable" and live and t.state == "disabled":
        t.state = "enabled"
    elif method == "deleteTable" and live and t.state == "disabled":
        t.state = "gone"
    elif method == "truncateTable":
        if live and t.state == "disabled":
            t.state = "enabled"
            m.forget_scanners_of(t)
        return Call(method, tn, m.chance(0.5))
    if method == "isTableAvailableWithSplit":
        return Call(method, tn, m.pick([None, [], [b"r3"]]))
    return Call(method, tn)


def _family_change(m, method):
    t = m.table(p_missing=0.05)
    tn = _table_name(m, t)
    if method == "deleteColumnFamily":
        fam = m.family(t)
        if t is not None and fam in t.families and len(t.families) > 1:
            del t.families[fam]
        return Call(method, tn, fam)
    name = m.pick([b"f", b"g", b"h"])
    opts = {"versions": m.pick([1, 2, 4]), "ttl": m.pick([None, 7200])}
    if t is not None and (method == "addColumnFamily") == (name not in t.families):
        t.families[name] = opts
    return Call(method, tn, _family_descriptor(m, name, opts))


def modify_table(m):
    t = m.table(p_missing=0.05)
    fams = dict(t.families) if t is not None else {b"f": {"versions": 1, "ttl": None}}
    if t is not None and fams and m.chance(0.5):
        name = m.pick(sorted(fams))
        fams[name] = {"versions": m.pick([1, 2, 6]), "ttl": fams[name]["ttl"]}
        t.families = fams
    desc = TTableDescriptor(tableName=_table_name(m, t),
                            columns=[_family_descriptor(m, n, o) for n, o in fams.items()])
    return Call("modifyTable", desc)


def _namespace(m, method):
    if method in ("listNamespaces", "listNamespaceDescriptors"):
        return Call(method)
    if method == "createNamespace":
        j = m.next_ns if m.chance(0.8) or not m.namespaces else m.pick(sorted(m.namespaces))
        if j == m.next_ns:
            m.next_ns += 1
        m.namespaces.add(j)
        return Call(method, TNamespaceDescriptor(name=Ns(j), configuration=m.pick([None, {"k": "v"}])))
    j = m.pick(sorted(m.namespaces) + [m.next_ns + 5]) if m.namespaces else 7
    if method == "deleteNamespace":
        if not any(t.ns == j and t.state != "gone" for t in m.tables.values()):
            m.namespaces.discard(j)
        return Call(method, Ns(j))
    if method == "modifyNamespace":
        return Call(method, TNamespaceDescriptor(name=Ns(j), configuration={"k": "w"}))
    if method in ("getTableDescriptorsByNamespace", "getTableNamesByNamespace"):
        return Call(method, m.pick([Ns(j), "default"]))
    return Call(method, Ns(j))


def _listing(m, method):
    if method in ("getTableDescriptorsByPattern", "getTableNamesByPattern"):
        return Call(method, Pattern(m.pick([".*", "t[01]", "t.*", "nomatch"])), m.chance(0.5))
    if method == "getTableDescriptors":
        return Call(method, [_table_name(m, m.table()) for _ in range(m.rng.randint(0, 3))])
    return Call(method, _table_name(m, m.table()))


def _columns(m, t, with_ts=False):
    if m.chance(0.5):
        return None
    out = []
    for _ in range(m.rng.randint(1, 3)):
        col = TColumn(family=m.family(t))
        if m.chance(0.7):
            col.qualifier = m.qualifier()
        if with_ts and m.chance(0.3):
            col.timestamp = m.read_ts()
        out.append(col)
    return out


def _time_range(m):
    """[min, max); now and then min > max, which HBase refuses."""
    return TTimeRange(minStamp=m.pick([0, 1, 5, Now(-DAY_MS)]),
                      maxStamp=m.pick([6, 100, Now(), Now(DAY_MS)]))


def _get(m, t, row=None):
    flt, _ = maybe_filter(m.rng, *m.filter_pools(t), p=0.2)
    g = TGet(row=m.row() if row is None else row, columns=_columns(m, t))
    if m.chance(0.15):
        g.timestamp = m.read_ts()
    elif m.chance(0.15):
        g.timeRange = _time_range(m)
    if m.chance(0.3):
        g.maxVersions = m.pick([1, 2, 5, 0])
    g.filterString = flt and flt.encode()
    if m.chance(0.1):
        g.storeLimit, g.storeOffset = m.pick([None, 1, 0]), m.pick([None, 1, -1])
    if m.chance(0.02):
        g.existence_only = True
    return g


def _put(m, t, row=None):
    cells = [TColumnValue(family=m.family(t), qualifier=m.qualifier(), value=m.value(),
                          timestamp=m.write_ts(0.75)) for _ in range(m.rng.randint(1, 3))]
    if m.chance(0.03):
        cells = []
    p = TPut(row=m.row() if row is None else row, columnValues=cells)
    roll = m.rng.random()
    if roll < 0.15:
        p.timestamp = m.write_ts(0)
    elif roll < 0.18:
        p.timestamp = -1  # refused while HBase converts the request
    if m.chance(0.05):
        p.attributes = {b"_ttl": long_bytes(10 ** 9)}
    if m.chance(0.1):
        p.durability = m.pick([0, 1, 3])
    return p


def _delete(m, t, row=None):
    d = TDelete(row=m.row() if row is None else row)
    kind = m.pick([None, 0, 1, 1, 2, 3])
    if m.chance(0.8):
        d.columns = []
        for _ in range(m.rng.randint(0 if m.chance(0.1) else 1, 2)):
            col = TColumn(family=m.family(t))
            if kind in (None, 0, 1) or m.chance(0.2):
                col.qualifier = m.qualifier() if m.chance(0.85) else None
            if m.chance(0.3 if kind != 3 else 0.8):
                col.timestamp = m.pick([m.read_ts(), -1]) if m.chance(0.05) else m.read_ts()
            d.columns.append(col)
    if m.chance(0.2):
        d.timestamp = -1 if m.chance(0.1) else m.read_ts()
    d.deleteType = kind
    return d


def _scan(m, t, allow_batch=True):
    flt, row_level = maybe_filter(m.rng, *m.filter_pools(t))
    s = TScan(columns=_columns(m, t), filterString=flt and flt.encode())
    if m.chance(0.5):
        s.startRow = m.pick([b"", b"r2", b"r3", b"s"])
    if m.chance(0.4):
        s.stopRow = m.pick([b"", b"r3", b"r5", b"t", b"r2"])
    if m.chance(0.3):
        s.maxVersions = m.pick([1, 2, 5])
    if m.chance(0.15):
        s.timeRange = _time_range(m)
    if allow_batch and not row_level and m.chance(0.2):
        s.batchSize = m.pick([1, 2])
    s.reversed = m.pick([None, None, True, False])
    if m.chance(0.2):
        s.limit = m.pick([1, 2, 0])
    if m.chance(0.2):
        s.caching = m.pick([1, 100])
    if m.chance(0.05):
        s.colFamTimeRangeMap = {m.family(t): _time_range(m)}
    return s


def _increment(m, t):
    cols = [TColumnIncrement(family=m.family(t), qualifier=m.qualifier(),
                             amount=m.pick([None, 1, 5, -3, 0])) for _ in range(m.rng.randint(1, 2))]
    if m.chance(0.03):
        cols = []
    return TIncrement(row=m.row(), columns=cols, returnResults=m.pick([None, True, False]))


def _append(m, t):
    cols = [TColumnValue(family=m.family(t), qualifier=m.qualifier(), value=m.value())
            for _ in range(m.rng.randint(1, 2))]
    if m.chance(0.03):
        cols = []
    return TAppend(row=m.row(), columns=cols, returnResults=m.pick([None, True, False]))


def _mutations(m, t, row):
    """A TRowMutations for row; sometimes one entry names another row or has nothing."""
    muts = []
    for _ in range(m.rng.randint(0 if m.chance(0.05) else 1, 3)):
        other = row if m.chance(0.95) else b"r9"
        if m.chance(0.6):
            muts.append(TMutation(put=_put(m, t, other)))
        else:
            muts.append(TMutation(deleteSingle=_delete(m, t, other)))
    return TRowMutations(row=row, mutations=muts)


def _data(m, method):
    batch = method in ("putMultiple", "deleteMultiple", "mutateRow", "checkAndMutate",
                       "getScannerResults")
    n = m.rng.randint(0, 3) if method in ("getMultiple", "existsAll", "putMultiple",
                                          "deleteMultiple") else 1
    # HBase's client retries batches (and row mutations) on a disabled table for minutes.
    t = m.table(allow_disabled=not batch and n < 2)
    name = _data_name(t)
    if method == "exists" or method == "get":
        return Call(method, name, _get(m, t))
    if method in ("existsAll", "getMultiple"):
        return Call(method, name, [_get(m, t) for _ in range(n)])
    if method == "put":
        return Call(method, name, _put(m, t))
    if method == "putMultiple":
        return Call(method, name, [_put(m, t) for _ in range(n)])
    if method == "deleteSingle":
        return Call(method, name, _delete(m, t))
    if method == "deleteMultiple":
        return Call(method, name, [_delete(m, t) for _ in range(n)])
    if method == "increment":
        return Call(method, name, _increment(m, t))
    if method == "append":
        return Call(method, name, _append(m, t))
    row = m.row()
    fam, qual = m.family(t), m.qualifier()
    value = m.pick([None, b"", m.value(), m.value()])
    if method == "checkAndPut":
        return Call(method, name, row, fam, qual, value, _put(m, t, row if m.chance(0.95) else b"r9"))
    if method == "checkAndDelete":
        return Call(method, name, row, fam, qual, value,
                    _delete(m, t, row if m.chance(0.95) else b"r9"))
    if method == "mutateRow":
        return Call(method, name, _mutations(m, t, row))
    if method == "checkAndMutate":
        return Call(method, name, row, fam, qual, m.pick(COMPARE_OPS), value, _mutations(m, t, row))
    if method == "getScannerResults":
        return Call(method, name, _scan(m, t, allow_batch=False), m.pick([1, 3, 10, 0, -1]))
    if method == "getRegionLocation":
        return Call(method, name, row, m.chance(0.5))
    return Call(method, name)  # getAllRegionLocations


def _scanner(m, method):
    if method == "openScanner":
        t = m.table()
        k = m.open_scanner(t)
        return Call(method, _data_name(t), _scan(m, t), opens_scanner=k)
    k = m.scanner()
    if method == "getScannerRows":
        return Call(method, Scanner(k), m.pick([1, 2, 10, 100, 0, -1]))
    m.close_scanner(k)
    return Call(method, Scanner(k))


WEIGHTS = {
    "createTable": 1, "deleteTable": 1, "truncateTable": 1, "enableTable": 1, "disableTable": 1,
    "isTableEnabled": 0.5, "isTableDisabled": 0.5, "isTableAvailable": 0.5,
    "isTableAvailableWithSplit": 0.5, "tableExists": 1, "getTableDescriptor": 1,
    "getTableDescriptors": 1, "getTableDescriptorsByPattern": 0.5, "getTableNamesByPattern": 0.5,
    "getTableDescriptorsByNamespace": 0.5, "getTableNamesByNamespace": 0.5,
    "addColumnFamily": 0.7, "deleteColumnFamily": 0.5, "modifyColumnFamily": 0.7,
    "modifyTable": 0.5, "createNamespace": 0.7, "deleteNamespace": 0.4, "modifyNamespace": 0.3,
    "getNamespaceDescriptor": 0.5, "listNamespaces": 0.3, "listNamespaceDescriptors": 0.3,
    "getThriftServerType": 0.1,
    "exists": 3, "existsAll": 2, "get": 8, "getMultiple": 4, "put": 16, "putMultiple": 5,
    "deleteSingle": 5, "deleteMultiple": 2, "checkAndPut": 3, "checkAndDelete": 2, "increment": 3,
    "append": 3, "mutateRow": 3, "checkAndMutate": 3, "getScannerResults": 4,
    "getRegionLocation": 1, "getAllRegionLocations": 1,
    "openScanner": 5, "getScannerRows": 8, "closeScanner": 2,
}

ADMIN = {"deleteTable", "truncateTable", "enableTable", "disableTable", "isTableEnabled",
         "isTableDisabled", "isTableAvailable", "isTableAvailableWithSplit"}
LISTING = {"tableExists", "getTableDescriptor", "getTableDescriptors",
           "getTableDescriptorsByPattern", "getTableNamesByPattern"}
NAMESPACE = {"createNamespace", "deleteNamespace", "modifyNamespace", "getNamespaceDescriptor",
             "listNamespaces", "listNamespaceDescriptors", "getTableDescriptorsByNamespace",
             "getTableNamesByNamespace"}


def build(m, method):
    if method == "createTable":
        return create_table(m)
    if method in ADMIN:
        return _admin(m, method)
    if method in ("addColumnFamily", "deleteColumnFamily", "modifyColumnFamily"):
        return _family_change(m, method)
    if method == "modifyTable":
        return modify_table(m)
    if method in NAMESPACE:
        return _namespace(m, method)
    if method in LISTING:
        return _listing(m, method)
    if method == "getThriftServerType":
        return Call(method)
    if method in ("openScanner", "getScannerRows", "closeScanner"):
        return _scanner(m, method)
    return _data(m, method)


def sequence(seed, n_calls):
    """The seed's calls: two tables first, then n_calls - 2 drawn by WEIGHTS."""
    return draw_sequence(seed, n_calls, lambda m: create_table(m, first=True), _table_name,
                         build, WEIGHTS)

