"""Sends one sequence of REST calls (gen_rest.R) to two gateways in lockstep and compares the
normalised answers: status, Content-Type, Location, X-Timestamp and body.

Each gateway gets its own table and namespace names (same length, different letter), so one
gateway can be compared with itself. Calls are a few milliseconds apart, so server timestamps
are named by the call that made them (normalise.Clock), as in the Thrift differential.
"""

import http.client
import json
import re
import time
import urllib.parse
import xml.etree.ElementTree as ET

import rest_codec
from calls import Names, Ns, Scanner, Tab
from normalise import ENCODED_REGION, MILLIS, Clock, Err
from rest_codec import JSON, OCTET, PROTOBUF, XML

UNKNOWN_SCANNER_ID = "1234567890abcdef0000"
# normalise's patterns, over text
MILLIS_TEXT = re.compile(MILLIS.pattern.decode())
ENCODED_REGION_TEXT = re.compile(ENCODED_REGION.pattern.decode())
HOST_PORT = re.compile(r"\b[\w.-]+:\d{2,5}\b")
HEX_ID = re.compile(r"-[0-9a-f]{6,}\b")
SHAPE_ONLY = {"version", "status"}  # bodies that name the server's build: compared by shape
# ... and the one build name a shape still holds: /version/cluster as text is the version alone,
# "2.6.1-hadoop3" from HBase's hadoop3 binary build, "2.6.1" from the emulator (a documented
# deviation, COMPATIBILITY.md); the flavour suffix is dropped.
BUILD_FLAVOUR = re.compile(r"-hadoop\d+$")
# A call's answer may take this long: when a region server refuses a scan at its first fetch,
# HBase's gateway answers only after its client's retries, about 48 s later.
DEFAULT_TIMEOUT_S = 90.0


class RestTarget:
    """A gateway: host, port, and a per-call timeout in seconds."""

    def __init__(self, label, host, port, timeout_s=DEFAULT_TIMEOUT_S):
        self.label, self.host, self.port, self.timeout_s = label, host, port, timeout_s

    def request(self, method, url, headers, body=None):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout_s)
        try:
            conn.request(method, url, body=body, headers=headers)
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()

    def __repr__(self):
        return "%s(rest=%s:%d)" % (self.label, self.host, self.port)


def names_for(run_id, seed, label, attempt=None):
    """A target's names: the same length on both sides, told apart by the label's letter."""
    suffix = "" if attempt is None else "a%d" % attempt
    return Names("rdf%ss%d%s%s_" % (run_id, seed, suffix, label.lower()))


def now_ms():
    return time.time_ns() // 1_000_000


# ------------------------------------------------------------------------------ encoding


def _segment(seg, names, scanner_ids):
    if isinstance(seg, Tab):
        name = names.table(seg.k)
        return (names.namespace(seg.ns) + ":" + name) if seg.ns is not None else name
    if isinstance(seg, Ns):
        return names.namespace(seg.j)
    if isinstance(seg, Scanner):
        return scanner_ids.get(seg.k, UNKNOWN_SCANNER_ID)
    return seg


def _url(call, names, scanner_ids):
    path = "/" + "/".join(urllib.parse.quote(_segment(s, names, scanner_ids), safe=":,*")
                          for s in call.path)
    if call.query:
        path += "?" + urllib.parse.urlencode(call.query, quote_via=urllib.parse.quote)
    return path


def _schema_body(encoding, name, families):
    if encoding == XML:
        return ('<TableSchema name="%s">%s</TableSchema>' % (name, "".join(
            '<ColumnSchema name="%s" VERSIONS="%d"/>' % f for f in families))).encode()
    if encoding == JSON:
        return json.dumps({"name": name, "ColumnSchema": [
            {"name": f, "VERSIONS": str(v)} for f, v in families]}).encode()
    # TableSchema { name = 1; columns = 3 }  ColumnSchema { name = 1; maxVersions = 4 }
    return rest_codec.pb_field(1, name.encode()) + b"".join(
        rest_codec.pb_field(3, rest_codec.pb_field(1, f.encode()) + rest_codec.pb_field(4, v))
        for f, v in families)


