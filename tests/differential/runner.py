"""Sends one sequence of calls to two servers in lockstep and compares the normalised answers.

Each call goes to server A, then to server B; the next call waits until the wall clock has
moved two milliseconds past the last reply, so every call of a sequence is dated in its own
millisecond on both servers and server timestamps can be named by the call that made them
(normalise.Clock). Both servers share this machine's clock (HBase's region server dates cells
with System.currentTimeMillis()).
"""

import time

import hbcompat
from calls import Context, Names, resolve
from normalise import Clock, Err, Normaliser, diff_path, first_line

SERVICES = ("thrift1", "thrift2")


class Target:
    """A server: its Thrift1 and Thrift2 endpoints ((host, port) or None) and a per-call
    timeout in seconds (a call HBase retries for minutes is recorded as a timeout)."""

    def __init__(self, label, thrift1, thrift2, timeout_s=30.0):
        self.label, self.thrift1, self.thrift2 = label, thrift1, thrift2
        self.timeout_s = timeout_s

    def endpoint(self, service):
        return self.thrift1 if service == "thrift1" else self.thrift2

    def open(self, service):
        host, port = self.endpoint(service)
        return hbcompat.open_raw_client(host, port, _client_module(service),
                                        timeout_ms=int(self.timeout_s * 1000))

    def __repr__(self):
        return "%s(thrift1=%s thrift2=%s)" % (self.label, _hp(self.thrift1), _hp(self.thrift2))


def _hp(endpoint):
    return "%s:%d" % endpoint if endpoint else "-"


def _client_module(service):
    if service == "thrift1":
        from hbase import Hbase
        return Hbase
    from hbase2 import THBaseService
    return THBaseService


def now_ms():
    return time.time_ns() // 1_000_000


class Session:
    """One target's connection and state while it runs one sequence."""

    def __init__(self, target, service, names):
        self.target, self.service, self.names = target, service, names
        self.clock = Clock()
        self.normaliser = Normaliser(names, self.clock)
        self.scanner_ids = {}
        self.client = self.transport = None

    def _connect(self):
        if self.client is None:
            self.client, self.transport = self.target.open(self.service)
        return self.client

    def close(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except Exception:
                pass
        self.client = self.transport = None

    def send(self, index, call):
        """Runs call; returns (normalised answer, raw answer or exception)."""
        start = now_ms()
        ctx = Context(self.names, start, self.scanner_ids, self.clock.explicit)
        args = resolve(list(call.args), ctx, index)
        try:
            raw = getattr(self._connect(), call.method)(*args)
            ok = True
        except Exception as e:  # every failure is an answer to compare
            raw, ok = e, False
        self.clock.record(start, now_ms())
        if ok:
            if call.opens_scanner is not None:
                # Ids are each server's own numbering: compare that an id came back.
                self.scanner_ids[call.opens_scanner] = raw
                return ("scanner", isinstance(raw, int)), raw
            return self.normaliser.answer(call.method, raw), raw
        norm = self.normaliser.error(raw)
        if norm[0] in ("timeout", "transport", "client"):
            self.close()  # the connection is in an unknown state: start a fresh one
        return norm, raw


class CallResult:
    def __init__(self, index, call, a, b, raw_a, raw_b):
        self.index, self.call, self.a, self.b = index, call, a, b
        self.raw_a, self.raw_b = raw_a, raw_b

    @property
    def agree(self):
        return self.a == self.b

    @property
    def cause(self):
        """A short key grouping like divergences: method and the shape of both answers."""
        where = diff_path(self.a, self.b) if not isinstance(self.a, Err) and not isinstance(
            self.b, Err) else ""
        return (self.call.method, _shape(self.a), _shape(self.b)) + ((where,) if where else ())


def _shape(norm):
    return repr(norm) if isinstance(norm, Err) else "value"


def _wait_past(ms):
    while now_ms() < ms + 2:
        time.sleep(0.0005)


def run_sequence(calls, service, targets, names, log=None, stop=None, clean=True):
    """Runs calls on both targets; [CallResult]. `log(result)` sees each result as it comes;
    the run ends early once `stop(result)` is true; `clean=False` leaves the sequence's tables
    for the caller to drop (see cleanup)."""
    sa, sb = (Session(t, service, names) for t in targets)
    results = []
    last = now_ms()
    try:
        for i, call in enumerate(calls):
            _wait_past(last)
            a, raw_a = sa.send(i, call)
            b, raw_b = sb.send(i, call)
            last = now_ms()
            result = CallResult(i, call, a, b, raw_a, raw_b)
            results.append(result)
            if log:
                log(result)
            if stop and stop(result):
                break
    finally:
        sa.close()
        sb.close()
        if clean:
            for t in targets:
                cleanup(t, names)
    return results


def cleanup(target, names):
    """Drops the sequence's tables and namespaces (best effort, not compared)."""
    prefix = names.prefix.encode()
    try:
        client, transport = target.open("thrift1")
    except Exception:
        return
    try:
        for name in client.getTableNames():
            if prefix in name:
                for step in (client.disableTable, client.deleteTable):
                    try:
                        step(name)
                    except Exception:
                        pass
    except Exception:
        pass
    finally:
        transport.close()
    if target.thrift2 is None:
        return
    try:
        client, transport = target.open("thrift2")
    except Exception:
        return
    try:
        for ns in client.listNamespaces():
            if names.prefix in ns:
                try:
                    client.deleteNamespace(ns)
                except Exception:
                    pass
    except Exception:
        pass
    finally:
        transport.close()


def describe(result, width=400):
    """Multi-line text of one call and both answers; long answers that differ are shown from a
    little before their first difference."""
    def side(norm, raw):
        if isinstance(raw, Exception):
            return "%s   [%s: %s]" % (norm, type(raw).__name__, first_line(raw))
        return str(norm)
    a, b = side(result.a, result.raw_a), side(result.b, result.raw_b)
    if not result.agree and max(len(a), len(b)) > width:
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        start = max(0, at - width // 3)
        a, b = ("..." if start else "") + a[start:], ("..." if start else "") + b[start:]
    lines = ["#%d %s %s" % (result.index, "==" if result.agree else "!=", result.call),
             "    A: " + a[:width], "    B: " + b[:width]]
    if not result.agree and len(result.cause) > 3:
        lines.append("    differs at: " + result.cause[3])
    return "\n".join(lines)


def sequence_names(run_id, seed, attempt=None):
    suffix = "" if attempt is None else "a%d" % attempt
    return Names("dif%ss%d%s_" % (run_id, seed, suffix))
