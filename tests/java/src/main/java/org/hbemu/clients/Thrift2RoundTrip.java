package org.hbemu.clients;

import static org.hbemu.clients.Check.bb;
import static org.hbemu.clients.Check.bytes;
import static org.hbemu.clients.Check.eq;
import static org.hbemu.clients.Check.firstLine;
import static org.hbemu.clients.Check.isTrue;
import static org.hbemu.clients.Check.longOf;
import static org.hbemu.clients.Check.raises;
import static org.hbemu.clients.Check.str;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.thrift2.generated.TAppend;
import org.apache.hadoop.hbase.thrift2.generated.TColumn;
import org.apache.hadoop.hbase.thrift2.generated.TColumnFamilyDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TColumnIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TCompareOp;
import org.apache.hadoop.hbase.thrift2.generated.TDelete;
import org.apache.hadoop.hbase.thrift2.generated.TDeleteType;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TIOError;
import org.apache.hadoop.hbase.thrift2.generated.TIllegalArgument;
import org.apache.hadoop.hbase.thrift2.generated.TIncrement;
import org.apache.hadoop.hbase.thrift2.generated.TMutation;
import org.apache.hadoop.hbase.thrift2.generated.TNamespaceDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TRowMutations;
import org.apache.hadoop.hbase.thrift2.generated.TScan;
import org.apache.hadoop.hbase.thrift2.generated.TTableDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;
import org.apache.hadoop.hbase.thrift2.generated.TThriftServerType;
import org.apache.thrift.TApplicationException;

/** Thrift2 (service THBaseService) round trips with HBase's generated THBaseService.Client. */
final class Thrift2RoundTrip {
  private final THBaseService.Client c;
  private final String ns;
  private final String qualifier;
  private final TTableName name;
  private final ByteBuffer t;  // "ns:qualifier", as the data calls take it

  Thrift2RoundTrip(Wire wire, String ns, String qualifier) {
    this.c = new THBaseService.Client(wire.protocol);
    this.ns = ns;
    this.qualifier = qualifier;
    this.name = new TTableName().setNs(bytes(ns)).setQualifier(bytes(qualifier));
    this.t = bb(ns + ":" + qualifier);
  }

  void run() throws Exception {
    eq("getThriftServerType", TThriftServerType.TWO, c.getThriftServerType());
    createAndDescribe();
    try {
      putGetScan();
      deletes();
      countersAndConditionalPut();
      errors();
    } finally {
      dropTableAndNamespace();
    }
  }

  private static String full(TTableName n) {
    return str(n.getNs()) + ":" + str(n.getQualifier());
  }

  private static TColumnValue cell(String family, String qualifier, String value, long ts) {
    return new TColumnValue(bb(family), bb(qualifier), bb(value)).setTimestamp(ts);
  }

  private static TColumnValue cell(String family, String qualifier, String value) {
    return new TColumnValue(bb(family), bb(qualifier), bb(value));
  }

  /** "family:qualifier=value@ts" for every cell of a result, in result order. */
  private static List<String> cells(TResult r) {
    List<String> out = new ArrayList<>();
    for (TColumnValue v : r.getColumnValues()) {
      out.add(str(v.getFamily()) + ":" + str(v.getQualifier()) + "=" + str(v.getValue()) + "@"
          + v.getTimestamp());
    }
    return out;
  }

  private static List<String> values(TResult r) {
    List<String> out = new ArrayList<>();
    for (TColumnValue v : r.getColumnValues()) out.add(str(v.getValue()));
    return out;
  }

  private List<String> rowsOf(List<TResult> results) {
    List<String> out = new ArrayList<>();
    for (TResult r : results) out.add(str(r.getRow()) + " " + cells(r));
    return out;
  }

