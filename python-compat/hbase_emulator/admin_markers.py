"""Delete markers of a table, read from the emulator's admin API, for an export that carries them.

HBase's Thrift gateways offer no raw scan, so a Thrift client never sees a delete marker. The
emulator's admin door (default port 9095) pages raw cells: `GET /api/tables/<name>/rows
?markers=only&cursor=...` answers the marker cells only, row by row. Against a server without
that API (HBase's own gateway: its port 9095 is the Thrift server's info page) the export stops
with one line saying so.

Markers are yielded as (row, [(row, family, qualifier, timestamp, type code, b"")]), rows in
key order, each row once even when a page boundary cuts it.
"""

import json
import socket
import urllib.error
import urllib.parse
import urllib.request

from . import bytes_text, hbase_result
from .cli import UserError

DEFAULT_PORT = 9095
_CODES = {name: code for code, name in hbase_result.TYPE_NAMES.items()}
# A page holds at most the server's admin_page_cells cells; asking for more rows costs nothing.
_ROWS_PER_PAGE = 100000


class MarkerSource:
    def __init__(self, host, port, timeout_s=60.0):
        self.host, self.port, self.timeout_s = host, port, timeout_s
        self.where = "%s:%d" % (host, port)
        # The admin door is the server's own, next to its Thrift port: never through a proxy
        # that http_proxy may name.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _no_api(self, why):
        return UserError("--include-deleted reads delete markers from the emulator's admin API "
                         "(HBase's Thrift gateways have no raw scan), and %s %s; give the "
                         "emulator's admin port with --admin-port" % (self.where, why))

    def _page(self, table, cursor):
        query = {"markers": "only", "limit": str(_ROWS_PER_PAGE)}
        if cursor:
            query["cursor"] = cursor
        url = "http://%s/api/tables/%s/rows?%s" % (
            self.where, urllib.parse.quote(table, safe=":"), urllib.parse.urlencode(query))
        try:
            with self._opener.open(url, timeout=self.timeout_s) as answer:
                body = answer.read()
        except urllib.error.HTTPError as e:
            raise self._no_api("answered HTTP %d to %s" % (e.code, url.split("?")[0]))
        except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
            reason = getattr(e, "reason", e)
            raise self._no_api("does not answer (%s)" % (getattr(reason, "strerror", None) or reason))
        try:
            page = json.loads(body)
        except ValueError:
            page = None
        if not isinstance(page, dict) or not isinstance(page.get("rows"), list):
            raise self._no_api("does not answer as that API does")
        return page

    def rows(self, table):
        """Yields (row, marker cells) of `table` in row order."""
        cursor = None
        row, cells = None, []
        while True:
            page = self._page(table, cursor)
            for entry in page["rows"]:
                key = bytes.fromhex(entry["key_bytes"])
                if len(key) != entry["key_length"]:
                    raise UserError("table %s: a row with delete markers has a key of %d bytes, "
                                    "longer than the admin API shows (admin_value_bytes)"
                                    % (table, entry["key_length"]))
                if key != row:
                    if cells:
                        yield row, cells
                    row, cells = key, []
                for c in entry["cells"]:
                    code = _CODES.get(c["type"])
                    if code is None or code == hbase_result.PUT:
                        continue  # a server that ignores markers=only sends puts too
                    if "qualifier_length" in c:
                        raise UserError("table %s, row %s: a delete marker's qualifier of %d bytes "
                                        "is longer than the admin API shows (admin_value_bytes)"
                                        % (table, bytes_text.to_string_binary(key),
                                           c["qualifier_length"]))
                    cells.append((key, bytes_text.to_bytes_binary(c["family"]),
                                  bytes_text.to_bytes_binary(c["qualifier"]), c["timestamp"],
                                  code, b""))
            cursor = page.get("next_cursor")
            if not cursor:
                break
        if cells:
            yield row, cells
