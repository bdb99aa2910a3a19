"""docs/happybase-calls.md against happybase and the server: every example row is run and the
call log must show exactly the Thrift calls the row lists, and the table of what each operation
name matches must be the server's own (GET /control/methods), so the document cannot drift."""

import re

import pytest
from controls_util import controlled  # noqa: F401 (fixture)

import hbcompat

DOC = hbcompat.HERE.parent / "docs" / "happybase-calls.md"
CODE = re.compile(r"`([^`]+)`")


def doc_tables():
    """The document's two tables as lists of rows (each a list of cells)."""
    tables, current = [], None
    for line in DOC.read_text().splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if set("".join(cells)) <= set("- "):
            continue  # the header's rule
        if current is None:
            current = []
            tables.append(current)  # its first row is the header
        else:
            current.append(cells)
    return tables


def names(cell):
    """The code spans of a cell ("none" for no calls)."""
    return [] if cell == "none" else CODE.findall(cell)


@pytest.fixture
def examples():
    calls, matches = doc_tables()
    return calls, matches


def test_every_example_makes_exactly_the_calls_the_document_lists(controlled, examples):
    if hbcompat.external_target() is not None:
        pytest.skip(hbcompat.RESTART_SKIP_REASON)
    rows, _ = examples
    conn = controlled.happybase()
    conn_090 = controlled.happybase(compat="0.90")
    conn.create_table("t", {"f": {}})
    table = conn.table("t")
    table.put(b"r1", {b"f:a": b"1"})
    table.put(b"r2", {b"f:a": b"2"})
    calls = controlled.controls.calls
    scope = {"conn": conn, "conn_090": conn_090, "table": table}
    mismatches = []
    for _, example, listed in rows:
        (code,) = names(example)
        mark = calls.mark()
        exec(compile(code, "<%s>" % code, "exec"), scope)
        made = [c["method"] for c in calls.list(since=mark)]
        if made != names(listed):
            mismatches.append("%s: the document lists %s, happybase made %s" % (
                code, names(listed) or "none", made or "none"))
    assert not mismatches, "\n".join(mismatches)


def test_what_each_operation_matches_is_the_servers_table(controlled, examples):
    rows, matches = examples
    server = controlled.controls.method_names()["happybase"]
    documented = {names(op)[0]: names(methods) for op, methods in matches}
    assert documented == server
    # Every operation has an example, and an example's calls are its operation's own calls or
    # the calls of another operation it runs first (a look-up).
    with_examples = {names(op)[0] for op, _, _ in rows}
    assert set(server) <= with_examples
    everything = {m for methods in server.values() for m in methods}
    for op, example, listed in rows:
        for method in names(listed):
            assert method in everything, (example, method)


def test_an_operation_finds_a_scans_round_trips_and_a_fault_on_it_fires(controlled):
    conn = controlled.happybase()
    conn.create_table("scanned", {"f": {}})
    table = conn.table("scanned")
    table.put(b"r", {b"f:a": b"1"})
    faults, calls = controlled.controls.faults, controlled.controls.calls
    mark = calls.mark()
    assert list(table.scan()) == [(b"r", {b"f:a": b"1"})]
    found = calls.list(since=mark, method="Table.scan", table="scanned")
    assert [c["method"] for c in found] == ["scannerOpenWithScan", "scannerGetList",
                                            "scannerGetList", "scannerClose"]
    # A fault naming a Thrift method happybase's put never calls does not fire; the operation's
    # name does.
    import Hbase_thrift

    with faults.inject(method="mutateRow", table="scanned"):
        table.put(b"r", {b"f:a": b"2"})
    with faults.inject(method="Table.put", table="scanned", times=1):
        with pytest.raises(Hbase_thrift.IOError):
            table.put(b"r", {b"f:a": b"3"})
    assert table.row(b"r") == {b"f:a": b"2"}
