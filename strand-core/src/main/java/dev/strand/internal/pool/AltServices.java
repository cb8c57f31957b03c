package dev.strand.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code https} origins said about HTTP/3 in their {@code Alt-Svc} fields (RFC 7838), and which
 * QUIC endpoints failed lately: one per client. Times are {@link System#nanoTime} values passed in,
 * so tests drive expiry and back-off with explicit timestamps.
 *
 * <p>Only {@code h3} alternatives on the origin's own host are kept (a different host would need its
 * own name resolution and the origin's certificate still has to match; other clients skip those too).
 * An entry lives {@code ma} seconds (default 24 hours); {@code clear} drops it. An endpoint whose QUIC
 * connection failed is skipped for 5 minutes, doubled on each failure in a row up to a day, and the
 * entries pointing at it are dropped; a connection that comes up resets its count.
 */
public final class AltServices {
  static final long DEFAULT_MAX_AGE_SECONDS = 24 * 3600;
  static final long BROKEN_NANOS = TimeUnit.MINUTES.toNanos(5);
  static final long MAX_BROKEN_NANOS = TimeUnit.DAYS.toNanos(1);

  /** An advertised alternative: HTTP/3 on UDP {@code port} until {@code expiresAt}. */
  record Entry(int port, long expiresAt, boolean persist) {}

  private record Broken(long until, int failures) {}

  private final Map<Origin, Entry> entries = new ConcurrentHashMap<>();
  private final Map<Origin, Broken> broken = new ConcurrentHashMap<>();

  /** Takes in the {@code Alt-Svc} field values of a response from {@code origin} received at {@code now}. */
  public void received(Origin origin, List<String> fieldValues, long now) {
    for (String value : fieldValues) {
      if (value.trim().equals("clear")) {
        entries.remove(origin);
        continue;
      }
      Entry e = parse(origin, value, now);
      if (e != null) {
        entries.put(origin, e);
      }
    }
  }

  /**
   * The key of the HTTP/3 connections to use for {@code origin} at {@code now}, or {@code null} if it
   * advertised none that is alive and not broken.
   */
  public Origin http3For(Origin origin, long now) {
    Entry e = entries.get(origin);
    if (e == null) {
      return null;
    }
    if (now - e.expiresAt() >= 0) {
      entries.remove(origin, e);
      return null;
    }
    Origin quic = origin.http3(e.port());
    return isBroken(quic, now) ? null : quic;
  }

  /** Whether QUIC to {@code quic} (an {@link Origin#http3} key) failed recently. */
  public boolean isBroken(Origin quic, long now) {
    Broken b = broken.get(quic);
    return b != null && now - b.until() < 0;
  }

  /** A QUIC connection to {@code quic} failed at {@code now}: skip it for a while, forget who advertised it. */
  public void failed(Origin quic, long now) {
    broken.compute(quic, (k, b) -> {
      int failures = b == null ? 1 : b.failures() + 1;
      long wait = BROKEN_NANOS << Math.min(failures - 1, 20);
      return new Broken(now + Math.min(wait, MAX_BROKEN_NANOS), failures);
    });
    entries.entrySet().removeIf(e -> e.getKey().host().equals(quic.host()) && e.getValue().port() == quic.port());
  }

  /** A QUIC connection to {@code quic} came up: its failures are forgiven. */
  public void succeeded(Origin quic) {
    broken.remove(quic);
  }

  /**
   * The network changed: entries advertised without {@code persist=1} are dropped (RFC 7838 section
   * 3.1). Strand does not watch the network itself; this is for an application that does.
   */
  public void networkChanged() {
    entries.values().removeIf(e -> !e.persist());
  }

  /** The entry for {@code origin}, for tests. */
  Entry entry(Origin origin) {
    return entries.get(origin);
  }

  /** The first usable {@code h3} alternative of one field value, or {@code null}. */
  static Entry parse(Origin origin, String value, long now) {
    for (String alternative : split(value, ',')) {
      List<String> parts = split(alternative, ';');
      String first = parts.get(0).trim();
      int eq = first.indexOf('=');
      if (eq < 0 || !first.substring(0, eq).trim().equals("h3")) {
        continue;
      }
      String authority = unquote(first.substring(eq + 1).trim());
      int colon = authority.lastIndexOf(':');
      if (colon < 0) {
        continue;
      }
      String host = authority.substring(0, colon);
      if (!host.isEmpty() && !host.toLowerCase(Locale.ROOT).equals(origin.host())) {
        continue;
      }
      int port = number(authority.substring(colon + 1), -1);
      if (port < 1 || port > 65535) {
        continue;
      }
      long maxAge = DEFAULT_MAX_AGE_SECONDS;
      boolean persist = false;
      for (int i = 1; i < parts.size(); i++) {
        String p = parts.get(i).trim();
        int peq = p.indexOf('=');
        if (peq < 0) {
          continue;
        }
        String name = p.substring(0, peq).trim().toLowerCase(Locale.ROOT);
        String v = unquote(p.substring(peq + 1).trim());
        if (name.equals("ma")) {
          maxAge = number(v, maxAge);
        } else if (name.equals("persist")) {
          persist = v.equals("1");
        }
      }
      long ttl = TimeUnit.SECONDS.toNanos(Math.min(maxAge, TimeUnit.NANOSECONDS.toSeconds(Long.MAX_VALUE / 4)));
      return new Entry(port, now + ttl, persist);
    }
    return null;
  }

  /** Splits on {@code sep} outside double quotes. */
  private static List<String> split(String s, char sep) {
    List<String> out = new ArrayList<>();
    boolean quoted = false;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == sep && !quoted) {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    out.add(s.substring(start));
    return out;
  }

  private static String unquote(String s) {
    return s.length() >= 2 && s.charAt(0) == '"' && s.charAt(s.length() - 1) == '"' ? s.substring(1, s.length() - 1) : s;
  }

  private static long number(String s, long otherwise) {
    if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return otherwise;
    }
    return Long.parseLong(s);
  }

  private static int number(String s, int otherwise) {
    long n = number(s, (long) otherwise);
    return n > Integer.MAX_VALUE ? otherwise : (int) n;
  }
}