  private void createAndDescribe() throws Exception {
    c.createNamespace(new TNamespaceDescriptor(ns));
    List<String> namespaces = c.listNamespaces();
    isTrue("listNamespaces has default, hbase and " + ns + ": " + namespaces,
        namespaces.containsAll(Arrays.asList("default", "hbase", ns)));
    eq("getNamespaceDescriptor.name", ns, c.getNamespaceDescriptor(ns).getName());

    TColumnFamilyDescriptor f = new TColumnFamilyDescriptor(bb("f")).setMaxVersions(5);
    TColumnFamilyDescriptor g = new TColumnFamilyDescriptor(bb("g"));
    c.createTable(new TTableDescriptor(name).setColumns(Arrays.asList(f, g)), null);

    eq("tableExists", true, c.tableExists(name));
    eq("isTableEnabled", true, c.isTableEnabled(name));
    eq("isTableDisabled", false, c.isTableDisabled(name));
    eq("isTableAvailable", true, c.isTableAvailable(name));
    TTableDescriptor desc = c.getTableDescriptor(name);
    eq("descriptor tableName", ns + ":" + qualifier, full(desc.getTableName()));
    eq("descriptor family count", 2, desc.getColumnsSize());
    eq("family 0 name", "f", str(desc.getColumns().get(0).getName()));
    eq("family 0 maxVersions", 5, desc.getColumns().get(0).getMaxVersions());
    eq("family 1 name", "g", str(desc.getColumns().get(1).getName()));
    eq("family 1 maxVersions (HBase default)", 1, desc.getColumns().get(1).getMaxVersions());

    List<String> listed = new ArrayList<>();
    for (TTableName n : c.getTableNamesByNamespace(ns)) listed.add(full(n));
    eq("getTableNamesByNamespace", Arrays.asList(ns + ":" + qualifier), listed);
    listed.clear();
    for (TTableName n : c.getTableNamesByPattern(ns + ":.*", false)) listed.add(full(n));
    eq("getTableNamesByPattern", Arrays.asList(ns + ":" + qualifier), listed);
    eq("getTableDescriptorsByNamespace size", 1, c.getTableDescriptorsByNamespace(ns).size());

    TIOError exists = raises("createTable of an existing table", TIOError.class,
        () -> c.createTable(new TTableDescriptor(name).setColumns(Arrays.asList(f)), null));
    // HBase's message is the master's remote exception: its class, message and stack trace.
    eq("TIOError.message first line",
        "org.apache.hadoop.hbase.TableExistsException: " + ns + ":" + qualifier,
        firstLine(exists.getMessage()));
    TIOError nsExists = raises("createNamespace of an existing namespace", TIOError.class,
        () -> c.createNamespace(new TNamespaceDescriptor(ns)));
    eq("TIOError.message first line",
        "org.apache.hadoop.hbase.NamespaceExistException: Namespace " + ns + " already exists",
        firstLine(nsExists.getMessage()));
  }

