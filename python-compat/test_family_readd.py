"""A column family removed and added again keeps every write made after it came back: through a
removal that runs while the family is added again, and through a removal cut short by kill -9
and finished at the next start. (HBase's add waits for the table's running removal; so does the
emulator's.)

These tests start their own servers, so they skip when HBASE_THRIFT_TARGET is set.
"""

import threading
import time

import hbcompat

ROWS = 60000  # enough cells in the removed family that its sweep takes a while


def open_thrift2(server):
    from hbase2 import THBaseService

    return hbcompat.open_raw_client(server.host, server.thrift2_port, THBaseService,
                                    timeout_ms=120000)


def make_table(client, name):
    from hbase2.ttypes import TColumnFamilyDescriptor, TTableDescriptor, TTableName

    table = TTableName(qualifier=name)
    columns = [TColumnFamilyDescriptor(name=b"f"), TColumnFamilyDescriptor(name=b"g")]
    client.createTable(TTableDescriptor(tableName=table, columns=columns), None)
    return table


def fill(client, name):
    from hbase2.ttypes import TColumnValue, TPut

    for start in range(0, ROWS, 2000):
        client.putMultiple(name, [
            TPut(row=b"r%06d" % i, columnValues=[TColumnValue(b"f", b"q", b"old"),
                                                 TColumnValue(b"g", b"q", b"old")])
            for i in range(start, start + 2000)])


def put(client, name, row, family, value):
    from hbase2.ttypes import TColumnValue, TPut

    client.put(name, TPut(row=row, columnValues=[TColumnValue(family, b"q", value)]))


def read(client, name, row):
    from hbase2.ttypes import TGet

    result = client.get(name, TGet(row=row))
    return sorted((c.family, c.qualifier, c.value) for c in result.columnValues or [])


def add_family_again(client, table):
    """Adds g as soon as its removal has begun (before that it still exists)."""
    from hbase2.ttypes import TColumnFamilyDescriptor
    from hbase2.ttypes import TIOError

    deadline = time.monotonic() + 60
    while True:
        try:
            client.addColumnFamily(table, TColumnFamilyDescriptor(name=b"g"))
            return
        except TIOError as e:
            message = e.message if isinstance(e.message, str) else (e.message or b"").decode()
            if "already exists" not in message:
                raise
            assert time.monotonic() < deadline, "g never went away"
            time.sleep(0.001)


def test_family_added_while_its_removal_runs_keeps_the_new_writes(server_factory, tmp_path):
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir)
    client, transport = open_thrift2(server)
    table = make_table(client, b"readd")
    fill(client, b"readd")

    remover, remover_transport = open_thrift2(server)
    errors = []

    def remove():
        try:
            remover.deleteColumnFamily(table, b"g")
        except Exception as e:  # reported below
            errors.append(e)

    thread = threading.Thread(target=remove)
    thread.start()
    add_family_again(client, table)
    # The last row: a sweep still running when the family came back would reach it last.
    last = b"r%06d" % (ROWS - 1)
    put(client, b"readd", last, b"g", b"new")
    put(client, b"readd", b"zzz", b"g", b"new")
    thread.join()
    assert errors == []
    expected_last = [(b"f", b"q", b"old"), (b"g", b"q", b"new")]
    assert read(client, b"readd", last) == expected_last
    assert read(client, b"readd", b"zzz") == [(b"g", b"q", b"new")]
    assert read(client, b"readd", b"r000000") == [(b"f", b"q", b"old")]
    remover_transport.close()
    transport.close()
    assert server.stop() == 0

    server = server_factory(data_dir=data_dir)
    client, transport = open_thrift2(server)
    assert read(client, b"readd", last) == expected_last
    assert read(client, b"readd", b"zzz") == [(b"g", b"q", b"new")]
    transport.close()


def test_removal_cut_by_kill_finishes_at_start_and_the_family_comes_back_empty(
        server_factory, tmp_path):
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir)
    client, transport = open_thrift2(server)
    table = make_table(client, b"killed")
    fill(client, b"killed")

    remover, _ = open_thrift2(server)
    thread = threading.Thread(target=lambda: _ignore_errors(remover.deleteColumnFamily,
                                                            table, b"g"))
    thread.start()
    time.sleep(0.05)  # the removal is under way (or done: either way the start must cope)
    server.kill()
    thread.join()
    transport.close()

    server = server_factory(data_dir=data_dir)
    client, transport = open_thrift2(server)
    from hbase2.ttypes import TColumnFamilyDescriptor

    client.addColumnFamily(table, TColumnFamilyDescriptor(name=b"g"))
    assert read(client, b"killed", b"r000123") == [(b"f", b"q", b"old")]
    put(client, b"killed", b"r000123", b"g", b"new")
    put(client, b"killed", b"r%06d" % (ROWS - 1), b"g", b"new")
    transport.close()
    assert server.stop() == 0

    server = server_factory(data_dir=data_dir)
    client, transport = open_thrift2(server)
    assert read(client, b"killed", b"r000123") == [(b"f", b"q", b"old"), (b"g", b"q", b"new")]
    assert read(client, b"killed", b"r%06d" % (ROWS - 1)) == [(b"f", b"q", b"old"),
                                                              (b"g", b"q", b"new")]
    transport.close()


def _ignore_errors(call, *args):
    try:
        call(*args)
    except Exception:  # the server was killed mid-call
        pass