def _scanner_body(encoding, spec):
    b64 = lambda s: rest_codec.b64(s.encode())  # noqa: E731
    if encoding == XML:
        root = ET.Element("Scanner")
        for key in ("batch", "maxVersions"):
            if key in spec:
                root.set(key, str(spec[key]))
        for key in ("startRow", "endRow"):
            if key in spec:
                root.set(key, b64(spec[key]))
        for column in spec.get("columns", []):
            ET.SubElement(root, "column").text = b64(column)
        if "filter" in spec:
            ET.SubElement(root, "filter").text = spec["filter"]
        return ET.tostring(root)
    if encoding == JSON:
        doc = {k: spec[k] for k in ("batch", "maxVersions", "filter") if k in spec}
        doc.update({k: b64(spec[k]) for k in ("startRow", "endRow") if k in spec})
        if "columns" in spec:
            doc["column"] = [b64(c) for c in spec["columns"]]
        return json.dumps(doc).encode()
    # Scanner { startRow = 1; endRow = 2; columns = 3; batch = 4; maxVersions = 7; filter = 8 }
    out = b""
    for number, key in ((1, "startRow"), (2, "endRow")):
        if key in spec:
            out += rest_codec.pb_field(number, spec[key].encode())
    for column in spec.get("columns", []):
        out += rest_codec.pb_field(3, column.encode())
    for number, key in ((4, "batch"), (7, "maxVersions")):
        if key in spec:
            out += rest_codec.pb_field(number, spec[key])
    if "filter" in spec:
        out += rest_codec.pb_field(8, spec["filter"].encode())
    return out


def encode_body(body, names):
    """(Content-Type, bytes) for a call's body description, or (None, None)."""
    if body is None:
        return None, None
    kind = body[0]
    if kind == "cells":
        rows = [(r.encode(), [(c.encode(), ts, v) for c, ts, v in cells]) for r, cells in body[2]]
        return body[1], rest_codec.encode_cellset(rows, body[1])
    if kind == "octet":
        return OCTET, body[1]
    if kind == "schema":
        return body[1], _schema_body(body[1], _segment(body[2], names, {}), body[3])
    if kind == "scanner":
        return body[1], _scanner_body(body[1], body[2])
    if kind == "raw":
        return body[1], body[2]
    raise ValueError(kind)


# ------------------------------------------------------------------------------ normalising


class RestNormaliser:
    """One target's answers made comparable: its names as <t0>/<ns0>, server timestamps as call
    tokens, hosts as <host>, scanner ids as <id>; listings keep only this sequence's entries."""

    def __init__(self, names, clock):
        self.names, self.clock = names, clock
        self.pairs = [(c, l) for c, l in names.logical()]
        self.prefix = names.prefix

    def text(self, s):
        if self.prefix in s:
            for concrete, logical in self.pairs:
                s = s.replace(concrete, logical)
        s = ENCODED_REGION_TEXT.sub(".<enc>.", s)
        s = MILLIS_TEXT.sub(lambda m: str(self.clock.token(int(m.group()))), s)
        return HOST_PORT.sub("<host>", s)

    def ts(self, t):
        return self.clock.token(t) if isinstance(t, int) else t

    def cells(self, rows):
        return [(k, [(c, self.ts(t), v) for c, t, v in cells]) for k, cells in rows]

    def tree(self, v):
        """A parsed JSON value with names, hosts and stamps normalised."""
        if isinstance(v, dict):
            return {k: (self.ts(x) if k in ("timestamp", "id") else self.tree(x))
                    for k, x in v.items()}
        if isinstance(v, list):
            return [self.tree(x) for x in v]
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, int) and not isinstance(v, bool) and v >= 10 ** 12:
            return self.ts(v)
        return v

    def xml(self, e):
        attrs = tuple(sorted((k, str(self.ts(int(x))) if k in ("timestamp", "id") and x.isdigit()
                              else self.text(x)) for k, x in e.attrib.items()))
        return (e.tag, attrs, self.text((e.text or "").strip()), [self.xml(c) for c in e])

    def pb(self, body, depth=0):
        """Protobuf fields; a bytes field that itself parses as a message is opened (both sides
        are opened alike, so the guess is harmless)."""
        try:
            fields = rest_codec.pb_fields(body)
        except ValueError:
            return self.text(body.decode("utf-8", "surrogateescape"))
        out = []
        for n, v in fields:
            if isinstance(v, bytes):
                opened = depth < 4 and v and _looks_like_message(v)
                nested = self.pb(v, depth + 1) if opened else None
                out.append((n, nested if nested is not None else
                            self.text(v.decode("utf-8", "surrogateescape"))))
            else:
                out.append((n, self.ts(v) if v >= 10 ** 12 else v))
        return out

    def ours(self, name):
        return self.prefix in name or name in ("default", "hbase")


