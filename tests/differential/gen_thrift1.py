"""Seeded call sequences for Thrift1 (`Hbase`)."""

from hbase.ttypes import BatchMutation, ColumnDescriptor, Mutation, TAppend, TIncrement, TScan

from calls import Call, MetaKey, Now, Scanner, Tab
from filters import maybe_filter
from gen_common import MISSING_TABLE, draw_sequence

NO_ATTRS = {}


def _name(t):
    return Tab(MISSING_TABLE if t is None else t.k)


def _column(m, t):
    """fam:qual mostly; a bare family (`f` or `f:`) sometimes."""
    fam = m.family(t)
    roll = m.rng.random()
    if roll < 0.1:
        return fam
    if roll < 0.15:
        return fam + b":"
    return fam + b":" + m.qualifier()


def _columns(m, t, p_none=0.4):
    if m.chance(p_none):
        return m.pick([None, []])
    return [_column(m, t) for _ in range(m.rng.randint(1, 3))]


def _maybe_negative(m, ts, p=0.04):
    return -1 if m.chance(p) else ts


def _mutations(m, t, server_time):
    """A row's mutations. With server time, no put goes to a family the same call deletes
    from: HBase applies the deletes and puts at two 'now's, so whether the put survives would
    depend on the millisecond they land in."""
    muts, deleted = [], set()
    for _ in range(m.rng.randint(0, 3)):
        col = _column(m, t)
        fam = col.split(b":")[0]
        if m.chance(0.3):
            muts.append(Mutation(isDelete=True, column=col))
            deleted.add(fam)
        else:
            muts.append(Mutation(column=col, value=m.value()))
    if server_time and deleted:
        muts = [x for x in muts if x.isDelete or x.column.split(b":")[0] not in deleted]
    return muts


def _descriptors(m, families):
    out = []
    for name, opts in families.items():
        fields = {"name": name + b":", "maxVersions": opts["versions"]}
        if opts["ttl"]:
            fields["timeToLive"] = opts["ttl"]
        out.append(ColumnDescriptor(**fields))
    return out


def create_table(m, families=None):
    if families is None and m.tables and m.chance(0.15):
        t = m.pick(list(m.tables.values()))  # again: AlreadyExists (or a re-create of a dropped one)
        if t.state == "gone":
            t.state = "enabled"
        return Call("createTable", Tab(t.k), _descriptors(m, t.families))
    fams = families or m.new_family_set()
    if m.chance(0.05):
        m.add_table({}).state = "gone"  # HBase refuses a table without families
        return Call("createTable", Tab(m.next_table - 1), [])
    t = m.add_table(fams)
    return Call("createTable", Tab(t.k), _descriptors(m, t.families))


def _admin(m, method):
    t = m.table_for_state_change(method)
    if method == "disableTable" and t is not None and t.state == "enabled":
        t.state = "disabled"
        m.forget_scanners_of(t)
    elif method == "enableTable" and t is not None and t.state == "disabled":
        t.state = "enabled"
    elif method == "deleteTable" and t is not None and t.state == "disabled":
        t.state = "gone"
    return Call(method, _name(t))


def _single_row_read(m, method):
    t = m.table()
    row = m.row()
    if method == "get":
        return Call("get", _name(t), row, _column(m, t), NO_ATTRS)
    if method == "getVer":
        return Call("getVer", _name(t), row, _column(m, t), m.pick([1, 2, 5, 0, -1]), NO_ATTRS)
    if method == "getVerTs":
        return Call("getVerTs", _name(t), row, _column(m, t), _maybe_negative(m, m.read_ts()),
                    m.pick([1, 3, 0]), NO_ATTRS)
    if method == "getRow":
        return Call("getRow", _name(t), row, NO_ATTRS)
    if method == "getRowWithColumns":
        return Call("getRowWithColumns", _name(t), row, _columns(m, t, 0.1), NO_ATTRS)
    if method == "getRowTs":
        return Call("getRowTs", _name(t), row, _maybe_negative(m, m.read_ts()), NO_ATTRS)
    return Call("getRowWithColumnsTs", _name(t), row, _columns(m, t, 0.1),
                _maybe_negative(m, m.read_ts()), NO_ATTRS)


