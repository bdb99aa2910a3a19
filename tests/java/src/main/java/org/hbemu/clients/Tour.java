package org.hbemu.clients;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What the client tours print: one line per call, "label -> answer", where an answer that threw
 * shows its exception's class and first message line. The tours' output against HBase is kept
 * as the expected output of a run against the emulator, so answers leave out what differs from
 * run to run (server-set timestamps).
 */
final class Tour {
  interface Step {
    String run() throws Exception;
  }

  private Tour() {}

  static void step(String label, Step body) {
    String answer;
    try {
      answer = body.run();
    } catch (Exception e) {
      String message = String.valueOf(e.getMessage());
      int newline = message.indexOf('\n');
      answer = "threw " + e.getClass().getName() + ": "
          + (newline < 0 ? message : message.substring(0, newline));
    }
    System.out.println(label + " -> " + answer);
  }

  /**
   * "r1{f:a=v1,g:c=c}", or "{}" for an empty result; timestamps a tour set itself (below 10^6)
   * are shown as @ts, the server's are not.
   */
  static String show(Result r) {
    if (r == null || r.isEmpty()) return "{}";
    StringBuilder out = new StringBuilder(Bytes.toStringBinary(r.getRow())).append('{');
    boolean first = true;
    for (Cell c : r.rawCells()) {
      if (!first) out.append(',');
      first = false;
      out.append(Bytes.toStringBinary(CellUtil.cloneFamily(c))).append(':')
          .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c))).append('=')
          .append(Bytes.toStringBinary(CellUtil.cloneValue(c)));
      if (c.getTimestamp() < 1_000_000) out.append('@').append(c.getTimestamp());
    }
    return out.append('}').toString();
  }

  static String show(Result[] results) {
    List<String> shown = new ArrayList<>();
    for (Result r : results) shown.add(show(r));
    return shown.toString();
  }

  static String scan(Table table, Scan scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) rows.add(show(r));
    }
    return rows.toString();
  }
}
