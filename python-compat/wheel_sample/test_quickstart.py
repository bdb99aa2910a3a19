# The README's first example, run by scripts/package.sh in a fresh venv holding only the wheel.
def test_put_then_get(hbase_connection):
    hbase_connection.create_table("users", {"info": dict(max_versions=3)})
    users = hbase_connection.table("users")
    users.put(b"alice", {b"info:email": b"alice@example.com"})
    assert users.row(b"alice") == {b"info:email": b"alice@example.com"}
    assert [key for key, _ in users.scan(row_prefix=b"al")] == [b"alice"]