def _multi_row_read(m, method):
    rows = m.rows(0, 3)
    t = m.table(allow_disabled=len(rows) < 2)  # HBase retries a batch on a disabled table
    args = [_name(t), rows]
    if "Columns" in method:
        args.append(_columns(m, t, 0.1))
    if method.endswith("Ts"):
        args.append(_maybe_negative(m, m.read_ts()))
    return Call(method, *args, NO_ATTRS)


def _mutate(m, method):
    ts = method.endswith("Ts")
    t = m.table(allow_disabled=method.startswith("mutateRow") and "Rows" not in method)
    if method.startswith("mutateRows"):
        batches = [BatchMutation(row=m.row(0.03), mutations=_mutations(m, t, not ts))
                   for _ in range(m.rng.randint(0, 3))]
        args = [_name(t), batches]
    else:
        args = [_name(t), m.row(), _mutations(m, t, not ts)]
    if ts:
        args.append(_maybe_negative(m, m.write_ts(0) if m.chance(0.9) else Now()))
    return Call(method, *args, NO_ATTRS)


def _delete(m, method):
    t = m.table()
    args = [_name(t), m.row()]
    if method in ("deleteAll", "deleteAllTs"):
        args.append(_column(m, t))
    if method.endswith("Ts"):
        args.append(_maybe_negative(m, m.read_ts()))
    return Call(method, *args, NO_ATTRS)


def _counter(m, method):
    t = m.table()
    amount = m.pick([1, 1, 5, -2, 0, 1 << 40])
    if method == "atomicIncrement":
        return Call("atomicIncrement", _name(t), m.row(0), _column(m, t), amount)
    if method == "increment":
        return Call("increment", TIncrement(table=_name(t), row=m.row(0), column=_column(m, t),
                                            ammount=amount))
    if method == "incrementRows":
        t = m.table(allow_disabled=False)
        return Call("incrementRows", [TIncrement(table=_name(t), row=m.row(0), column=_column(m, t),
                                                 ammount=m.pick([1, 3]))
                                      for _ in range(m.rng.randint(0, 3))])
    cols = [_column(m, t) for _ in range(m.rng.randint(0, 2))]
    values = [m.value() for _ in cols]
    if m.chance(0.05):
        values = values[:-1]
    return Call("append", TAppend(table=_name(t), row=m.row(), columns=cols, values=values))


def check_and_put(m):
    t = m.table()
    row = m.row()
    col = m.family(t) + b":" + m.qualifier()
    expected = m.pick([None, b"", m.value(), m.value()])
    put = Mutation(column=_column(m, t), value=m.value(), isDelete=m.chance(0.1))
    return Call("checkAndPut", _name(t), row, col, expected, put, NO_ATTRS)


def _scan_open(m, method):
    t = m.table()
    k = m.open_scanner(t)
    cols = _columns(m, t)
    start = m.pick([b"", b"r1", b"r2", b"r4", b"s"])
    stop = m.pick([b"", b"r3", b"r5", b"t", b"r2"])
    if method == "scannerOpenWithScan":
        flt, row_level = maybe_filter(m.rng, *m.filter_pools(t))
        scan = TScan(startRow=start if m.chance(0.6) else None,
                     stopRow=stop if m.chance(0.5) else None,
                     timestamp=m.read_ts() if m.chance(0.2) else None, columns=cols,
                     caching=m.pick([None, 1, 100]), filterString=flt and flt.encode(),
                     batchSize=None if row_level or m.chance(0.7) else m.pick([1, 2]),
                     sortColumns=m.pick([None, True, False]),
                     reversed=m.pick([None, None, True, False]), cacheBlocks=m.pick([None, False]))
        return Call(method, _name(t), scan, NO_ATTRS, opens_scanner=k)
    if method == "scannerOpen":
        args = [start, cols]
    elif method == "scannerOpenWithStop":
        args = [start, stop, cols]
    elif method == "scannerOpenWithPrefix":
        args = [m.pick([b"r", b"r2", b"", b"s"]), cols]
    elif method == "scannerOpenTs":
        args = [start, cols, _maybe_negative(m, m.read_ts())]
    else:
        args = [start, stop, cols, _maybe_negative(m, m.read_ts())]
    return Call(method, _name(t), *args, NO_ATTRS, opens_scanner=k)