def _looks_like_message(b):
    try:
        fields = rest_codec.pb_fields(b)
    except ValueError:
        return False
    return bool(fields) and all(0 < n < 20 for n, _ in fields) and not b.isascii()


def _content_type(headers):
    ct = headers.get("content-type")
    return ct.replace(" ", "").lower() if ct else None


def _listing(call, body, ctype, norm):
    """GET / and GET /namespaces list the whole server's tables or namespaces: keep ours."""
    if ctype.startswith(JSON):
        doc = json.loads(body)
        key = "table" if "table" in doc else "Namespace"
        items = doc.get(key) or []
        names = [i["name"] if isinstance(i, dict) else i for i in items]
    elif ctype.startswith(XML):
        root = ET.fromstring(body)
        names = [e.get("name") or e.text for e in root]
    elif ctype.startswith(PROTOBUF):
        names = [v.decode() for _, v in rest_codec.pb_fields(body)]
    else:
        names = body.decode().splitlines()
    return ("listing", sorted(norm.text(n) for n in names if norm.ours(n)))


def _shape(body, ctype):
    if ctype.startswith(JSON):
        doc = json.loads(body)
        return ("json keys", sorted(doc) if isinstance(doc, dict) else type(doc).__name__)
    if ctype.startswith(XML):
        root = ET.fromstring(body)
        return ("xml", root.tag, sorted(root.attrib), sorted({c.tag for c in root}))
    if ctype.startswith(PROTOBUF):
        return ("pb fields", sorted({n for n, _ in rest_codec.pb_fields(body)}))
    first = body.split(b" ", 1)[0].decode("utf-8", "replace")
    return ("text", BUILD_FLAVOUR.sub("", first), body.count(b"["))


def _error_body(body, ctype, norm):
    text = body.decode("utf-8", "replace")
    if ctype and ctype.startswith(JSON) and text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
            return ("error json", doc.get("message"), doc.get("status"))
        except ValueError:
            pass
    return ("error", HEX_ID.sub("-<hex>", norm.text(text.split("\n", 1)[0].strip())))


def normalise_answer(call, status, headers, body, norm):
    ctype = _content_type(headers)
    out = [status, ctype]
    location = headers.get("location")
    if location:
        path = urllib.parse.urlparse(location).path
        out.append(("location", norm.text(re.sub(r"/scanner/[^/]+$", "/scanner/<id>", path))))
    if "x-timestamp" in headers:
        out.append(("x-timestamp", norm.ts(int(headers["x-timestamp"]))))
    for name in ("x-row", "x-column"):
        if name in headers:
            out.append((name, headers[name]))
    out.append(_body(call, status, ctype, body, norm))
    return tuple(out)


def _body(call, status, ctype, body, norm):
    if not body:
        return None
    if status >= 300:
        return _error_body(body, ctype, norm)
    ctype = ctype or ""
    first = call.path[0] if call.path else ""
    try:
        if first in SHAPE_ONLY:
            return _shape(body, ctype)
        if call.path in ([""], ["namespaces"]):
            return _listing(call, body, ctype, norm)
        cellset_kind = (len(call.path) >= 2 and not isinstance(call.path[0], str)
                        and call.path[1] not in ("schema", "regions", "exists"))
        if ctype.startswith(OCTET):
            return ("octet", body)
        if cellset_kind and ctype.split(";")[0] in (XML, JSON, PROTOBUF):
            encoding = ctype.split(";")[0]
            stream = encoding == PROTOBUF and str(call.path[-1]).endswith("*")
            rows = (rest_codec.decode_scan_stream(body) if stream
                    else rest_codec.decode_cellset(body, encoding))
            return ("cells", norm.cells(rows))
        if ctype.startswith(JSON):
            return ("json", norm.tree(json.loads(body)))
        if ctype.startswith(XML):
            return ("xml", norm.xml(ET.fromstring(body)))
        if ctype.startswith(PROTOBUF):
            return ("pb", norm.pb(body))
    except (ValueError, ET.ParseError, KeyError, UnicodeDecodeError) as e:
        return ("undecodable", type(e).__name__, body[:200])
    return ("text", norm.text(body.decode("utf-8", "surrogateescape")))


# ------------------------------------------------------------------------------ running


