package dev.strand.internal.netty;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.internal.pool.Origin;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A request head as HTTP/2 header fields: pseudo-headers from the URL, names in lower case, and
 * the connection-specific fields HTTP/2 forbids (RFC 9113 8.2.2) left out. {@code Host} becomes
 * {@code :authority}; {@code Content-Length} is the transport's, as for HTTP/1.1.
 */
final class Http2Requests {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Http2Requests() {}

  /** @param length as {@link RequestWriter#framedLength}: {@code -1} unknown, {@code -2} no body */
  static Http2Headers headers(Request request, Origin origin, long length) {
    Headers fields = request.headers();
    String authority = fields.first("Host");
    Http2Headers h = new DefaultHttp2Headers(false, fields.size() + 5);
    h.method(request.method())
        .scheme(origin.scheme())
        .authority(authority != null ? authority : origin.hostHeader())
        .path(target(request.url()));
    for (int i = 0, n = fields.size(); i < n; i++) {
      String name = fields.name(i).toLowerCase(Locale.ROOT);
      switch (name) {
        case "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
            "content-length", "expect" -> {
          continue;
        }
        case "te" -> {
          if (!fields.value(i).trim().equalsIgnoreCase("trailers")) {
            continue;
          }
        }
        default -> { }
      }
      h.add(name, fields.value(i));
    }
    if (length >= 0) {
      h.setLong("content-length", length);
    }
    return h;
  }

  /** Path and query, "/" if empty; characters the wire does not allow are percent-encoded as UTF-8. */
  static String target(URI url) {
    String path = url.getRawPath();
    String query = url.getRawQuery();
    StringBuilder sb = new StringBuilder();
    escape(sb, path == null || path.isEmpty() ? "/" : path);
    if (query != null) {
      sb.append('?');
      escape(sb, query);
    }
    return sb.toString();
  }

  private static void escape(StringBuilder sb, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c > ' ' && c < 0x7f) {
        sb.append(c);
      } else {
        int end = i + 1;
        if (Character.isHighSurrogate(c) && end < n) {
          end++;
        }
        for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
          sb.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
        i = end - 1;
      }
    }
  }
}
