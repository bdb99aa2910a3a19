package org.hbemu.clients;

import static org.hbemu.clients.Tour.scan;
import static org.hbemu.clients.Tour.show;
import static org.hbemu.clients.Tour.step;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HColumnDescriptor;
import org.apache.hadoop.hbase.HTableDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.rest.client.Client;
import org.apache.hadoop.hbase.rest.client.Cluster;
import org.apache.hadoop.hbase.rest.client.RemoteAdmin;
import org.apache.hadoop.hbase.rest.client.RemoteHTable;
import org.apache.hadoop.hbase.rest.model.TableModel;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's own REST client classes, {@code RemoteAdmin} and {@code RemoteHTable} (published in
 * the tests jar of {@code org.apache.hbase:hbase-rest} 2.6.1), against a REST gateway:
 * schema (create, describe, list, delete), put and put list, get, get list (multiget), exists,
 * scans with a range and filters, delete forms, checkAndPut/checkAndDelete through
 * checkAndMutate, and the calls the client refuses.
 *
 * <pre>
 *   RestClientTour --host H --port P
 * </pre>
 *
 * Prints one line per call with the answer normalised (server-set timestamps are left out), so
 * the output of a run against HBase's gateway is the expected output of a run against the
 * emulator. Exits 0 when every call ran, whatever it answered.
 */
public final class RestClientTour {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");

  private RestClientTour() {}

  public static void main(String[] args) throws Exception {
    String host = "127.0.0.1";
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--host")) host = args[i + 1];
      else if (args[i].equals("--port")) port = Integer.parseInt(args[i + 1]);
      else throw new IllegalArgumentException("unknown option " + args[i]);
    }
    if (port == 0) throw new IllegalArgumentException("usage: RestClientTour --host H --port P");

