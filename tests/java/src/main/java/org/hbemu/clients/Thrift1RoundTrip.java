package org.hbemu.clients;

import static org.hbemu.clients.Check.bb;
import static org.hbemu.clients.Check.eq;
import static org.hbemu.clients.Check.firstLine;
import static org.hbemu.clients.Check.isTrue;
import static org.hbemu.clients.Check.longBytes;
import static org.hbemu.clients.Check.longOf;
import static org.hbemu.clients.Check.raises;
import static org.hbemu.clients.Check.str;
import static org.hbemu.clients.Check.strs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.thrift.generated.AlreadyExists;
import org.apache.hadoop.hbase.thrift.generated.BatchMutation;
import org.apache.hadoop.hbase.thrift.generated.ColumnDescriptor;
import org.apache.hadoop.hbase.thrift.generated.Hbase;
import org.apache.hadoop.hbase.thrift.generated.IOError;
import org.apache.hadoop.hbase.thrift.generated.IllegalArgument;
import org.apache.hadoop.hbase.thrift.generated.Mutation;
import org.apache.hadoop.hbase.thrift.generated.TAppend;
import org.apache.hadoop.hbase.thrift.generated.TCell;
import org.apache.hadoop.hbase.thrift.generated.TIncrement;
import org.apache.hadoop.hbase.thrift.generated.TRowResult;
import org.apache.hadoop.hbase.thrift.generated.TScan;
import org.apache.hadoop.hbase.thrift.generated.TThriftServerType;

/** Thrift1 (service Hbase) round trips with HBase's generated Hbase.Client. */
final class Thrift1RoundTrip {
  private static final Map<ByteBuffer, ByteBuffer> NO_ATTRS = Collections.emptyMap();

  private final Hbase.Client c;
  private final String table;
  private final ByteBuffer t;

  Thrift1RoundTrip(Wire wire, String table) {
    this.c = new Hbase.Client(wire.protocol);
    this.table = table;
    this.t = bb(table);
  }

  void run() throws Exception {
    eq("getThriftServerType", TThriftServerType.ONE, c.getThriftServerType());
    createAndDescribe();
    try {
      versionsAndScans();
      countersAndConditionalPut();
      deletes();
      errors();
    } finally {
      dropTable();
    }
  }

  private static Mutation put(String column, String value) {
    return new Mutation(false, bb(column), bb(value), true);
  }

  private static List<String> values(List<TCell> cells) {
    List<String> out = new ArrayList<>();
    for (TCell cell : cells) out.add(str(cell.getValue()));
    return out;
  }

  private static List<Long> timestamps(List<TCell> cells) {
    List<Long> out = new ArrayList<>();
    for (TCell cell : cells) out.add(cell.getTimestamp());
    return out;
  }

