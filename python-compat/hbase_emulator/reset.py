"""Reset for tests: empty every user table (schemas and splits kept) or drop everything.

Only standard Thrift2 admin calls are used, with HBase's own semantics, so the same reset works
against a real cluster's Thrift2 gateway:
  * truncate (default): per table `disableTable` + `truncateTable(preserveSplits=true)`; HBase's
    truncate leaves the table enabled, so a table that was disabled before is disabled again.
  * drop: per table `disableTable` + `deleteTable`, then `deleteNamespace` for every namespace but
    `default` and `hbase`.
System tables (namespace `hbase`) are never touched.

Round trips, not the server's work, dominate the cost (100 tables: 201 calls), so each step sends
its calls for all tables back to back on the one connection and then reads the replies in order
(pipelining: a Thrift server answers the calls of one connection in order).
"""

from . import thrift2

# Namespaces HBase itself owns; a drop keeps them.
BUILTIN_NAMESPACES = ("default", "hbase")
# Calls in flight at most: requests and replies are small, so this stays far below the socket
# buffers and neither side can block on a full buffer while the other waits.
PIPELINE_DEPTH = 256


def pipeline(client, api, calls):
    """Sends `api(**kwargs)` for every kwargs in `calls`, then reads the replies.

    Returns one (ok, result_or_TIOError) a call, in order. Other errors propagate.
    """
    if not hasattr(client, "_send"):  # not a thriftpy2 TClient: one call at a time
        send_recv = [lambda kw=kw: getattr(client, api)(**kw) for kw in calls]
        return [_outcome(f) for f in send_recv]
    out = []
    for start in range(0, len(calls), PIPELINE_DEPTH):
        chunk = calls[start:start + PIPELINE_DEPTH]
        for kw in chunk:
            client._send(api, **kw)
        out += [_outcome(lambda: client._recv(api)) for _ in chunk]
    return out


def _outcome(call):
    try:
        return True, call()
    except thrift2.ttypes.TIOError as e:
        return False, e


def _raise_first(outcomes):
    for ok, value in outcomes:
        if not ok:
            raise value


def user_tables(client):
    """TTableName of every user table (all namespaces but `hbase`)."""
    return [t for t in client.getTableNamesByPattern(".*", False)
            if (t.ns or b"default") != b"hbase"]


def _disable_all(client, tables):
    """Disables every table; returns the ones that were disabled already.

    Thrift2's TIOError carries only the Java exception's message (for TableNotEnabledException,
    just the table name), so a failed disable asks the table's state instead of parsing text.
    """
    failed = [(t, e) for t, (ok, e) in zip(tables, pipeline(client, "disableTable",
                                                             [{"tableName": t} for t in tables]))
              if not ok]
    if not failed:
        return []
    states = pipeline(client, "isTableDisabled", [{"tableName": t} for t, _ in failed])
    was_disabled = []
    for (t, error), (ok, disabled) in zip(failed, states):
        if not (ok and disabled):
            raise error
        was_disabled.append(t)
    return was_disabled


def reset(client, drop=False):
    """Empties (or with drop=True, deletes) every user table through `client`, a Thrift2 client
    (see thrift2.connect). Returns the number of tables reset."""
    tables = user_tables(client)
    was_disabled = _disable_all(client, tables)
    if drop:
        _raise_first(pipeline(client, "deleteTable", [{"tableName": t} for t in tables]))
        namespaces = [n.decode("utf-8") if isinstance(n, bytes) else n for n in client.listNamespaces()]
        _raise_first(pipeline(client, "deleteNamespace",
                              [{"name": n} for n in namespaces if n not in BUILTIN_NAMESPACES]))
        return len(tables)
    _raise_first(pipeline(client, "truncateTable",
                          [{"tableName": t, "preserveSplits": True} for t in tables]))
    _raise_first(pipeline(client, "disableTable", [{"tableName": t} for t in was_disabled]))
    return len(tables)


def reset_endpoint(host, thrift2_port, drop=False):
    """reset() over a fresh connection to host:thrift2_port."""
    with thrift2.client(host, thrift2_port) as c:
        return reset(c, drop=drop)