  private void putGetScan() throws Exception {
    c.put(t, new TPut(bb("r1"), Arrays.asList(cell("f", "a", "v1", 1), cell("f", "a", "v2", 2),
        cell("f", "a", "v3", 3), cell("g", "b", "gb", 7))));
    TResult r = c.get(t, new TGet(bb("r1")).setMaxVersions(3));
    eq("get row", "r1", str(r.getRow()));
    eq("get 3 versions", Arrays.asList("f:a=v3@3", "f:a=v2@2", "f:a=v1@1", "g:b=gb@7"), cells(r));
    eq("cell type (Put)", (byte) 4, r.getColumnValues().get(0).getType());
    eq("get newest by default", Arrays.asList("f:a=v3@3", "g:b=gb@7"),
        cells(c.get(t, new TGet(bb("r1")))));
    eq("get at timestamp 2", Arrays.asList("f:a=v2@2"),
        cells(c.get(t, new TGet(bb("r1")).setTimestamp(2))));
    eq("get one column", Arrays.asList("g:b=gb@7"),
        cells(c.get(t, new TGet(bb("r1")).setColumns(Arrays.asList(new TColumn(bb("g")))))));
    TResult none = c.get(t, new TGet(bb("nope")));
    eq("missing row: row unset", false, none.isSetRow());
    eq("missing row: no cells", 0, none.getColumnValuesSize());
    eq("exists", true, c.exists(t, new TGet(bb("r1"))));
    eq("exists of a missing row", false, c.exists(t, new TGet(bb("nope"))));

    c.putMultiple(t, Arrays.asList(
        new TPut(bb("r2"), Arrays.asList(cell("f", "a", "x"))).setTimestamp(10),
        new TPut(bb("r3"), Arrays.asList(cell("f", "a", "y"))).setTimestamp(10)));
    List<TResult> many = c.getMultiple(t, Arrays.asList(new TGet(bb("r3")), new TGet(bb("nope")),
        new TGet(bb("r2"))));
    eq("getMultiple", Arrays.asList("r3 [f:a=y@10]", "null []", "r2 [f:a=x@10]"), rowsOf(many));

    TScan scan = new TScan().setStartRow(bb("r1")).setStopRow(bb("r3")).setMaxVersions(2)
        .setColumns(Arrays.asList(new TColumn(bb("f"))));
    int id = c.openScanner(t, scan);
    eq("getScannerRows", Arrays.asList("r1 [f:a=v3@3, f:a=v2@2]", "r2 [f:a=x@10]"),
        rowsOf(c.getScannerRows(id, 10)));
    eq("getScannerRows after the end", 0, c.getScannerRows(id, 10).size());
    c.closeScanner(id);
    TIllegalArgument bad = raises("getScannerRows of a closed scanner", TIllegalArgument.class,
        () -> c.getScannerRows(id, 1));
    eq("TIllegalArgument.message", "Invalid scanner Id", bad.getMessage());

    List<String> reversed = rowsOf(c.getScannerResults(t,
        new TScan().setStartRow(bb("r3")).setReversed(true).setColumns(
            Arrays.asList(new TColumn(bb("f")))), 10));
    eq("getScannerResults reversed", Arrays.asList("r3 [f:a=y@10]", "r2 [f:a=x@10]",
        "r1 [f:a=v3@3]"), reversed);
  }

