"""A Thrift2 (THBaseService) client that needs no Thrift compiler.

thriftpy2 (already what happybase runs on) parses the IDL file shipped as package data at import
time, so the module works after a plain `pip install` on a machine without `thrift`.
"""

import contextlib
import os

import thriftpy2
from thriftpy2.rpc import make_client
from thriftpy2.transport import TTransportException

_IDL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "THBaseService.thrift")
# module_name must end in "_thrift" for thriftpy2; the structs are pickled under that name.
ttypes = thriftpy2.load(_IDL, module_name="hbase_emulator_THBaseService_thrift")
THBaseService = ttypes.THBaseService

DEFAULT_TIMEOUT_MS = 30000


def connect(host, port, timeout_ms=DEFAULT_TIMEOUT_MS):
    """An open THBaseService client (buffered transport, binary protocol: HBase's defaults).

    Close it with `client.close()`.
    """
    return make_client(THBaseService, host, int(port), timeout=timeout_ms)


@contextlib.contextmanager
def client(host, port, timeout_ms=DEFAULT_TIMEOUT_MS):
    c = connect(host, port, timeout_ms)
    try:
        yield c
    finally:
        c.close()


def table_name_bytes(name):
    """b"ns:qualifier" (or b"qualifier" in the default namespace) as bytes."""
    return name if isinstance(name, bytes) else name.encode("utf-8")


def split_table_name(name):
    """TTableName for "ns:qualifier" or "qualifier" (str or bytes)."""
    raw = table_name_bytes(name)
    ns, sep, qualifier = raw.partition(b":")
    if not sep:
        return ttypes.TTableName(ns=b"default", qualifier=raw)
    return ttypes.TTableName(ns=ns, qualifier=qualifier)


def full_table_name(tname):
    """"ns:qualifier" (str) from a TTableName; the default namespace is left out, as HBase does."""
    ns = tname.ns or b"default"
    ns = ns.decode("utf-8") if isinstance(ns, bytes) else ns
    q = tname.qualifier.decode("utf-8") if isinstance(tname.qualifier, bytes) else tname.qualifier
    return q if ns == "default" else "%s:%s" % (ns, q)


def scan_results(client, table, scan, batch_rows):
    """Each TResult of a Thrift2 scan, fetched batch_rows at a time; the scanner is closed on
    every way out (the end, an error, or the caller stopping early)."""
    scanner = client.openScanner(table, scan)
    try:
        while True:
            results = client.getScannerRows(scanner, batch_rows)
            if not results:
                return
            yield from results
    finally:
        client.closeScanner(scanner)
