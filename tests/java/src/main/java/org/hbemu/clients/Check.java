package org.hbemu.clients;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** Exact-value assertions for the round trips; a failure names the step that broke. */
final class Check {
  /** A call expected to throw. */
  interface Call {
    void run() throws Exception;
  }

  private static int count;

  private Check() {}

  static int count() {
    return count;
  }

  static void eq(String what, Object expected, Object actual) {
    count++;
    if (!Objects.equals(expected, actual)) {
      throw new AssertionError(what + ": expected <" + expected + "> but got <" + actual + ">");
    }
  }

  /**
   * Emulator deviations from HBase that a check has found and the server does not fix yet, by id.
   * Against the emulator (--target emulator) a listed check that fails is reported, not counted as
   * a failure, and a listed check that passes fails the run so the entry gets removed; against
   * real HBase every check is strict.
   */
  static final Set<String> KNOWN_DEVIATIONS = new TreeSet<>();

  static boolean lenient;  // --target emulator
  static final List<String> reported = new ArrayList<>();  // each distinct check once, not per wire
  private static final Set<String> reportedKeys = new LinkedHashSet<>();

  /** eq, marked as a known deviation `id` (see KNOWN_DEVIATIONS). */
  static void known(String id, String what, Object expected, Object actual) {
    if (!lenient || !KNOWN_DEVIATIONS.contains(id)) {
      eq(what, expected, actual);
      return;
    }
    count++;
    if (Objects.equals(expected, actual)) {
      throw new AssertionError("known deviation " + id + " is fixed: remove it from"
          + " Check.KNOWN_DEVIATIONS");
    }
    // The same check on another wire differs only in the run's names: report its first failure.
    String key = id + "|" + String.valueOf(expected).replaceAll("_(buffered|framed|http)_\\w+", "");
    if (reportedKeys.add(key)) {
      reported.add(id + " (" + what + ": HBase <" + expected + ">, here <" + actual + ">)");
    }
  }

  static void isTrue(String what, boolean condition) {
    count++;
    if (!condition) throw new AssertionError(what);
  }

  /** Runs call and returns what it threw; fails unless that is a `type`. */
  static <T extends Throwable> T raises(String what, Class<T> type, Call call) {
    count++;
    try {
      call.run();
    } catch (Throwable t) {
      if (type.isInstance(t)) return type.cast(t);
      throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + t, t);
    }
    throw new AssertionError(what + ": expected " + type.getSimpleName() + " but the call returned");
  }

  static ByteBuffer bb(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The remaining bytes of b as UTF-8, without moving its position. */
  static String str(ByteBuffer b) {
    if (b == null) return null;
    ByteBuffer copy = b.duplicate();
    byte[] out = new byte[copy.remaining()];
    copy.get(out);
    return new String(out, StandardCharsets.UTF_8);
  }

  static String str(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  static List<String> strs(List<ByteBuffer> list) {
    List<String> out = new ArrayList<>();
    for (ByteBuffer b : list) out.add(str(b));
    return out;
  }

  /** HBase stores counters as 8-byte big-endian longs. */
  static byte[] longBytes(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  static long longOf(byte[] b) {
    if (b.length != 8) throw new AssertionError("counter cell is " + b.length + " bytes, not 8");
    return ByteBuffer.wrap(b).getLong();
  }

  /** Thrift1 IOError messages carry a Java stack trace; its first line names the exception. */
  static String firstLine(String message) {
    if (message == null) return null;
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).trim();
  }
}
