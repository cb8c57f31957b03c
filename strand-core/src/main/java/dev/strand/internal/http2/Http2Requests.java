package dev.strand.internal.http2;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.internal.pool.Origin;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A request head as HTTP/2 header fields: pseudo-headers from the URL, names in lower case, and
 * the connection-specific fields HTTP/2 forbids (RFC 9113 8.2.2) left out. {@code Host} becomes
 * {@code :authority}; {@code Content-Length} is the transport's, as for HTTP/1.1.
 */
public final class Http2Requests {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  /**
   * Common request fields, by their usual spellings, to their HTTP/2 names: an {@link AsciiString}
   * keeps its hash, so neither the header map nor the HPACK encoder rehashes it per request, and the
   * name is not lower-cased again each time. None of them is a field HTTP/2 leaves out.
   */
  private static final Map<String, AsciiString> COMMON_NAMES = commonNames(HttpHeaderNames.ACCEPT,
      HttpHeaderNames.ACCEPT_ENCODING, HttpHeaderNames.ACCEPT_LANGUAGE, HttpHeaderNames.AUTHORIZATION,
      HttpHeaderNames.CACHE_CONTROL, HttpHeaderNames.CONTENT_ENCODING, HttpHeaderNames.CONTENT_TYPE,
      HttpHeaderNames.COOKIE, HttpHeaderNames.IF_MODIFIED_SINCE, HttpHeaderNames.IF_NONE_MATCH,
      HttpHeaderNames.ORIGIN, HttpHeaderNames.REFERER, HttpHeaderNames.USER_AGENT);

  private Http2Requests() {}

  /** @param contentLength the request's {@code Content-Length}, or -1 if it has none */
  static Http2Headers headers(Request request, Origin origin, long contentLength) {
    Http2Headers h = new DefaultHttp2Headers(false, request.headers().size() + 5);
    h.method(request.method())
        .scheme(origin.scheme())
        .authority(authority(request, origin))
        .path(target(request.url()));
    addFields(request, h);
    if (contentLength >= 0) {
      h.setLong("content-length", contentLength);
    }
    return h;
  }

  /** The {@code :authority} of a request: its {@code Host} field, else the origin's. */
  public static String authority(Request request, Origin origin) {
    String host = request.headers().first("Host");
    return host != null ? host : origin.hostHeader();
  }

  /**
   * Adds the request's fields that HTTP/2 and HTTP/3 carry (RFC 9113 8.2.2, RFC 9114 4.2) to {@code h},
   * names in lower case; pseudo-headers and {@code content-length} are the caller's.
   */
  public static void addFields(Request request, io.netty.handler.codec.Headers<CharSequence, CharSequence, ?> h) {
    Headers fields = request.headers();
    for (int i = 0, n = fields.size(); i < n; i++) {
      AsciiString common = COMMON_NAMES.get(fields.name(i));
      if (common != null) {
        h.add(common, fields.value(i));
        continue;
      }
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
  }

  /** Path and query, "/" if empty; characters the wire does not allow are percent-encoded as UTF-8. */
  public static String target(URI url) {
    String path = url.getRawPath();
    String query = url.getRawQuery();
    if (query == null && path != null && !path.isEmpty() && isWireSafe(path)) {
      return path; // the usual case, without a copy
    }
    StringBuilder sb = new StringBuilder();
    escape(sb, path == null || path.isEmpty() ? "/" : path);
    if (query != null) {
      sb.append('?');
      escape(sb, query);
    }
    return sb.toString();
  }

  private static boolean isWireSafe(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c <= ' ' || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** Each name in lower case and with every word capitalized ("user-agent", "User-Agent"). */
  private static Map<String, AsciiString> commonNames(AsciiString... names) {
    Map<String, AsciiString> m = new HashMap<>();
    for (AsciiString name : names) {
      String lower = name.toString();
      StringBuilder capitalized = new StringBuilder(lower.length());
      for (int i = 0; i < lower.length(); i++) {
        char c = lower.charAt(i);
        capitalized.append(i == 0 || lower.charAt(i - 1) == '-' ? Character.toUpperCase(c) : c);
      }
      m.put(lower, name);
      m.put(capitalized.toString(), name);
    }
    return Map.copyOf(m);
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