class Session:
    """One target while it runs one sequence: its names, clock and scanner ids."""

    def __init__(self, target, names):
        self.target, self.names = target, names
        self.clock = Clock()
        self.norm = RestNormaliser(names, self.clock)
        self.scanner_ids = {}

    def send(self, call):
        url = _url(call, self.names, self.scanner_ids)
        ctype, body = encode_body(call.body, self.names)
        headers = dict(call.headers)
        if call.accept:
            headers["Accept"] = call.accept
        if ctype:
            headers["Content-Type"] = ctype
        start = now_ms()
        try:
            status, resp_headers, resp_body = self.target.request(call.method, url, headers, body)
        except (OSError, http.client.HTTPException) as e:
            self.clock.record(start, now_ms())
            return Err(("transport", type(e).__name__)), e
        self.clock.record(start, now_ms())
        if call.opens_scanner is not None and status == 201 and "location" in resp_headers:
            self.scanner_ids[call.opens_scanner] = resp_headers["location"].rsplit("/", 1)[-1]
        raw = (status, resp_headers, resp_body)
        return normalise_answer(call, status, resp_headers, resp_body, self.norm), raw


class CallResult:
    def __init__(self, index, call, a, b, raw_a, raw_b):
        self.index, self.call, self.a, self.b = index, call, a, b
        self.raw_a, self.raw_b = raw_a, raw_b

    @property
    def agree(self):
        return self.a == self.b

    @property
    def cause(self):
        """The endpoint, both statuses and which part differs (groups like divergences)."""
        sa = self.a[0] if not isinstance(self.a, Err) else repr(self.a)
        sb = self.b[0] if not isinstance(self.b, Err) else repr(self.b)
        part = ""
        if not isinstance(self.a, Err) and not isinstance(self.b, Err):
            labels = ["status", "content-type"] + [
                p[0] if isinstance(p, tuple) and p and isinstance(p[0], str) else "body"
                for p in self.a[2:]]
            if len(self.a) != len(self.b):
                part = "headers"
            else:
                part = next((labels[i] for i, (x, y) in enumerate(zip(self.a, self.b)) if x != y),
                            "")
        return (self.call.label, str(sa), str(sb)) + ((part,) if part else ())


def _wait_past(ms):
    while now_ms() < ms + 2:
        time.sleep(0.0005)


def run_sequence(calls, targets, names_pair, log=None, stop=None, clean=True):
    """Runs calls on both targets (A with names_pair[0], B with names_pair[1]); [CallResult]."""
    sa, sb = (Session(t, n) for t, n in zip(targets, names_pair))
    results = []
    last = now_ms()
    try:
        for i, call in enumerate(calls):
            _wait_past(last)
            a, raw_a = sa.send(call)
            b, raw_b = sb.send(call)
            last = now_ms()
            result = CallResult(i, call, a, b, raw_a, raw_b)
            results.append(result)
            if log:
                log(result)
            if stop and stop(result):
                break
    finally:
        if clean:
            for t, n in zip(targets, names_pair):
                cleanup(t, n)
    return results


def cleanup(target, names):
    """Drops the sequence's tables and namespaces (best effort, not compared)."""
    try:
        status, _, body = target.request("GET", "/", {"Accept": JSON})
        tables = [t["name"] for t in json.loads(body).get("table", [])] if status == 200 else []
        status, _, body = target.request("GET", "/namespaces", {"Accept": JSON})
        spaces = [n for n in json.loads(body).get("Namespace", []) if names.prefix in n] \
            if status == 200 else []
        for ns in spaces:
            status, _, body = target.request("GET", "/namespaces/%s/tables" % ns,
                                             {"Accept": JSON})
            if status == 200:
                tables += [ns + ":" + t["name"] for t in json.loads(body).get("table", [])]
        for name in tables:
            if names.prefix in name:
                target.request("DELETE", "/%s/schema" % urllib.parse.quote(name, safe=":"), {})
        for ns in spaces:
            target.request("DELETE", "/namespaces/%s" % ns, {})
    except (OSError, ValueError, http.client.HTTPException):
        pass


def describe(result, width=400):
    lines = ["#%d %s %r" % (result.index, "==" if result.agree else "!=", result.call),
             "    A: " + repr(result.a)[:width], "    B: " + repr(result.b)[:width]]
    if not result.agree and len(result.cause) > 3:
        lines.append("    differs at: " + result.cause[3])
    return "\n".join(lines)