  /** column -> value of one TRowResult, sorted by column name. */
  private static Map<String, String> columns(TRowResult row) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<ByteBuffer, TCell> e : row.getColumns().entrySet()) {
      out.put(str(e.getKey()), str(e.getValue().getValue()));
    }
    return out;
  }

  private void createAndDescribe() throws Exception {
    ColumnDescriptor f = new ColumnDescriptor();  // the IDL defaults, as a Java client sends them
    f.setName(bb("f:"));
    ColumnDescriptor g = new ColumnDescriptor();
    g.setName(bb("g:"));
    g.setMaxVersions(1);
    c.createTable(t, Arrays.asList(f, g));

    isTrue("getTableNames lists " + table, strs(c.getTableNames()).contains(table));
    eq("getTableNamesWithIsTableEnabled[" + table + "]", Boolean.TRUE,
        c.getTableNamesWithIsTableEnabled().get(t));
    eq("isTableEnabled", true, c.isTableEnabled(t));

    Map<ByteBuffer, ColumnDescriptor> descs = c.getColumnDescriptors(t);
    List<String> names = new ArrayList<>(strs(new ArrayList<>(descs.keySet())));
    Collections.sort(names);
    eq("getColumnDescriptors keys", Arrays.asList("f:", "g:"), names);
    ColumnDescriptor fd = descs.get(bb("f:"));
    eq("f: name", "f:", str(fd.getName()));
    eq("f: maxVersions", 3, fd.getMaxVersions());
    eq("f: compression", "NONE", fd.getCompression());
    eq("f: inMemory", false, fd.isInMemory());
    eq("f: bloomFilterType", "NONE", fd.getBloomFilterType());
    eq("f: blockCacheEnabled", false, fd.isBlockCacheEnabled());
    eq("f: timeToLive", Integer.MAX_VALUE, fd.getTimeToLive());
    eq("g: maxVersions", 1, descs.get(bb("g:")).getMaxVersions());

    AlreadyExists exists = raises("createTable of an existing table", AlreadyExists.class,
        () -> c.createTable(t, Arrays.asList(f)));
    eq("AlreadyExists.message", "table name already in use", exists.getMessage());
  }

  private void versionsAndScans() throws Exception {
    for (int ts = 1; ts <= 3; ts++) {
      c.mutateRowTs(t, bb("r1"), Arrays.asList(put("f:a", "v" + ts)), ts, NO_ATTRS);
    }
    List<TCell> cells = c.getVer(t, bb("r1"), bb("f:a"), 10, NO_ATTRS);
    eq("getVer values", Arrays.asList("v3", "v2", "v1"), values(cells));
    eq("getVer timestamps", Arrays.asList(3L, 2L, 1L), timestamps(cells));
    eq("getVer 2 versions", Arrays.asList("v3", "v2"),
        values(c.getVer(t, bb("r1"), bb("f:a"), 2, NO_ATTRS)));
    cells = c.getVerTs(t, bb("r1"), bb("f:a"), 3, 10, NO_ATTRS);  // ts < 3
    eq("getVerTs values", Arrays.asList("v2", "v1"), values(cells));
    // g keeps one version.
    c.mutateRowTs(t, bb("r1"), Arrays.asList(put("g:b", "old")), 1, NO_ATTRS);
    c.mutateRowTs(t, bb("r1"), Arrays.asList(put("g:b", "new")), 2, NO_ATTRS);
    eq("getVer on a 1-version family", Arrays.asList("new"),
        values(c.getVer(t, bb("r1"), bb("g:b"), 10, NO_ATTRS)));
    cells = c.get(t, bb("r1"), bb("f:a"), NO_ATTRS);
    eq("get values", Arrays.asList("v3"), values(cells));
    eq("get timestamps", Arrays.asList(3L), timestamps(cells));
    eq("get of a missing cell", 0, c.get(t, bb("r1"), bb("f:zz"), NO_ATTRS).size());

    c.mutateRow(t, bb("r2"), Arrays.asList(put("f:a", "x"), put("g:b", "y")), NO_ATTRS);
    List<TRowResult> rows = c.getRow(t, bb("r2"), NO_ATTRS);
    eq("getRow count", 1, rows.size());
    eq("getRow row", "r2", str(rows.get(0).getRow()));
    Map<String, String> expected = new TreeMap<>();
    expected.put("f:a", "x");
    expected.put("g:b", "y");
    eq("getRow columns", expected, columns(rows.get(0)));
    eq("getRow of a missing row", 0, c.getRow(t, bb("nope"), NO_ATTRS).size());
    rows = c.getRows(t, Arrays.asList(bb("r2"), bb("nope"), bb("r1")), NO_ATTRS);
    List<String> rowKeys = new ArrayList<>();
    for (TRowResult r : rows) rowKeys.add(str(r.getRow()));
    eq("getRows rows (missing ones dropped)", Arrays.asList("r2", "r1"), rowKeys);

    c.mutateRow(t, bb("r3"), Arrays.asList(put("f:a", "z")), NO_ATTRS);
    final int id = c.scannerOpenWithStop(t, bb("r1"), bb("r3"), Arrays.asList(bb("f:a")),
        NO_ATTRS);
    rows = c.scannerGetList(id, 10);
    rowKeys.clear();
    List<String> cellValues = new ArrayList<>();
    for (TRowResult r : rows) {
      rowKeys.add(str(r.getRow()));
      cellValues.add(columns(r).get("f:a"));
    }
    eq("scan [r1, r3) rows", Arrays.asList("r1", "r2"), rowKeys);
    eq("scan [r1, r3) f:a", Arrays.asList("v3", "x"), cellValues);
    eq("scannerGetList after the end", 0, c.scannerGetList(id, 10).size());
    c.scannerClose(id);
    IllegalArgument closed = raises("scannerGet of a closed scanner", IllegalArgument.class,
        () -> c.scannerGet(id));
    eq("IllegalArgument.message", "scanner ID is invalid", closed.getMessage());

    int prefixed = c.scannerOpenWithPrefix(t, bb("r"), null, NO_ATTRS);
    eq("prefix scan row count", 3, c.scannerGetList(prefixed, 100).size());
    c.scannerClose(prefixed);

    int filtered = c.scannerOpenWithScan(t, new TScan().setFilterString(
        bb("ValueFilter(=, 'binary:x')")), NO_ATTRS);
    rows = c.scannerGetList(filtered, 10);
    c.scannerClose(filtered);
    eq("filtered scan rows", 1, rows.size());
    eq("filtered scan row", "r2", str(rows.get(0).getRow()));
    Map<String, String> onlyX = new TreeMap<>();
    onlyX.put("f:a", "x");
    eq("filtered scan cells", onlyX, columns(rows.get(0)));

    c.mutateRows(t, Arrays.asList(new BatchMutation(bb("b1"), Arrays.asList(put("f:a", "1"))),
        new BatchMutation(bb("b2"), Arrays.asList(put("f:a", "2")))), NO_ATTRS);
    rowKeys.clear();
    cellValues.clear();
    for (TRowResult r : c.getRowsWithColumns(t, Arrays.asList(bb("b1"), bb("b2")),
        Arrays.asList(bb("f:a")), NO_ATTRS)) {
      rowKeys.add(str(r.getRow()));
      cellValues.add(columns(r).get("f:a"));
    }
    eq("mutateRows then getRowsWithColumns rows", Arrays.asList("b1", "b2"), rowKeys);
    eq("mutateRows then getRowsWithColumns values", Arrays.asList("1", "2"), cellValues);
  }

  private void countersAndConditionalPut() throws Exception {
    eq("atomicIncrement of a missing cell", 5L, c.atomicIncrement(t, bb("n"), bb("f:c"), 5));
    eq("atomicIncrement again", 7L, c.atomicIncrement(t, bb("n"), bb("f:c"), 2));
    c.increment(new TIncrement(t, bb("n"), bb("f:c"), 3));
    eq("after increment", 10L, longOf(c.get(t, bb("n"), bb("f:c"), NO_ATTRS).get(0).getValue()));
    eq("atomicIncrement by 0 reads", 10L, c.atomicIncrement(t, bb("n"), bb("f:c"), 0));
    c.increment(new TIncrement(t, bb("n"), bb("f:c"), -3));
    eq("counter cell", 7L, longOf(c.get(t, bb("n"), bb("f:c"), NO_ATTRS).get(0).getValue()));
    eq("counter bytes", Arrays.toString(longBytes(7)),
        Arrays.toString(c.get(t, bb("n"), bb("f:c"), NO_ATTRS).get(0).getValue()));

    c.mutateRow(t, bb("n"), Arrays.asList(put("f:s", "ab")), NO_ATTRS);
    IOError notLong = raises("atomicIncrement of a 2-byte cell", IOError.class,
        () -> c.atomicIncrement(t, bb("n"), bb("f:s"), 1));
    isTrue("IOError.message names the width: " + firstLine(notLong.getMessage()),
        firstLine(notLong.getMessage()).contains("Field is not a long, it's 2 bytes wide"));
    eq("IOError.canRetry", false, notLong.isCanRetry());

    List<TCell> appended = c.append(new TAppend(t, bb("n"), Arrays.asList(bb("f:s")),
        Arrays.asList(bb("cd"))));
    eq("append result", Arrays.asList("abcd"), values(appended));
    eq("after append", Arrays.asList("abcd"), values(c.get(t, bb("n"), bb("f:s"), NO_ATTRS)));

    eq("checkAndPut with the wrong value", false,
        c.checkAndPut(t, bb("n"), bb("f:s"), bb("nope"), put("f:p", "1"), NO_ATTRS));
    eq("f:p after the failed checkAndPut", 0, c.get(t, bb("n"), bb("f:p"), NO_ATTRS).size());
    eq("checkAndPut with the current value", true,
        c.checkAndPut(t, bb("n"), bb("f:s"), bb("abcd"), put("f:p", "1"), NO_ATTRS));
    eq("f:p after checkAndPut", Arrays.asList("1"), values(c.get(t, bb("n"), bb("f:p"), NO_ATTRS)));
    eq("checkAndPut expecting absence of an existing cell", false,
        c.checkAndPut(t, bb("n"), bb("f:p"), null, put("f:q", "2"), NO_ATTRS));
  }

  private void deletes() throws Exception {
    c.deleteAll(t, bb("r1"), bb("f:a"), NO_ATTRS);
    eq("getVer after deleteAll", 0, c.getVer(t, bb("r1"), bb("f:a"), 10, NO_ATTRS).size());
    c.deleteAllRow(t, bb("r2"), NO_ATTRS);
    eq("getRow after deleteAllRow", 0, c.getRow(t, bb("r2"), NO_ATTRS).size());
    eq("r3 survives", Arrays.asList("z"), values(c.get(t, bb("r3"), bb("f:a"), NO_ATTRS)));
  }

  private void errors() throws Exception {
    String missing = table + "_missing";
    IOError notFound = raises("get on a missing table", IOError.class,
        () -> c.get(bb(missing), bb("r"), bb("f:a"), NO_ATTRS));
    eq("IOError.message first line", "org.apache.hadoop.hbase.TableNotFoundException: " + missing,
        firstLine(notFound.getMessage()));
    eq("IOError.canRetry", false, notFound.isCanRetry());

    IOError versions = raises("getVer with 0 versions", IOError.class,
        () -> c.getVer(t, bb("r3"), bb("f:a"), 0, NO_ATTRS));
    eq("IOError.message first line", "java.io.IOException: versions must be positive",
        firstLine(versions.getMessage()));
    eq("IOError.canRetry", true, versions.isCanRetry());

    IOError family = raises("put to an unknown family", IOError.class,
        () -> c.mutateRow(t, bb("r"), Arrays.asList(put("nofam:a", "1")), NO_ATTRS));
    isTrue("IOError.message names NoSuchColumnFamilyException: " + firstLine(family.getMessage()),
        family.getMessage().contains("NoSuchColumnFamilyException"));
  }

  private void dropTable() throws Exception {
    c.disableTable(t);
    eq("isTableEnabled after disableTable", false, c.isTableEnabled(t));
    c.deleteTable(t);
    isTrue("getTableNames no longer lists " + table, !strs(c.getTableNames()).contains(table));
  }
}
