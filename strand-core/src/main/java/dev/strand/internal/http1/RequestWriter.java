package dev.strand.internal.http1;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.ProxyAuthenticator;
import dev.strand.internal.exchange.RequestFraming;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes a request head straight into one buffer: no intermediate request object, no header map.
 * The transport adds {@code Host} (unless set), the body framing ({@code Content-Length}, or
 * {@code Transfer-Encoding: chunked} for an unknown length) and {@code Expect: 100-continue} when
 * asked; a user's own framing headers are dropped, since only the transport knows how it frames.
 */
final class RequestWriter {
  /** Bodies held in memory up to this size are copied into the head's buffer: one write, one packet. */
  static final int INLINE_BODY = 16 * 1024;

  private static final byte[] HTTP11_CRLF = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CHUNKED = "Transfer-Encoding: chunked\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EXPECT = "Expect: 100-continue\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private RequestWriter() {}

  /**
   * What a connection adds to every request head: its {@code Host} line and, on a connection to a
   * forwarding proxy, the absolute-form prefix of the request target and the proxy's credentials.
   *
   * @param hostLine {@code "Host: ...\r\n"} of the connection's origin
   * @param absolutePrefix {@code "http://host:port"} before the path, or {@code null} for origin form
   * @param proxy the forwarding proxy, whose authenticator is asked for a preemptive
   *     {@code Proxy-Authorization} per request, or {@code null}
   */
  record Target(byte[] hostLine, byte[] absolutePrefix, ProxyServer proxy, ProxyAuthenticator auth) {
    static Target of(Origin origin, ProxyServer forwardingProxy) {
      byte[] host = ascii("Host: " + origin.hostHeader() + "\r\n");
      if (forwardingProxy == null) {
        return new Target(host, null, null, null);
      }
      return new Target(host, ascii(origin.scheme() + "://" + origin.hostHeader()), forwardingProxy,
          forwardingProxy.auth());
    }

    /** The preemptive {@code Proxy-Authorization} for {@code request}, or {@code null}. */
    String proxyAuthorization(Request request) {
      if (auth == null) {
        return null;
      }
      try {
        URI url = request.url();
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String target = new String(absolutePrefix, StandardCharsets.ISO_8859_1) + path
            + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        return auth.authorize(proxy.uri(), request.method(), target, List.of());
      } catch (RuntimeException e) {
        return null; // a 407 asks again, off the event loop, where a failure can fail the call
      }
    }