def _scan_read(m, method):
    k = m.scanner()
    if method == "scannerGet":
        return Call("scannerGet", Scanner(k))
    if method == "scannerGetList":
        return Call("scannerGetList", Scanner(k), m.pick([1, 2, 10, 100, 0, -1]))
    m.close_scanner(k)
    return Call("scannerClose", Scanner(k))


def _catalog(m, method):
    if method in ("getTableNames", "getTableNamesWithIsTableEnabled", "getThriftServerType"):
        return Call(method)
    if method == "getRegionInfo":
        t = m.table()
        return Call(method, MetaKey(MISSING_TABLE if t is None else t.k, m.pick([b"", b"r2"])))
    t = m.table()
    return Call(method, _name(t))


WEIGHTS = {
    "createTable": 1, "disableTable": 1, "enableTable": 1, "deleteTable": 1, "isTableEnabled": 1,
    "compact": 1, "majorCompact": 1, "getTableNames": 1, "getTableNamesWithIsTableEnabled": 1,
    "getColumnDescriptors": 1, "getTableRegions": 1, "getRegionInfo": 1, "getThriftServerType": 0.2,
    "get": 6, "getVer": 4, "getVerTs": 4, "getRow": 6, "getRowWithColumns": 4, "getRowTs": 3,
    "getRowWithColumnsTs": 3, "getRows": 3, "getRowsWithColumns": 2, "getRowsTs": 2,
    "getRowsWithColumnsTs": 2, "mutateRow": 16, "mutateRowTs": 8, "mutateRows": 5,
    "mutateRowsTs": 3, "atomicIncrement": 3, "increment": 2, "incrementRows": 1, "append": 3,
    "deleteAll": 3, "deleteAllTs": 3, "deleteAllRow": 2, "deleteAllRowTs": 2, "checkAndPut": 4,
    "scannerOpenWithScan": 6, "scannerOpen": 2, "scannerOpenWithStop": 2,
    "scannerOpenWithPrefix": 2, "scannerOpenTs": 1, "scannerOpenWithStopTs": 1, "scannerGet": 4,
    "scannerGetList": 8, "scannerClose": 2,
}


def build(m, method):
    if method == "createTable":
        return create_table(m)
    if method in ("disableTable", "enableTable", "deleteTable", "isTableEnabled", "compact",
                  "majorCompact"):
        return _admin(m, method)
    if method in ("get", "getVer", "getVerTs") or method.startswith("getRow") and "Rows" not in method:
        return _single_row_read(m, method)
    if method.startswith("getRows"):
        return _multi_row_read(m, method)
    if method.startswith("mutateRow"):
        return _mutate(m, method)
    if method.startswith("deleteAll"):
        return _delete(m, method)
    if method in ("atomicIncrement", "increment", "incrementRows", "append"):
        return _counter(m, method)
    if method == "checkAndPut":
        return check_and_put(m)
    if method.startswith("scannerOpen"):
        return _scan_open(m, method)
    if method.startswith("scanner"):
        return _scan_read(m, method)
    return _catalog(m, method)


def sequence(seed, n_calls):
    """The seed's calls: two tables first, then n_calls - 2 drawn by WEIGHTS."""
    return draw_sequence(seed, n_calls, lambda m: create_table(m, m.new_family_set()),
                         lambda m, t: _name(t), build, WEIGHTS)

