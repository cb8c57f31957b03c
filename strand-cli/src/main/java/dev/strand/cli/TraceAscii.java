package dev.strand.cli;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.ResponseHead;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * curl's {@code --trace-ascii FILE}: what was sent and received, each block headed
 * {@code => Send header, N bytes (0xN)} or {@code <= Recv data, ...} and its lines numbered by offset,
 * bytes outside printable ASCII shown as dots.
 *
 * @implNote Reconstructed from the request and the responses as the client sees them (decoded field
 *     sections; HTTP/2 and HTTP/3 written in HTTP/1.1 form, as curl writes them too), not from the bytes
 *     on the wire: TLS records and HTTP/2 frames are not shown.
 */
final class TraceAscii {
  private static final int DATA_LINE = 64;
  private final PrintStream out;

  TraceAscii(PrintStream out) {
    this.out = out;
  }

  synchronized void info(String text) {
    out.println("== Info: " + text);
  }

  synchronized void sent(Request r) {
    StringBuilder head = new StringBuilder();
    String path = r.url().getRawPath() == null || r.url().getRawPath().isEmpty() ? "/" : r.url().getRawPath();
    head.append(r.method()).append(' ').append(path)
        .append(r.url().getRawQuery() == null ? "" : "?" + r.url().getRawQuery()).append(" HTTP/1.1\r\n");
    if (r.headers().first("Host") == null) {
      head.append("Host: ").append(r.url().getHost()).append(r.url().getPort() >= 0 ? ":" + r.url().getPort() : "")
          .append("\r\n");
    }
    fields(head, r.headers());
    head.append("\r\n");
    block("=> Send header", head.toString().getBytes(StandardCharsets.ISO_8859_1), true);
    byte[] body = r.body() == null ? null : r.body().bufferedBytes();
    if (body != null && body.length > 0) {
      block("=> Send data", body, false);
    }
  }

  synchronized void received(ResponseHead head) {
    String version = head.version().toString().startsWith("HTTP/2") ? "HTTP/2" : head.version().toString();
    line("<= Recv header", version + " " + head.status() + (head.reason() == null || head.reason().isEmpty()
        ? "" : " " + head.reason()) + "\r\n");
    for (int i = 0; i < head.headers().size(); i++) {
      line("<= Recv header", head.headers().name(i) + ": " + head.headers().value(i) + "\r\n");
    }
    line("<= Recv header", "\r\n");
  }

  synchronized void received(byte[] data, int length) {
    byte[] chunk = length == data.length ? data : java.util.Arrays.copyOf(data, length);
    block("<= Recv data", chunk, false);
  }

  void close() {
    out.flush();
    if (out != System.out && out != System.err) {
      out.close();
    }
  }

  private void line(String what, String text) {
    block(what, text.getBytes(StandardCharsets.ISO_8859_1), true);
  }

  private static void fields(StringBuilder sb, Headers h) {
    for (int i = 0; i < h.size(); i++) {
      sb.append(h.name(i)).append(": ").append(h.value(i)).append("\r\n");
    }
  }

  /** One block: its heading, then lines of at most 64 bytes (headers: one line each, CRLF left out). */
  private void block(String what, byte[] bytes, boolean header) {
    out.printf(Locale.ROOT, "%s, %d bytes (0x%x)%n", what, bytes.length, bytes.length);
    int start = 0;
    while (start < bytes.length) {
      int end = start;
      while (end < bytes.length && end - start < DATA_LINE && !(header && bytes[end] == '\n')) {
        end++;
      }
      if (header && end < bytes.length && bytes[end] == '\n') {
        end++;
      }
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%04x: ", start));
      for (int i = start; i < end; i++) {
        int c = bytes[i] & 0xFF;
        if (header && (c == '\r' || c == '\n')) {
          continue;
        }
        line.append(c >= 0x20 && c < 0x7F ? (char) c : '.');
      }
      out.println(line);
      start = end;
    }
  }
}
