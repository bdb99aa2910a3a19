"""A client for hbase-emulator's test controls (`--test-controls`): JSON over HTTP under
/control/ on the admin port.

    from hbase_emulator.controls import Controls
    controls = Controls("127.0.0.1", admin_port)
    controls.clock.freeze()
    controls.clock.advance(days=2)
    with controls.faults.inject(method="getRow*", times=2,
                                exception="org.apache.hadoop.hbase.NotServingRegionException"):
        ...
    mark = controls.calls.mark()
    ...
    controls.calls.list(since=mark, table="t", errors=True)

Only the standard library is used.
"""

import contextlib
import datetime
import difflib
import fnmatch
import json
import urllib.error
import urllib.parse
import urllib.request

DURATION_UNITS = ("ms", "seconds", "minutes", "hours", "days")


class ControlError(Exception):
    """The server refused a control request (status and message as it sent them)."""

    def __init__(self, status, message):
        super().__init__("%s: %s" % (status, message))
        self.status = status
        self.message = message


class UnknownMethodError(ControlError, ValueError):
    """A fault rule or call query named a method or happybase operation the server does not
    have (raised before the request is sent, with the close names)."""

    def __init__(self, message):
        super().__init__(400, message)



def request(base, method, path, query=None, body=None, timeout=30.0):
    """One control request to the admin URL `base` ("http://HOST:PORT"); its JSON answer.
    Arguments that are None are left out. A refusal raises ControlError."""
    url = base.rstrip("/") + path
    if query:
        url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
    data = None
    if body is not None:
        data = json.dumps({k: v for k, v in body.items() if v is not None}).encode("utf-8")
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as reply:
            return json.loads(reply.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        text = e.read().decode("utf-8", "replace")
        try:
            message = json.loads(text).get("error", text)
        except ValueError:
            message = text
        if e.code == 404 and "Exception" not in message:
            message += " (is the server running with --test-controls?)"
        raise ControlError(e.code, message) from None

class Controls:
    """The test controls of one server. `get` and `post` reach any route (GET /control/ lists
    them); `clock`, `faults` and `calls` wrap the ones this module knows."""

    def __init__(self, host, admin_port, timeout=30.0):
        host = "[%s]" % host if ":" in host and not host.startswith("[") else host
        self.base = "http://%s:%d" % (host, admin_port)
        self.timeout = timeout
        self.clock = Clock(self)
        self.faults = Faults(self)
        self.calls = Calls(self)

    def _request(self, method, path, query=None, body=None):
        return request(self.base, method, path, query=query, body=body, timeout=self.timeout)

    def get(self, path, **query):
        return self._request("GET", path, query=query)

    def post(self, path, **body):
        return self._request("POST", path, body=body)

    def routes(self):
        return self.get("/control/")["routes"]

    def method_names(self):
        """{"thrift1": [...], "thrift2": [...], "rest": ["GET /table/row", ...],
        "happybase": {"Table.put": [thrift calls]}}, the
        names fault rules and call queries take; None when the server does not list them."""
        if not hasattr(self, "_method_names"):
            try:
                self._method_names = self.get("/control/methods")
            except ControlError as e:
                if e.status != 404:
                    raise
                self._method_names = None
        return self._method_names

    def check_method(self, method, service=None):
        """Raises UnknownMethodError unless `method` (a Thrift method or REST call such as
        "GET /table/row", a glob over them, or a happybase operation such as "Table.put") names
        a call of `service`. The server checks
        the same; this says so before any request, with the close names."""
        if method in (None, "", "*"):
            return
        names = self.method_names()
        if names is None:
            return
        services = [s for s in ("thrift1", "thrift2", "rest") if service in (None, "", "*")
                    or fnmatch.fnmatchcase(s, service)]
        methods = sorted({m for s in services for m in names.get(s, [])})
        operations = sorted(names.get("happybase", {})) if "thrift1" in services else []
        # As the server reads it: a glob over Thrift methods, or one operation's exact name.
        if any(fnmatch.fnmatchcase(m, method) for m in methods) or method in operations:
            return
        candidates = methods + operations
        close = difflib.get_close_matches(method, candidates, n=5, cutoff=0.6)
        raise UnknownMethodError(
            "no method or happybase operation %r%s; %s" % (
                method, " in %s" % service if service not in (None, "", "*") else "",
                "did you mean %s?" % ", ".join(close) if close
                else "Controls.method_names() lists them"))


def _duration(kwargs):
    unknown = set(kwargs) - set(DURATION_UNITS)
    if unknown:
        raise TypeError("unknown duration unit(s): %s (use %s)" % (", ".join(sorted(unknown)),
                                                                    ", ".join(DURATION_UNITS)))
    if not kwargs:
        raise TypeError("give a duration, e.g. advance(days=2) or advance(seconds=121)")
    return kwargs


def _epoch_ms(at):
    if isinstance(at, datetime.datetime):
        if at.tzinfo is None:
            at = at.replace(tzinfo=datetime.timezone.utc)
        return int(at.timestamp() * 1000)
    return int(at)


class Clock:
    """The server's clock: every server-assigned timestamp, TTL, scanner lease and heat-map
    window follows it."""

    def __init__(self, controls):
        self._c = controls

    def state(self):
        """{"now_ms", "frozen", "offset_ms", "system_ms"}"""
        return self._c.get("/control/clock")

    def now_ms(self):
        return self.state()["now_ms"]

    def freeze(self, at=None):
        """Stops the clock now, or at `at` (ms since the epoch, or a datetime; naive = UTC)."""
        return self._c.post("/control/clock/freeze", at_ms=None if at is None else _epoch_ms(at))

    def advance(self, **duration):
        """Moves the clock, frozen or running: advance(days=2), advance(seconds=121)."""
        return self._c.post("/control/clock/advance", **_duration(duration))

    def set_offset(self, **duration):
        """Runs the clock this far ahead of the system clock (negative: behind)."""
        return self._c.post("/control/clock/offset", **_duration(duration))

    def resume(self):
        """Back to the system clock."""
        return self._c.post("/control/clock/resume")


class Faults:
    """Fault rules: which calls (service, method, table glob patterns; row_prefix) and what
    happens (action: fail, delay, close_before, close_after)."""

    def __init__(self, controls):
        self._c = controls

    def add(self, action="fail", service=None, method=None, table=None, row_prefix=None,
            exception=None, message=None, can_retry=None, delay_ms=None, times=None,
            probability=None, seed=None):
        """Installs a rule; returns it as the server lists it (with its "id"). `method` is a
        Thrift method or a REST call ("PUT /table/row", service "rest"), a glob over them, or a happybase operation ("Table.put", "Table.scan":
        every Thrift call it makes); an unknown name raises UnknownMethodError."""
        self._c.check_method(method, service)
        return self._c.post("/control/faults", action=action, service=service, method=method,
                            table=table, row_prefix=row_prefix, exception=exception,
                            message=message, can_retry=can_retry, delay_ms=delay_ms, times=times,
                            probability=probability, seed=seed)

    def remove(self, rule_id):
        return self._c.post("/control/faults/remove", id=rule_id)

    def clear(self):
        return self._c.post("/control/faults/clear")

    def list(self):
        """{"rules": [...], "triggered": {action: count}}"""
        return self._c.get("/control/faults")

    def rule(self, rule_id):
        for r in self.list()["rules"]:
            if r["id"] == rule_id:
                return r
        return None

    @contextlib.contextmanager
    def inject(self, **rule):
        """Installs a rule for the `with` block and removes it after; yields the rule's id."""
        rule_id = self.add(**rule)["id"]
        try:
            yield rule_id
        finally:
            try:
                self.remove(rule_id)
            except ControlError as e:
                if e.status != 404:
                    raise


class Calls:
    """The call log: the last calls of both services, with their arguments and outcomes."""

    def __init__(self, controls):
        self._c = controls

    def mark(self):
        """The newest call's number: list(since=mark) gives the calls after it."""
        return self._c.get("/control/calls/mark")["mark"]

    def list(self, since=None, table=None, method=None, service=None, errors=False, limit=None):
        """The calls (oldest first) as dicts: seq, service, method, table, row, stop_row, rows,
        filter, caching, batch_size, columns, duration_us, outcome ("ok", "error", "fault"),
        exception, error, reason, fault. `method` may name a happybase operation (the calls it
        makes); a scanner's fetches and close carry the table it was opened on. The server
        answers in pages (call_log_page_bytes, 1,000 calls); this asks for each in turn."""
        self._c.check_method(method, service)
        found = []
        while True:
            answer = self._c.get("/control/calls", since=since, table=table, method=method,
                                 service=service, errors="1" if errors else None, limit=limit)
            found.extend(answer["calls"])
            if not answer.get("truncated"):
                return found
            since = answer["next_since"]

    def clear(self):
        return self._c.post("/control/calls/clear")

    def enable(self, enabled=True):
        return self._c.post("/control/calls/enable", enabled=bool(enabled))


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, (bytes, bytearray)) else value