    private static byte[] ascii(String s) {
      return s.getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  /** Whether {@link #encode} puts the body into the head's buffer: it is in memory, small, and not held back for a 100. */
  static boolean inlinesBody(Request request, boolean expectContinue) {
    byte[] buffered = request.body() == null ? null : request.body().bufferedBytes();
    return buffered != null && !expectContinue && buffered.length <= INLINE_BODY;
  }

  /** Whether the request's own {@code Connection} field asks to close the connection after it. */
  static boolean asksToClose(Request request) {
    Headers headers = request.headers();
    for (int i = 0, n = headers.size(); i < n; i++) {
      if (headers.name(i).equalsIgnoreCase("Connection")
          && headers.value(i).toLowerCase(java.util.Locale.ROOT).contains("close")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Encodes the head, plus the body if {@code inline} (as {@link #inlinesBody} decided).
   *
   * @param target the connection's part of the head
   * @param length the {@code Content-Length} when {@code framing} is {@link RequestFraming#LENGTH}
   * @return the buffer to write
   */
  static ByteBuf encode(ByteBufAllocator alloc, Request request, Target target, RequestFraming framing, long length,
      boolean expectContinue, boolean inline) {
    byte[] buffered = inline ? request.body().bufferedBytes() : null;
    Headers headers = request.headers();
    ByteBuf buf = alloc.buffer(256 + headers.size() * 32 + (inline ? buffered.length : 0));
    buf.writeCharSequence(request.method(), StandardCharsets.US_ASCII);
    buf.writeByte(' ');
    if (target.absolutePrefix() != null) {
      buf.writeBytes(target.absolutePrefix());
    }
    writeTarget(buf, request.url());
    buf.writeBytes(HTTP11_CRLF);
    boolean hasHost = false;
    boolean hasProxyAuth = false;
    for (int i = 0, n = headers.size(); i < n; i++) {
      String name = headers.name(i);
      if (name.equalsIgnoreCase("Host")) {
        hasHost = true;
      } else if (name.equalsIgnoreCase("Proxy-Authorization")) {
        hasProxyAuth = true; // the request's own wins over the proxy URL's
      }
    }
    if (!hasHost) {
      buf.writeBytes(target.hostLine());
    }
    String proxyAuthorization = hasProxyAuth ? null : target.proxyAuthorization(request);
    if (proxyAuthorization != null) {
      buf.writeCharSequence("Proxy-Authorization: ", StandardCharsets.US_ASCII);
      buf.writeCharSequence(proxyAuthorization, StandardCharsets.ISO_8859_1);
      buf.writeByte('\r').writeByte('\n');
    }
    for (int i = 0, n = headers.size(); i < n; i++) {
      String name = headers.name(i);
      if (isFraming(name) || (expectContinue && name.equalsIgnoreCase("Expect"))) {
        continue;
      }
      buf.writeCharSequence(name, StandardCharsets.ISO_8859_1);
      buf.writeByte(':').writeByte(' ');
      buf.writeCharSequence(headers.value(i), StandardCharsets.ISO_8859_1);
      buf.writeByte('\r').writeByte('\n');
    }
    if (framing == RequestFraming.LENGTH) {
      buf.writeBytes(CONTENT_LENGTH);
      writeDecimal(buf, length);
      buf.writeByte('\r').writeByte('\n');
    } else if (framing == RequestFraming.STREAMED) {
      buf.writeBytes(CHUNKED);
    }
    if (expectContinue) {
      buf.writeBytes(EXPECT);
    }
    buf.writeByte('\r').writeByte('\n');
    if (inline) {
      buf.writeBytes(buffered);
    }
    return buf;
  }

  /** Writes {@code "<hex size>\r\n"} of a chunk. */
  static void writeChunkHeader(ByteBuf buf, int size) {
    int shift = 28;
    while (shift > 0 && (size >>> shift) == 0) {
      shift -= 4;
    }
    for (; shift >= 0; shift -= 4) {
      buf.writeByte(HEX[(size >>> shift) & 0xf]);
    }
    buf.writeByte('\r').writeByte('\n');
  }

  private static boolean isFraming(String name) {
    return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding");
  }

  /** Origin-form target: raw path ("/" if empty) and raw query; non-ASCII is percent-encoded as UTF-8. */
  private static void writeTarget(ByteBuf buf, URI url) {
    String path = url.getRawPath();
    if (path == null || path.isEmpty()) {
      buf.writeByte('/');
    } else {
      writeAsciiEscaped(buf, path);
    }
    String query = url.getRawQuery();
    if (query != null) {
      buf.writeByte('?');
      writeAsciiEscaped(buf, query);
    }
  }

  private static void writeAsciiEscaped(ByteBuf buf, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c > ' ' && c < 0x7f) {
        buf.writeByte(c);
      } else {
        // URI allows "other" characters raw; the wire does not.
        int end = i + 1;
        if (Character.isHighSurrogate(c) && end < n) {
          end++;
        }
        for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
          buf.writeByte('%').writeByte(HEX_UPPER[(b >> 4) & 0xf]).writeByte(HEX_UPPER[b & 0xf]);
        }
        i = end - 1;
      }
    }
  }

  private static void writeDecimal(ByteBuf buf, long v) {
    if (v < 10) {
      buf.writeByte('0' + (int) v);
      return;
    }
    buf.writeCharSequence(Long.toString(v), StandardCharsets.US_ASCII);
  }
}
