package dev.strand.internal.http1;

import dev.strand.Headers;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Netty's response decoder, made strict about where a response begins and ends.
 *
 * <ul>
 *   <li>It is told directly whether the current request is a HEAD: we encode requests ourselves (one
 *       buffer, no intermediate objects), so the method queue of {@code HttpClientCodec} is not there.
 *   <li>It decodes only while a response is expected ({@link #expectResponse}, set when a request is
 *       written). Bytes beyond the end of a final response, or on an idle connection, are never parsed
 *       as a response: a server sending them is confused (a body after a 204 or a HEAD answer, more
 *       than Content-Length), and reading them as the next response would hand one request another's
 *       bytes. They are dropped, {@link #sawStrayBytes} is set, and a {@link #STRAY_BYTES} marker goes
 *       down the pipeline so the connection closes instead of being reused.
 *   <li>The status line must be {@code HTTP/1.0} or {@code HTTP/1.1} and a code of three digits from
 *       100 to 999 (RFC 9112 section 4); anything else is a malformed head, never a response.
 *   <li>A header field is a name, optional spaces, a colon and a value; anything else is malformed.
 *   <li>Transfer-Encoding follows RFC 9112 strictly: with Content-Length, in HTTP/1.0, or with chunked
 *       not last, the head is malformed (each a sign of request smuggling or response splitting).
 *   <li>A 101 has no content. To a request that asked to switch protocols it is the last thing decoded:
 *       the bytes behind it belong to the new protocol, and stay in the buffer until this decoder is
 *       removed from the pipeline, which hands them to the next handler.
 * </ul>
 *
 * Header validation is left to {@link dev.strand.Headers}, which checks every field anyway.
 */
public final class ResponseDecoder extends HttpResponseDecoder {
  /** Passed down the pipeline when bytes arrive that no request asked for (they have been dropped). */
  static final Object STRAY_BYTES = new Object() {
    @Override
    public String toString() {
      return "STRAY_BYTES";
    }
  };

  /** Set on the event loop before each request is written. */
  boolean headRequest;
  /** Whether bytes arrived that belong to no response: the connection must not carry another exchange. */
  boolean sawStrayBytes;
  private boolean expectingResponse;
  private boolean informational;
  /** The current request asked to switch protocols. */
  private boolean upgradeAsked;
  /** The server switched protocols: nothing more is HTTP. */
  private boolean switched;

  ResponseDecoder(int maxHeaderSize) {
    super(new HttpDecoderConfig()
        .setMaxHeaderSize(maxHeaderSize)
        .setMaxInitialLineLength(8192)
        .setMaxChunkSize(64 * 1024)
        .setUseRfc9112TransferEncoding(true)
        .setHeadersFactory(DefaultHttpHeadersFactory.headersFactory().withValidation(false)));
  }

  /**
   * A request has been written: the next bytes are its response (event loop).
   *
   * @param upgrade whether the request asks to switch protocols
   */
  void expectResponse(boolean head, boolean upgrade) {
    headRequest = head;
    upgradeAsked = upgrade;
    expectingResponse = true;
    informational = false;
  }

  /** The header fields of a decoded response, checked by {@link Headers.Builder#add}. */
  public static Headers headers(HttpResponse response) {
    Headers.Builder b = Headers.builder();
    Iterator<Map.Entry<CharSequence, CharSequence>> it = response.headers().iteratorCharSequence();
    while (it.hasNext()) {
      Map.Entry<CharSequence, CharSequence> e = it.next();
      b.add(name(e.getKey()), e.getValue().toString());
    }
    return b.build();
  }

  /**
   * Common field names as the decoder produces them (a new {@link AsciiString} each), to one shared
   * String: converting each name was the largest allocation per response in a JFR profile.
   */
  private static final Map<AsciiString, String> COMMON_NAMES = commonNames("Content-Length", "Content-Type", "Date",
      "Server", "Connection", "Keep-Alive", "Transfer-Encoding", "Content-Encoding", "Cache-Control", "ETag",
      "Last-Modified", "Expires", "Vary", "Set-Cookie", "Location", "Age", "Accept-Ranges", "Alt-Svc", "Via",
      "content-length", "content-type", "date", "server", "connection", "transfer-encoding", "content-encoding",
      "cache-control", "etag", "last-modified", "vary", "set-cookie", "location");

  private static Map<AsciiString, String> commonNames(String... names) {
    Map<AsciiString, String> m = new java.util.HashMap<>();
    for (String n : names) {
      m.put(AsciiString.of(n), n);
    }
    return Map.copyOf(m);
  }

  /** The name as a String: a shared one for a common name spelled as usual, else a copy. */
  private static String name(CharSequence name) {
    if (name instanceof AsciiString a) {
      String common = COMMON_NAMES.get(a);
      if (common != null) {
        return common;
      }
    }
    return name.toString();
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
    if (switched) {
      return; // left for the new protocol's handlers
    }
    if (!expectingResponse) {
      dropStrayBytes(buffer, out);
      return;
    }
    int from = out.size();
    super.decode(ctx, buffer, out);
    for (int i = from; i < out.size(); i++) {
      Object part = out.get(i);
      if (part instanceof HttpResponse r) {
        int code = r.status().code();
        informational = code >= 100 && code < 200 && code != 101;
        if (code == 101 && upgradeAsked) {
          switched = true; // its empty end is in out already: isContentAlwaysEmpty
          expectingResponse = false;
          return;
        }
      }
      if (part instanceof LastHttpContent && !informational) {
        // The final response is complete; what follows in this buffer was sent beyond its end.
        expectingResponse = false;
        if (buffer.isReadable()) {
          dropStrayBytes(buffer, out);
        }
        return;
      }
    }
  }

  private void dropStrayBytes(ByteBuf buffer, List<Object> out) {
    if (buffer.isReadable()) {
      buffer.skipBytes(buffer.readableBytes());
      if (!sawStrayBytes) {
        sawStrayBytes = true;
        out.add(STRAY_BYTES);
      }
    }
  }

  @Override
  protected HttpMessage createMessage(String[] initialLine) {
    String version = initialLine[0];
    String code = initialLine[1];
    if (!version.equals("HTTP/1.1") && !version.equals("HTTP/1.0")) {
      throw new IllegalArgumentException("status line " + quote(initialLine)
          + " does not begin with the version HTTP/1.1 or HTTP/1.0 (the connection speaks HTTP/1.1)");
    }
    if (code.length() != 3 || !isDigit(code.charAt(0)) || code.charAt(0) == '0' || !isDigit(code.charAt(1))
        || !isDigit(code.charAt(2))) {
      throw new IllegalArgumentException("status line " + quote(initialLine)
          + " has no status code of three digits from 100 to 999");
    }
    return super.createMessage(initialLine);
  }

  /**
   * Netty ends a response field's name at the first space and then looks for the colon anywhere
   * after it, so {@code Not A Header} became a field {@code Not} and {@code X Thing: 1} a field
   * {@code X}. Only spaces may stand between a name and its colon (RFC 9112 section 5.1 lets a
   * client repair that much); any other byte there, or no colon, makes the line malformed.
   */
  @Override
  protected AsciiString splitHeaderName(byte[] line, int start, int length) {
    int i = start + length;
    while (i < line.length && (line[i] == ' ' || line[i] == '\t')) {
      i++;
    }
    if (i >= line.length || line[i] != ':') {
      throw new IllegalArgumentException("malformed header line: no colon after the field name '"
          + new String(line, start, Math.min(length, 100), StandardCharsets.ISO_8859_1) + "'");
    }
    return super.splitHeaderName(line, start, length);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static String quote(String[] initialLine) {
    String line = (initialLine[0] + " " + initialLine[1] + " " + initialLine[2]).strip();
    return "'" + (line.length() > 100 ? line.substring(0, 100) + "..." : line) + "'";
  }

  @Override
  protected boolean isContentAlwaysEmpty(HttpMessage msg) {
    if (msg instanceof HttpResponse r && (r.status().code() == 101 || (headRequest && r.status().code() >= 200))) {
      return true; // Netty would read a 101 without Sec-WebSocket-Accept to the end of the connection
    }
    return super.isContentAlwaysEmpty(msg);
  }

  /** Never Netty's raw pass-through after a 101: an upgrade's bytes wait for its handlers (see {@link #decode}). */
  @Override
  protected boolean isSwitchingToNonHttp1Protocol(HttpResponse msg) {
    return false;
  }
}