  private void deletes() throws Exception {
    TDelete oneVersion = new TDelete(bb("r1")).setDeleteType(TDeleteType.DELETE_COLUMN)
        .setColumns(Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("a")).setTimestamp(3)));
    c.deleteSingle(t, oneVersion);
    eq("after deleting version 3", Arrays.asList("v2", "v1"),
        values(c.get(t, new TGet(bb("r1")).setMaxVersions(3)
            .setColumns(Arrays.asList(new TColumn(bb("f")))))));
    c.deleteSingle(t, new TDelete(bb("r2")));
    eq("whole-row delete", false, c.get(t, new TGet(bb("r2"))).isSetRow());
    eq("deleteMultiple answers []", 0,
        c.deleteMultiple(t, Arrays.asList(new TDelete(bb("r3")))).size());
    eq("r3 after deleteMultiple", false, c.exists(t, new TGet(bb("r3"))));

    c.put(t, new TPut(bb("m"), Arrays.asList(cell("f", "b", "old"))));
    c.mutateRow(t, new TRowMutations(bb("m"), Arrays.asList(
        TMutation.put(new TPut(bb("m"), Arrays.asList(cell("f", "a", "new")))),
        TMutation.deleteSingle(new TDelete(bb("m")).setColumns(
            Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("b"))))))));
    eq("mutateRow put and delete", Arrays.asList("new"), values(c.get(t, new TGet(bb("m")))));
  }

  private void countersAndConditionalPut() throws Exception {
    TIncrement inc = new TIncrement(bb("n"),
        Arrays.asList(new TColumnIncrement(bb("f"), bb("c")).setAmount(5)));
    TResult r = c.increment(t, inc);
    eq("increment result", 5L, longOf(r.getColumnValues().get(0).getValue()));
    inc.getColumns().get(0).setAmount(-2);
    r = c.increment(t, inc);
    eq("increment result again", 3L, longOf(r.getColumnValues().get(0).getValue()));
    eq("counter as read", 3L, longOf(c.get(t, new TGet(bb("n")).setColumns(
        Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("c"))))).getColumnValues().get(0)
        .getValue()));

    c.append(t, new TAppend(bb("n"), Arrays.asList(cell("f", "s", "ab"))));
    r = c.append(t, new TAppend(bb("n"), Arrays.asList(cell("f", "s", "cd"))));
    eq("append result", Arrays.asList("abcd"), values(r));
    TIOError notLong = raises("increment of a 4-byte cell", TIOError.class,
        () -> c.increment(t, new TIncrement(bb("n"),
            Arrays.asList(new TColumnIncrement(bb("f"), bb("s"))))));
    Check.known("thrift2-not-a-long-message", "TIOError.message first line",
        "org.apache.hadoop.hbase.DoNotRetryIOException: Field is not a long, it's 4 bytes wide",
        firstLine(notLong.getMessage()));
    eq("TIOError.canRetry", false, notLong.isCanRetry());

    TPut p = new TPut(bb("n"), Arrays.asList(cell("f", "p", "1")));
    eq("checkAndPut with the wrong value", false,
        c.checkAndPut(t, bb("n"), bb("f"), bb("s"), bb("nope"), p));
    eq("checkAndPut with the current value", true,
        c.checkAndPut(t, bb("n"), bb("f"), bb("s"), bb("abcd"), p));
    eq("after checkAndPut", Arrays.asList("1"), values(c.get(t, new TGet(bb("n")).setColumns(
        Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("p")))))));
    eq("checkAndPut expecting absence of an existing cell", false,
        c.checkAndPut(t, bb("n"), bb("f"), bb("p"), null, p));

    TDelete dropP = new TDelete(bb("n")).setColumns(
        Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("p"))));
    eq("checkAndDelete with the wrong value", false,
        c.checkAndDelete(t, bb("n"), bb("f"), bb("p"), bb("2"), dropP));
    eq("checkAndDelete with the current value", true,
        c.checkAndDelete(t, bb("n"), bb("f"), bb("p"), bb("1"), dropP));
    eq("f:p after checkAndDelete", 0, c.get(t, new TGet(bb("n")).setColumns(
        Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("p"))))).getColumnValuesSize());
    TRowMutations mark = new TRowMutations(bb("n"), Arrays.asList(
        TMutation.put(new TPut(bb("n"), Arrays.asList(cell("f", "m", "marked"))))));
    // EQUAL only: the emulator's checkAndMutate answers TIOError for the other operators so far.
    eq("checkAndMutate EQUAL with the wrong value", false,
        c.checkAndMutate(t, bb("n"), bb("f"), bb("s"), TCompareOp.EQUAL, bb("abcc"), mark));
    eq("checkAndMutate EQUAL with the current value", true,
        c.checkAndMutate(t, bb("n"), bb("f"), bb("s"), TCompareOp.EQUAL, bb("abcd"), mark));
    eq("after checkAndMutate", Arrays.asList("marked"), values(c.get(t, new TGet(bb("n"))
        .setColumns(Arrays.asList(new TColumn(bb("f")).setQualifier(bytes("m")))))));
  }

  private void errors() throws Exception {
    String missing = qualifier + "_missing";  // default namespace: the message is the bare name
    TIOError notFound = raises("get on a missing table", TIOError.class,
        () -> c.get(bb(missing), new TGet(bb("r"))));
    eq("TIOError.message", missing, notFound.getMessage());
    eq("TIOError.canRetry", false, notFound.isCanRetry());

    TIOError versions = raises("get with maxVersions 0", TIOError.class,
        () -> c.get(t, new TGet(bb("r1")).setMaxVersions(0)));
    Check.known("thrift2-versions-message", "TIOError.message", "versions must be positive",
        versions.getMessage());

    TApplicationException empty = raises("put without columns", TApplicationException.class,
        () -> c.put(t, new TPut(bb("r"), new ArrayList<>())));
    eq("TApplicationException.type", TApplicationException.INTERNAL_ERROR, empty.getType());
    eq("still usable after the error", true, c.exists(t, new TGet(bb("r1"))));
  }

  private void dropTableAndNamespace() throws Exception {
    c.disableTable(name);
    eq("isTableDisabled after disableTable", true, c.isTableDisabled(name));
    eq("isTableAvailable of a disabled table", false, c.isTableAvailable(name));
    c.deleteTable(name);
    eq("tableExists after deleteTable", false, c.tableExists(name));
    c.deleteNamespace(ns);
    isTrue("listNamespaces no longer has " + ns, !c.listNamespaces().contains(ns));
  }
}
