"""Snapshots of hbase-emulator's store, through its test controls (server flag --test-controls).

    from hbase_emulator.snapshots import Snapshots
    snaps = Snapshots("http://127.0.0.1:9095")     # the server's admin port
    snaps.take("seeded")                           # every table and namespace
    snaps.take("users-only", tables=["users"])     # chosen tables
    ...                                            # a test writes, deletes, drops
    snaps.restore("seeded")                        # exactly the cells and schemas taken
    snaps.clone("users-only", "users_copy")        # HBase's clone_snapshot
    snaps.list(); snaps.delete("users-only")

A restore brings back every version, delete marker, family setting and region boundary; a
whole-store snapshot also drops tables and namespaces made after it. In pytest, the
`hbase_snapshot` marker of the hbase_emulator plugin takes a snapshot once per session and
restores it before each marked test (snapshot_plugin.py).
"""

# One exception for every control: .status (HTTP) and .message (the server's reason, naming
# HBase's exception class, e.g. org.apache.hadoop.hbase.snapshot.SnapshotExistsException).
from .controls import ControlError  # noqa: F401  (re-exported)
from .controls import request


class Snapshots:
    """The snapshot controls of one server, by its admin URL ("http://HOST:PORT")."""

    def __init__(self, admin_url, timeout=60):
        self.admin_url = admin_url
        self.timeout = timeout

    @classmethod
    def of(cls, controls):
        """The snapshot controls of the server a hbase_emulator.controls.Controls reaches."""
        return cls(controls.base, timeout=max(controls.timeout, 60))

    def _post(self, path, body):
        return request(self.admin_url, "POST", path, body=body, timeout=self.timeout)

    def take(self, name, tables=None):
        """Snapshot `tables` ("t" or "ns:t"), or the whole store when None. Returns its
        description (name, tables, created_ms, whole_store, cells, bytes, took_ms)."""
        return self._post("/control/snapshot", {"name": name, "tables": list(tables or [])})

    def restore(self, name, hbase_rules=False):
        """Bring the snapshot's tables back (hbase_rules: refuse enabled tables, as HBase's
        restore_snapshot does). Returns the description with took_ms."""
        return self._post("/control/restore_snapshot", {"name": name, "hbase_rules": hbase_rules})

    def clone(self, name, table):
        """A new table `table` with the cells and schema of a one-table snapshot."""
        return self._post("/control/clone_snapshot", {"name": name, "table": table})

    def delete(self, name):
        return self._post("/control/delete_snapshot", {"name": name})

    def list(self):
        """Every snapshot's description, sorted by name."""
        return request(self.admin_url, "GET", "/control/snapshots", timeout=self.timeout)["snapshots"]

    def names(self):
        return [s["name"] for s in self.list()]