    Configuration conf = HBaseConfiguration.create();
    // One attempt: a refused call answers at once instead of after the client's retries.
    conf.setInt("hbase.rest.client.max.retries", 1);
    conf.setLong("hbase.rest.client.sleep", 10);
    Client client = new Client(new Cluster().add(host, port));
    RemoteAdmin admin = new RemoteAdmin(client, conf);
    String name = "rtour_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    step("rest version", () -> admin.getRestVersion().getRESTVersion());
    step("cluster version is 2.6.1", () -> String.valueOf(
        admin.getClusterVersion().getVersion().startsWith("2.6.1")));
    step("isTableAvailable before create", () -> String.valueOf(admin.isTableAvailable(name)));
    step("createTable", () -> {
      HTableDescriptor desc = new HTableDescriptor(TableName.valueOf(name));
      desc.addFamily(new HColumnDescriptor(F).setMaxVersions(3));
      desc.addFamily(new HColumnDescriptor(G));
      admin.createTable(desc);
      return "ok";
    });
    step("isTableAvailable after create", () -> String.valueOf(admin.isTableAvailable(name)));
    step("getTableList has it", () -> {
      for (TableModel t : admin.getTableList().getTables()) {
        if (t.getName().equals(name)) return "true";
      }
      return "false";
    });
    try (RemoteHTable table = new RemoteHTable(client, conf, name)) {
      tour(table);
    } finally {
      step("deleteTable", () -> {
        admin.deleteTable(name);
        return "ok";
      });
    }
    step("isTableAvailable after delete", () -> String.valueOf(admin.isTableAvailable(name)));
    client.shutdown();
    System.out.println("tour done");
  }

  private static Put put(String row, byte[] family, String qualifier, String value) {
    return new Put(Bytes.toBytes(row)).addColumn(family, Bytes.toBytes(qualifier),
        Bytes.toBytes(value));
  }

  private static void tour(RemoteHTable table) {
    step("families", () -> {
      List<String> out = new ArrayList<>();
      for (ColumnFamilyDescriptor f : table.getDescriptor().getColumnFamilies()) {
        out.add(f.getNameAsString() + "/" + f.getMaxVersions());
      }
      return out.toString();
    });
    step("put", () -> {
      table.put(put("r1", F, "a", "v1").addColumn(G, Bytes.toBytes("c"), Bytes.toBytes("c1")));
      return "ok";
    });
    step("put list", () -> {
      table.put(Arrays.asList(put("r2", F, "a", "v2"), put("r3", F, "b", "b3"),
          put("r4", F, "a", "v4"),
          new Put(Bytes.toBytes("r5")).addColumn(F, Bytes.toBytes("a"), 10L, Bytes.toBytes("old"))
              .addColumn(F, Bytes.toBytes("a"), 20L, Bytes.toBytes("new"))));
      return "ok";
    });
    step("get r1", () -> show(table.get(new Get(Bytes.toBytes("r1")))));
    step("get r1 g:c", () -> show(table.get(new Get(Bytes.toBytes("r1"))
        .addColumn(G, Bytes.toBytes("c")))));
    step("get r5 all versions", () -> show(table.get(new Get(Bytes.toBytes("r5"))
        .readAllVersions())));
    step("get r5 time range [0,15)", () -> show(table.get(new Get(Bytes.toBytes("r5"))
        .setTimeRange(0, 15))));
    step("get missing", () -> show(table.get(new Get(Bytes.toBytes("nope")))));
    step("get list", () -> show(table.get(Arrays.asList(new Get(Bytes.toBytes("r2")),
        new Get(Bytes.toBytes("nope")), new Get(Bytes.toBytes("r4"))))));
    step("exists r3, nope", () -> table.exists(new Get(Bytes.toBytes("r3"))) + ", "
        + table.exists(new Get(Bytes.toBytes("nope"))));
    step("scan all", () -> scan(table, new Scan()));
    step("scan r2..r4", () -> scan(table, new Scan().withStartRow(Bytes.toBytes("r2"))
        .withStopRow(Bytes.toBytes("r4"))));
    step("scan family g", () -> scan(table, new Scan().addFamily(G)));
    step("scan PrefixFilter(r3)", () -> scan(table, new Scan()
        .setFilter(new PrefixFilter(Bytes.toBytes("r3")))));
    step("scan QualifierFilter(= b)", () -> scan(table, new Scan().setFilter(
        new QualifierFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("b"))))));
    step("checkAndMutate ifEquals f:a=v2 thenPut", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r2"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("v2")).thenPut(put("r2", F, "a", "w2"))));
    step("checkAndMutate ifEquals f:a=v2 again", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r2"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("v2")).thenPut(put("r2", F, "a", "x2"))));
    step("get r2", () -> show(table.get(new Get(Bytes.toBytes("r2")))));
    step("checkAndMutate ifEquals f:a=nope thenDelete", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r4"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("nope")).thenDelete(new Delete(Bytes.toBytes("r4")))));
    step("checkAndMutate ifEquals f:a=v4 thenDelete", () -> String.valueOf(
        table.checkAndMutate(Bytes.toBytes("r4"), F).qualifier(Bytes.toBytes("a"))
            .ifEquals(Bytes.toBytes("v4")).thenDelete(new Delete(Bytes.toBytes("r4")))));
    step("get r4", () -> show(table.get(new Get(Bytes.toBytes("r4")))));
    step("delete r1 g:c", () -> {
      table.delete(new Delete(Bytes.toBytes("r1")).addColumns(G, Bytes.toBytes("c")));
      return show(table.get(new Get(Bytes.toBytes("r1"))));
    });
    step("delete list r1, r3", () -> {
      table.delete(new ArrayList<>(Arrays.asList(new Delete(Bytes.toBytes("r1")),
          new Delete(Bytes.toBytes("r3")))));
      return scan(table, new Scan());
    });
    step("increment", () -> show(table.increment(new Increment(Bytes.toBytes("r9"))
        .addColumn(F, Bytes.toBytes("n"), 1))));
    step("append", () -> show(table.append(new Append(Bytes.toBytes("r9"))
        .addColumn(F, Bytes.toBytes("s"), Bytes.toBytes("x")))));
  }
}
