package org.hbemu.clients;

import static org.hbemu.clients.Check.bb;
import static org.hbemu.clients.Check.bytes;
import static org.hbemu.clients.Check.eq;
import static org.hbemu.clients.Check.isTrue;
import static org.hbemu.clients.Check.str;
import static org.hbemu.clients.Check.strs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.thrift.generated.ColumnDescriptor;
import org.apache.hadoop.hbase.thrift.generated.Hbase;
import org.apache.hadoop.hbase.thrift.generated.Mutation;
import org.apache.hadoop.hbase.thrift2.generated.TColumnFamilyDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TColumnValue;
import org.apache.hadoop.hbase.thrift2.generated.TGet;
import org.apache.hadoop.hbase.thrift2.generated.THBaseService;
import org.apache.hadoop.hbase.thrift2.generated.TNamespaceDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TPut;
import org.apache.hadoop.hbase.thrift2.generated.TResult;
import org.apache.hadoop.hbase.thrift2.generated.TTableDescriptor;
import org.apache.hadoop.hbase.thrift2.generated.TTableName;

/**
 * One cluster, two doors: a namespaced table created through Thrift2 is used by name "ns:t"
 * through Thrift1 and the other way round, as against one HBase with both gateways.
 */
final class BothDoorsRoundTrip {
  private static final Map<ByteBuffer, ByteBuffer> NO_ATTRS = Collections.emptyMap();

  private final Hbase.Client one;
  private final THBaseService.Client two;
  private final String ns;

  BothDoorsRoundTrip(Wire thrift1, Wire thrift2, String ns) {
    this.one = new Hbase.Client(thrift1.protocol);
    this.two = new THBaseService.Client(thrift2.protocol);
    this.ns = ns;
  }

  private TTableName name(String qualifier) {
    return new TTableName().setNs(bytes(ns)).setQualifier(bytes(qualifier));
  }

  void run() throws Exception {
    two.createNamespace(new TNamespaceDescriptor(ns));
    two.createTable(new TTableDescriptor(name("by2")).setColumns(
        Arrays.asList(new TColumnFamilyDescriptor(bb("f")))), null);
    try {
      String by2 = ns + ":by2";
      isTrue("Thrift1 getTableNames lists " + by2, strs(one.getTableNames()).contains(by2));
      ColumnDescriptor f = one.getColumnDescriptors(bb(by2)).get(bb("f:"));
      // A family created with HBase's defaults, as Thrift1 reports it.
      eq("Thrift1 maxVersions", 1, f.getMaxVersions());
      eq("Thrift1 bloomFilterType", "ROW", f.getBloomFilterType());
      eq("Thrift1 blockCacheEnabled", true, f.isBlockCacheEnabled());
      eq("Thrift1 timeToLive", Integer.MAX_VALUE, f.getTimeToLive());

      one.mutateRowTs(bb(by2), bb("r"),
          Arrays.asList(new Mutation(false, bb("f:a"), bb("from1"), true)), 5, NO_ATTRS);
      TResult r = two.get(bb(by2), new TGet(bb("r")));
      eq("Thrift2 reads the Thrift1 put", 1, r.getColumnValuesSize());
      TColumnValue cell = r.getColumnValues().get(0);
      eq("Thrift2 cell", "f:a=from1@5", str(cell.getFamily()) + ":" + str(cell.getQualifier())
          + "=" + str(cell.getValue()) + "@" + cell.getTimestamp());
      two.put(bb(by2), new TPut(bb("r"), Arrays.asList(
          new TColumnValue(bb("f"), bb("b"), bb("from2")).setTimestamp(6))));
      eq("Thrift1 reads the Thrift2 put", "from2",
          str(one.get(bb(by2), bb("r"), bb("f:b"), NO_ATTRS).get(0).getValue()));

      String by1 = ns + ":by1";
      one.createTable(bb(by1), Arrays.asList(new ColumnDescriptor().setName(bb("g:"))));
      eq("Thrift2 tableExists of the Thrift1 table", true, two.tableExists(name("by1")));
      List<String> inNs = new ArrayList<>();
      for (TTableName n : two.getTableNamesByNamespace(ns)) inNs.add(str(n.getQualifier()));
      Collections.sort(inNs);
      eq("Thrift2 getTableNamesByNamespace", Arrays.asList("by1", "by2"), inNs);
      TColumnFamilyDescriptor g = two.getTableDescriptor(name("by1")).getColumns().get(0);
      eq("Thrift2 reads the Thrift1 family name", "g", str(g.getName()));
      eq("Thrift2 reads the Thrift1 family maxVersions", 3, g.getMaxVersions());
      one.disableTable(bb(by1));
      eq("Thrift2 isTableDisabled after Thrift1 disableTable", true,
          two.isTableDisabled(name("by1")));
      one.deleteTable(bb(by1));
      eq("Thrift2 tableExists after Thrift1 deleteTable", false, two.tableExists(name("by1")));
    } finally {
      two.disableTable(name("by2"));
      two.deleteTable(name("by2"));
      two.deleteNamespace(ns);
    }
    isTrue("Thrift1 getTableNames no longer lists " + ns + ":by2",
        !strs(one.getTableNames()).contains(ns + ":by2"));
  }
}
