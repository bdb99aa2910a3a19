package org.hbemu.clients;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Runs the Thrift1 and Thrift2 round trips with HBase's published generated clients against a
 * running server, once per wire mode, and exits non-zero if any check failed.
 *
 * <pre>
 *   Main --host H [--thrift1-port P] [--thrift2-port P] [--wires buffered-binary,framed-compact,...]
 *        [--target emulator|hbase]
 * </pre>
 *
 * --target emulator tolerates the deviations listed in Check.KNOWN_DEVIATIONS (reported on
 * stdout); the default, hbase, checks everything strictly.
 *
 * Each service and wire gets its own table (and, for Thrift2, namespace), named uniquely per run,
 * so one server can take every mode in a row.
 */
public final class Main {
  static final List<String> ALL_WIRES = Arrays.asList("buffered-binary", "framed-binary",
      "buffered-compact", "framed-compact", "http-binary");

  private Main() {}

  public static void main(String[] args) {
    String host = "127.0.0.1";
    int thrift1Port = 0;
    int thrift2Port = 0;
    List<String> wires = ALL_WIRES;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--host": host = args[i + 1]; break;
        case "--thrift1-port": thrift1Port = Integer.parseInt(args[i + 1]); break;
        case "--thrift2-port": thrift2Port = Integer.parseInt(args[i + 1]); break;
        case "--wires": wires = Arrays.asList(args[i + 1].split(",")); break;
        case "--target":
          if (!args[i + 1].equals("emulator") && !args[i + 1].equals("hbase")) usage("--target");
          Check.lenient = args[i + 1].equals("emulator");
          break;
        default: usage("unknown option " + args[i]);
      }
    }
    if (args.length % 2 != 0) usage("every option takes a value");
    if (thrift1Port == 0 && thrift2Port == 0) usage("give --thrift1-port and/or --thrift2-port");

    final String h = host;
    final int p1 = thrift1Port;
    final int p2 = thrift2Port;
    String run = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    List<String> failures = new ArrayList<>();
    for (String wire : wires) {
      String tag = wire.replace('-', '_') + "_" + run;
      if (thrift1Port != 0) {
        runOne("thrift1", wire, failures, () -> {
          try (Wire w = new Wire(h, p1, wire)) {
            new Thrift1RoundTrip(w, "jc_t1_" + tag).run();
          }
        });
      }
      if (thrift2Port != 0) {
        runOne("thrift2", wire, failures, () -> {
          try (Wire w = new Wire(h, p2, wire)) {
            new Thrift2RoundTrip(w, "jcns_" + tag, "jc_t2").run();
          }
        });
      }
      if (thrift1Port != 0 && thrift2Port != 0) {
        runOne("both-doors", wire, failures, () -> {
          try (Wire w1 = new Wire(h, p1, wire); Wire w2 = new Wire(h, p2, wire)) {
            new BothDoorsRoundTrip(w1, w2, "jcboth_" + tag).run();
          }
        });
      }
    }
    for (String deviation : Check.reported) System.out.println("known deviation " + deviation);
    if (!failures.isEmpty()) {
      System.out.println("FAILED " + failures.size() + ": " + failures);
      System.exit(1);
    }
    System.out.println("all passed, " + Check.count() + " checks");
  }

  private static void runOne(String service, String wire, List<String> failures, Check.Call body) {
    int before = Check.count();
    try {
      body.run();
      System.out.println("ok   " + service + " " + wire + " (" + (Check.count() - before)
          + " checks)");
    } catch (Throwable t) {
      failures.add(service + " " + wire);
      System.out.println("FAIL " + service + " " + wire + ": " + t);
      if (!(t instanceof AssertionError)) t.printStackTrace(System.out);
    }
  }

  private static void usage(String why) {
    System.err.println(why + "\nusage: Main --host H [--thrift1-port P] [--thrift2-port P]"
        + " [--wires " + String.join(",", ALL_WIRES) + "] [--target emulator|hbase]");
    System.exit(2);
  }
}
