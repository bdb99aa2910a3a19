package org.hbemu.clients;

import static org.hbemu.clients.Tour.scan;
import static org.hbemu.clients.Tour.show;
import static org.hbemu.clients.Tour.step;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's own client API (Connection, Table, Admin) over Thrift2 through ThriftConnection, the
 * way an application configures it: {@code hbase.client.connection.impl =
 * org.apache.hadoop.hbase.thrift2.client.ThriftConnection}. Its ThriftTable sends every filter
 * as TGet/TScan.filterBytes, HBase's protobuf-serialized Filter.
 *
 * <pre>
 *   ThriftConnectionTour --host H --port P
 * </pre>
 *
 * Prints one line per call with the answer normalised (no timestamps, region ids or server
 * names), so the output of a run against HBase is the expected output of a run against the
 * emulator. Exits 0 when every call ran, whatever it answered; an answer that is an exception
 * is printed as its class and first message line.
 */
public final class ThriftConnectionTour {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");

  private ThriftConnectionTour() {}

  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--host")) host = args[i + 1];
      else if (args[i].equals("--port")) port = Integer.parseInt(args[i + 1]);
      else throw new IllegalArgumentException("unknown option " + args[i]);
    }
    if (port == 0) throw new IllegalArgumentException("usage: ThriftConnectionTour --host H --port P");

    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.client.connection.impl",
        "org.apache.hadoop.hbase.thrift2.client.ThriftConnection");
    conf.set("hbase.thrift.server.name", host);
    conf.setInt("hbase.thrift.server.port", port);
    // One attempt: a failing call answers at once instead of after HBase's client retries.
    conf.setInt("hbase.client.retries.number", 1);

    TableName name = TableName.valueOf("jtour_" + UUID.randomUUID().toString().replace("-", "")
        .substring(0, 10));
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).build())
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G)).build(),
          new byte[][] {Bytes.toBytes("r5")});
      try (Table table = connection.getTable(name)) {
        tour(connection, admin, table, name);
      } finally {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
    }
    System.out.println("tour done");
  }

  private static void tour(Connection connection, Admin admin, Table table, TableName name)
      throws IOException {
    step("tableExists", () -> String.valueOf(admin.tableExists(name)));
    step("families", () -> {
      List<String> families = new ArrayList<>();
      Arrays.stream(table.getDescriptor().getColumnFamilies())
          .forEach(f -> families.add(f.getNameAsString() + "/" + f.getMaxVersions()));
      return families.toString();
    });

    // Rows r1..r9: f:a = v<i>, f:b = "b<i>" on odd rows, g:c = "c" on rows 1-3.
    step("put list", () -> {
      List<Put> puts = new ArrayList<>();
      for (int i = 1; i <= 9; i++) {
        Put p = new Put(Bytes.toBytes("r" + i)).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("v" + i));
        if (i % 2 == 1) p.addColumn(F, Bytes.toBytes("b"), Bytes.toBytes("b" + i));
        if (i <= 3) p.addColumn(G, Bytes.toBytes("c"), Bytes.toBytes("c"));
        puts.add(p);
      }
      table.put(puts);
      return "ok";
    });

    // Filtered gets.
    step("get r1 QualifierFilter(=, a)", () -> show(table.get(new Get(Bytes.toBytes("r1"))
        .setFilter(new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("a")))))));
    step("get r3 ColumnPrefixFilter(b)", () -> show(table.get(new Get(Bytes.toBytes("r3"))
        .setFilter(new ColumnPrefixFilter(Bytes.toBytes("b"))))));
    step("get r2 ValueFilter(substring 2)", () -> show(table.get(new Get(Bytes.toBytes("r2"))
        .setFilter(new ValueFilter(CompareOperator.EQUAL, new SubstringComparator("2"))))));
    step("get r2 ValueFilter(!= v2)", () -> show(table.get(new Get(Bytes.toBytes("r2"))
        .setFilter(new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(Bytes.toBytes("v2")))))));
    step("get list with filter", () -> {
      List<Get> gets = new ArrayList<>();
      for (String r : new String[] {"r1", "r4", "nope"}) {
        gets.add(new Get(Bytes.toBytes(r)).setFilter(new KeyOnlyFilter()));
      }
      return show(table.get(gets));
    });

    // Filtered scans.
    step("scan PrefixFilter(r1)", () -> scanFiltered(table, new PrefixFilter(Bytes.toBytes("r1"))));
    step("scan SingleColumnValueFilter(f:a = v3)", () -> {
      SingleColumnValueFilter f = new SingleColumnValueFilter(F, Bytes.toBytes("a"),
          CompareOperator.EQUAL, Bytes.toBytes("v3"));
      f.setFilterIfMissing(true);
      return scanFiltered(table, f);
    });
    step("scan SingleColumnValueFilter(f:b >= b7, missing passes)", () -> scanFiltered(table,
        new SingleColumnValueFilter(F, Bytes.toBytes("b"), CompareOperator.GREATER_OR_EQUAL,
            Bytes.toBytes("b7"))));
    step("scan FilterList(ONE: prefix r2, prefix r4)", () -> scanFiltered(table,
        new FilterList(FilterList.Operator.MUST_PASS_ONE, new PrefixFilter(Bytes.toBytes("r2")),
            new PrefixFilter(Bytes.toBytes("r4")))));
    step("scan FilterList(ALL: qualifier a, value regex v[1-4])", () -> scanFiltered(table,
        new FilterList(FilterList.Operator.MUST_PASS_ALL,
            new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("a"))),
            new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("v[1-4]")))));
    // ThriftTable reads a scan as getScannerResults calls, each a new server scan from just past
    // the last row it got, so the page counts afresh per call: pages of 2 from r5 read the
    // whole of region [r5,) two rows at a time. (A page that fills inside region [,r5) would
    // end only that region on HBase; the emulator ends the scan, see the report of issue 24.)
    step("scan PageFilter(2) from r5", () -> scan(table,
        new Scan().withStartRow(Bytes.toBytes("r5")).setFilter(new PageFilter(2))));
    step("scan PageFilter(2) r1..r5", () -> scan(table, new Scan().withStartRow(Bytes.toBytes("r1"))
        .withStopRow(Bytes.toBytes("r5")).setFilter(new PageFilter(2))));
    step("scan QualifierFilter(> a)", () -> scanFiltered(table,
        new QualifierFilter(CompareOperator.GREATER, new BinaryComparator(Bytes.toBytes("a")))));
    step("scan ColumnPrefixFilter(c)", () -> scanFiltered(table, new ColumnPrefixFilter(Bytes.toBytes("c"))));
    step("scan ValueFilter(regex (?i)V[89])", () -> scanFiltered(table,
        new ValueFilter(CompareOperator.EQUAL, new RegexStringComparator("V[89]",
            java.util.regex.Pattern.CASE_INSENSITIVE | java.util.regex.Pattern.DOTALL))));
    step("scan WhileMatchFilter(prefix r1) from r1", () -> {
      Scan s = new Scan().withStartRow(Bytes.toBytes("r1"))
          .setFilter(new WhileMatchFilter(new PrefixFilter(Bytes.toBytes("r1"))));
      return scan(table, s);
    });
    step("scan reversed PageFilter(1) from r4", () -> scan(table, new Scan()
        .withStartRow(Bytes.toBytes("r4")).setReversed(true).setFilter(new PageFilter(1))));

    // Batch, check-and-mutate, increment, append.
    step("batch", () -> {
      List<Row> actions = new ArrayList<>();
      actions.add(new Put(Bytes.toBytes("r10")).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("v10")));
      actions.add(new Get(Bytes.toBytes("r1")).addColumn(F, Bytes.toBytes("a")));
      actions.add(new Delete(Bytes.toBytes("r9")));
      actions.add(new Increment(Bytes.toBytes("cnt")).addColumn(F, Bytes.toBytes("n"), 2));
      Object[] results = new Object[actions.size()];
      table.batch(actions, results);
      List<String> shown = new ArrayList<>();
      for (Object r : results) shown.add(r instanceof Result ? show((Result) r) : String.valueOf(r));
      return shown.toString();
    });
    // ThriftTable refuses batch itself; the list forms are its batch.
    step("delete list r9, r8 f:a", () -> {
      table.delete(new ArrayList<>(Arrays.asList(new Delete(Bytes.toBytes("r9")),
          new Delete(Bytes.toBytes("r8")).addColumns(F, Bytes.toBytes("a")))));
      return "ok";
    });
    step("get r8, r9, r10", () -> show(table.get(Arrays.asList(new Get(Bytes.toBytes("r8")),
        new Get(Bytes.toBytes("r9")), new Get(Bytes.toBytes("r10"))))));
    step("checkAndMutate ifEquals f:a=v1 thenPut", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r1"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("v1"))
            .thenPut(new Put(Bytes.toBytes("r1")).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("w1")))));
    step("checkAndMutate ifEquals f:a=v1 again", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r1"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("v1"))
            .thenPut(new Put(Bytes.toBytes("r1")).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("x1")))));
    step("checkAndMutate ifNotExists f:z thenDelete", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r2"), F).qualifier(Bytes.toBytes("z")).ifNotExists()
            .thenDelete(new Delete(Bytes.toBytes("r2")).addColumns(F, Bytes.toBytes("a")))));
    step("get r1, r2 after checkAndMutate", () -> show(table.get(Arrays.asList(
        new Get(Bytes.toBytes("r1")), new Get(Bytes.toBytes("r2"))))));
    step("incrementColumnValue cnt f:n +5", () -> String.valueOf(
        table.incrementColumnValue(Bytes.toBytes("cnt"), F, Bytes.toBytes("n"), 5)));
    step("increment cnt f:n +1, f:m +10", () -> showLongs(table.increment(
        new Increment(Bytes.toBytes("cnt")).addColumn(F, Bytes.toBytes("n"), 1)
            .addColumn(F, Bytes.toBytes("m"), 10))));
    step("append r3 f:b +x", () -> show(table.append(
        new Append(Bytes.toBytes("r3")).addColumn(F, Bytes.toBytes("b"), Bytes.toBytes("x")))));
    step("exists r3, r9", () -> Arrays.toString(table.exists(Arrays.asList(
        new Get(Bytes.toBytes("r3")), new Get(Bytes.toBytes("r9"))))));

    // Admin calls that reach the server.
    step("isTableEnabled", () -> String.valueOf(admin.isTableEnabled(name)));
    step("isTableAvailable", () -> String.valueOf(admin.isTableAvailable(name)));
    step("listTableNames(jtour_.*) has it", () -> String.valueOf(
        Arrays.asList(admin.listTableNames(java.util.regex.Pattern.compile("jtour_.*")))
            .contains(name)));
    step("namespace default", () -> admin.getNamespaceDescriptor("default").getName());

    // Region calls: ThriftConnection answers them itself, without asking the server.
    step("admin.getRegions", () -> String.valueOf(admin.getRegions(name).size()));
    step("regionLocator all locations", () -> {
      try (RegionLocator locator = connection.getRegionLocator(name)) {
        List<String> ranges = new ArrayList<>();
        for (HRegionLocation l : locator.getAllRegionLocations()) {
          ranges.add("[" + Bytes.toStringBinary(l.getRegion().getStartKey()) + ","
              + Bytes.toStringBinary(l.getRegion().getEndKey()) + ")");
        }
        return ranges.toString();
      }
    });
    step("regionLocator location of r7", () -> {
      try (RegionLocator locator = connection.getRegionLocator(name)) {
        HRegionLocation l = locator.getRegionLocation(Bytes.toBytes("r7"));
        return "[" + Bytes.toStringBinary(l.getRegion().getStartKey()) + ","
            + Bytes.toStringBinary(l.getRegion().getEndKey()) + ")";
      }
    });
    step("regionLocator start keys", () -> {
      try (RegionLocator locator = connection.getRegionLocator(name)) {
        List<String> keys = new ArrayList<>();
        for (byte[] k : locator.getStartKeys()) keys.add(Bytes.toStringBinary(k));
        return keys.toString();
      }
    });
    step("table.getRegionLocator", () -> String.valueOf(table.getRegionLocator().getName()));
  }

  private static String scanFiltered(Table table, Filter filter) throws IOException {
    return scan(table, new Scan().setFilter(filter));
  }

  private static String showLongs(Result r) {
    StringBuilder out = new StringBuilder(Bytes.toStringBinary(r.getRow())).append('{');
    boolean first = true;
    for (Cell c : r.rawCells()) {
      if (!first) out.append(',');
      first = false;
      out.append(Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append('=')
          .append(Bytes.toLong(CellUtil.cloneValue(c)));
    }
    return out.append('}').toString();
  }
}
