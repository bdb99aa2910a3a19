"""Reset for tests: empty every user table (schemas and splits kept) or drop everything.

Only standard Thrift2 admin calls are used, with HBase's own semantics, so the same reset works
against a real cluster's Thrift2 gateway:
  * truncate (default): per table `disableTable` + `truncateTable(preserveSplits=true)`; HBase's
    truncate leaves the table enabled, so a table that was disabled before is disabled again.
  * drop: per table `disableTable` + `deleteTable`, then `deleteNamespace` for every namespace but
    `default` and `hbase`.
System tables (namespace `hbase`) are never touched.
"""

from . import thrift2

# Namespaces HBase itself owns; a drop keeps them.
BUILTIN_NAMESPACES = ("default", "hbase")


def _disable(client, tname):
    """Disables `tname`; returns False when it was already disabled.

    Thrift2's TIOError carries only the Java exception's message (for TableNotEnabledException,
    just the table name), so a failed disable asks the table's state instead of parsing text:
    one extra call only on that path.
    """
    try:
        client.disableTable(tname)
        return True
    except thrift2.ttypes.TIOError:
        if client.isTableDisabled(tname):
            return False
        raise


def user_tables(client):
    """TTableName of every user table (all namespaces but `hbase`)."""
    return [t for t in client.getTableNamesByPattern(".*", False)
            if (t.ns or b"default") != b"hbase"]


def reset(client, drop=False):
    """Empties (or with drop=True, deletes) every user table through `client`, a Thrift2 client
    (see thrift2.connect). Returns the number of tables reset."""
    tables = user_tables(client)
    for tname in tables:
        was_enabled = _disable(client, tname)
        if drop:
            client.deleteTable(tname)
            continue
        client.truncateTable(tname, True)
        if not was_enabled:
            client.disableTable(tname)
    if drop:
        for ns in client.listNamespaces():
            name = ns.decode("utf-8") if isinstance(ns, bytes) else ns
            if name not in BUILTIN_NAMESPACES:
                client.deleteNamespace(name)
    return len(tables)


def reset_endpoint(host, thrift2_port, drop=False):
    """reset() over a fresh connection to host:thrift2_port."""
    with thrift2.client(host, thrift2_port) as c:
        return reset(c, drop=drop)
