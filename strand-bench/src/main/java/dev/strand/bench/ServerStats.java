package dev.strand.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the testkit server's {@code /stats} over a fresh socket (Connection: close), so the bench never
 * depends on any client under test. Every read costs exactly one accepted connection: callers subtract it.
 */
public final class ServerStats {

  private static final Pattern ACCEPTED = Pattern.compile("\"accepted\"\\s*:\\s*(\\d+)");
  private static final Pattern HELD = Pattern.compile("\"held\"\\s*:\\s*(\\d+)");
  private static final Pattern CPU = Pattern.compile("\"cpuNanos\"\\s*:\\s*(\\d+)");

  // Trusts the bench CA, for reading /stats of the HTTPS server; null until a TLS scenario sets it.
  private static volatile javax.net.ssl.SSLSocketFactory tls;

  private ServerStats() {
  }

  /** Lets {@link #accepted} read {@code https} servers whose certificate this CA issued. */
  public static void trust(java.nio.file.Path caPem) {
    tls = dev.strand.bench.clients.Trust.sslContext(caPem).getSocketFactory();
  }

  /** The server's accepted-connections counter (this read's own connection included), or -1 if unknown. */
  public static long accepted(URI base) {
    // One retry: on a saturated machine a read can time out; a second failure means "unknown", not a guess.
    long n = read(base, ACCEPTED);
    return n >= 0 ? n : read(base, ACCEPTED);
  }

  /**
   * The requests the server has in hand at this moment (responses its {@code /delay} holds back), or -1 if
   * unknown. One read, not retried: it costs exactly one accepted connection, which a caller counting
   * connections subtracts.
   */
  public static int held(URI base) {
    return (int) read(base, HELD);
  }

  /**
   * The CPU time the server's process has used so far, in nanoseconds, or -1 if unknown. One read, not retried:
   * it costs exactly one accepted connection, which a caller counting connections subtracts.
   */
  public static long cpuNanos(URI base) {
    return read(base, CPU);
  }

  /**
   * The server's CPU time per request between two {@link #cpuNanos} reads, in µs, or null when either read
   * failed or no request was made.
   */
  public static Double cpuMicrosPerRequest(long before, long after, long requests) {
    return before < 0 || after < before || requests <= 0 ? null : (after - before) / 1_000.0 / requests;
  }

  /** The number {@code field} finds in the server's {@code /stats}, or -1. */
  private static long read(URI base, Pattern field) {
    boolean https = "https".equals(base.getScheme());
    if (https && tls == null) {
      return -1;
    }
    int port = base.getPort() > 0 ? base.getPort() : https ? 443 : 80;
    try (Socket raw = new Socket()) {
      raw.connect(new InetSocketAddress(base.getHost(), port), 10_000);
      raw.setSoTimeout(10_000);
      Socket s = https ? tls.createSocket(raw, base.getHost(), port, true) : raw;
      OutputStream out = s.getOutputStream();
      out.write(("GET /stats HTTP/1.1\r\nHost: " + base.getHost() + ":" + port
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.US_ASCII);
      if (!text.startsWith("HTTP/1.1 200")) {
        return -1;
      }
      Matcher m = field.matcher(text);
      return m.find() ? Long.parseLong(m.group(1)) : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Connections accepted between two reads, not counting the second read's own connection. */
  public static long between(long before, long after) {
    return before < 0 || after < 0 ? -1 : after - before - 1;
  }
}