class CallRecorder:
    """The calls made since a mark (the start of a test, for the hbase_calls fixture), with
    helpers to assert on them. Filters: table, method (a Thrift method, a glob, or a happybase
    operation such as "Table.put"), service; field checks compare a call's
    logged field (row, filter, caching, batch_size, columns, outcome, ...) to a value (bytes are
    compared as UTF-8 text)."""

    def __init__(self, calls):
        self._calls = calls
        self.since = calls.mark()

    def reset(self):
        """Forgets the calls so far."""
        self.since = self._calls.mark()

    def calls(self, table=None, method=None, service=None, **fields):
        found = self._calls.list(since=self.since, table=_text(table), method=method,
                                 service=service)
        want = {k: _text(v) for k, v in fields.items()}
        return [c for c in found if all(c.get(k) == v for k, v in want.items())]

    def methods(self, table=None):
        """The method names called, in order."""
        return [c["method"] for c in self.calls(table=table)]

    def errors(self, table=None):
        return [c for c in self.calls(table=table) if c["outcome"] != "ok"]

    def assert_called(self, method, table=None, times=None, **fields):
        """The matching calls; fails when there are none (or not exactly `times`)."""
        found = self.calls(table=table, method=method, **fields)
        if (times is None and not found) or (times is not None and len(found) != times):
            raise AssertionError("expected %s call(s) of %s%s%s, got %d; calls since the mark: %s"
                                 % ("some" if times is None else times, method,
                                    " on %s" % _text(table) if table else "",
                                    " with %r" % fields if fields else "", len(found),
                                    self.methods()))
        return found

    def assert_not_called(self, method, table=None, **fields):
        self.assert_called(method, table=table, times=0, **fields)

    def assert_no_errors(self, table=None):
        errors = self.errors(table=table)
        if errors:
            raise AssertionError("server-side errors: %s" % "; ".join(
                "%s %s: %s" % (c["method"], c.get("table", ""), c.get("reason") or c.get("fault"))
                for c in errors))
