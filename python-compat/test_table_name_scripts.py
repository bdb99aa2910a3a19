"""Table and namespace names in any script: HBase checks each Java char with
Character.isLetterOrDigit, so CJK, Cyrillic or Arabic letters and digits are legal, while
punctuation of those scripts and letters outside the BMP (two UTF-16 surrogates) are not.
Both cases ran against HBase 2.6.1; the file runs unchanged against it (HBASE_THRIFT2_TARGET).
"""

import uuid

import pytest
from thrift.Thrift import TApplicationException

from hbase2.ttypes import TColumnValue, TGet, TNamespaceDescriptor, TPut


def test_a_cjk_table_in_a_cjk_namespace_is_created_and_written(thrift2_client, thrift2_table):
    ns = "hbc_%s_名前" % uuid.uuid4().hex[:8]
    thrift2_client.createNamespace(TNamespaceDescriptor(name=ns))
    try:
        table = thrift2_table(tag="表格_ж٣", ns=ns)
        thrift2_client.put(table, TPut(row=b"r", columnValues=[TColumnValue(b"f", b"q", b"v")]))
        assert thrift2_client.get(table, TGet(row=b"r")).columnValues[0].value == b"v"
        assert thrift2_client.tableExists(thrift2_client.getTableDescriptor(
            _name(table)).tableName)
    finally:
        for name in list(thrift2_client.getTableNamesByNamespace(ns)):
            thrift2_client.disableTable(name)
            thrift2_client.deleteTable(name)
        thrift2_client.deleteNamespace(ns)


def _name(full):
    from hbase2.ttypes import TTableName

    ns, _, qualifier = full.partition(b":")
    return TTableName(ns=ns, qualifier=qualifier)


@pytest.mark.parametrize("qualifier", ["表、".encode(), "hbc_\U00020000".encode(), b"hbc_\xff"],
                         ids=["cjk-comma", "beyond-bmp", "not-utf8"])
def test_a_non_letter_of_any_script_is_an_illegal_name(thrift2_client, qualifier):
    from hbase2.ttypes import TTableName

    with pytest.raises(TApplicationException) as e:
        thrift2_client.tableExists(TTableName(ns=b"default", qualifier=qualifier))
    assert e.value.type == TApplicationException.INTERNAL_ERROR
    assert thrift2_client.tableExists(TTableName(ns=b"default", qualifier=b"hbc_absent")) is False
