package dev.strand.internal.exchange;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.PoolTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.TransportException;
import dev.strand.WriteTimeoutException;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import dev.strand.internal.proxy.TunnelFailure;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.io.IOException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

/** Turns Netty and socket failures into Strand's exceptions, with messages that name what failed. */
public final class ErrorMapper {
  private ErrorMapper() {}

  /** A failure to open a connection to {@code origin}. */
  public static HttpException connect(Throwable cause, Request request, Origin origin) {
    if (cause instanceof HttpException e) {
      return e.request() == request ? e : sameKind(e, request);
    }
    return unreachable(cause, request, origin.socketHost() + ":" + origin.port());
  }

  /** The Unix domain socket could not be connected to (missing, not a socket, refused). */
  public static HttpException unixSocketUnreachable(Throwable cause, java.nio.file.Path socket, Request request) {
    return unreachable(cause, request, "unix socket " + socket);
  }

  /** The proxy could not be reached (resolved, connected to). */
  public static HttpException proxyUnreachable(Throwable cause, ProxyServer proxy, Request request) {
    return unreachable(cause, request, "proxy " + proxy.authority());
  }

  /** A failure to reach {@code where} ({@code "host:port"}, {@code "proxy host:port"}), worded for the user. */
  public static HttpException unreachable(Throwable cause, Request request, String where) {
    if (cause instanceof io.netty.channel.ConnectTimeoutException) {
      var limit = request == null || request.timeout() == null ? null : request.timeout().connect();
      return new ConnectTimeoutException("connect to " + where + " timed out"
          + (limit == null ? "" : " after " + seconds(limit.toNanos())) + suffix(request), request, cause);
    }
    return new ConnectException("cannot connect to " + where + ": " + why(cause) + suffix(request), request, cause);
  }

  /** No address of {@code where} could be connected to; {@code detail} names each and why. */
  public static HttpException everyAddressFailed(String detail, boolean timedOut, Request request, String where) {
    if (timedOut) {
      var limit = request == null || request.timeout() == null ? null : request.timeout().connect();
      return new ConnectTimeoutException("connect to " + where + " timed out"
          + (limit == null ? "" : " after " + seconds(limit.toNanos())) + ": " + detail + suffix(request), request);
    }
    return new ConnectException("cannot connect to " + where + ": " + detail + suffix(request), request);
  }

  /** The proxy did not open the tunnel: it answered CONNECT with an error status, or SOCKS with a failure. */
  public static ConnectException tunnelFailed(Throwable cause, ProxyServer proxy, Origin origin, Request request) {
    if (cause instanceof TunnelFailure f) { // our own CONNECT handler's, worded to follow the colon
      return new ConnectException("proxy " + proxy.authority() + (f.refused() ? " refused the tunnel to " : " failed to open a tunnel to ")
          + origin.socketHost() + ":" + origin.port() + ": " + f.getMessage() + suffix(request), request, cause);
    }
    // Netty's SOCKS handler words it "socks5, none, /127.0.0.1:1080 => host:443, ...".
    String m = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    int arrow = m.indexOf(" => ");
    int comma = arrow < 0 ? -1 : m.indexOf(", ", arrow);
    String detail = comma < 0 ? m : m.substring(comma + 2);
    if (detail.equals("disconnected")) {
      detail = "it closed the connection before the tunnel was open";
    }
    String verb = " failed to open a tunnel to ";
    return new ConnectException("proxy " + proxy.authority() + verb + origin.socketHost() + ":" + origin.port() + ": "
        + (detail.startsWith("status: ") ? detail.substring(8) : detail) + suffix(request), request, cause);
  }

  public static ConnectTimeoutException tunnelTimeout(ProxyServer proxy, Origin origin, java.time.Duration limit, Request request) {
    return new ConnectTimeoutException("connect to " + origin.socketHost() + ":" + origin.port() + " through proxy "
        + proxy.authority() + " timed out after " + seconds(limit.toNanos()) + suffix(request), request);
  }

  /** The cause of a failed connect in a few words. */
  public static String why(Throwable cause) {
    if (cause instanceof UnknownHostException u && u.getMessage() != null && u.getMessage().contains(" ")) {
      return "unknown host (" + u.getMessage() + ")"; // a resolver's own words: what was wrong, not just the name
    } else if (cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
      return "unknown host";
    } else if (cause instanceof java.net.ConnectException && cause.getMessage() != null
        && cause.getMessage().contains("refused")) {
      return "connection refused";
    }
    return cause.getMessage() != null ? cause.getMessage() : cause.toString();
  }

  private static String suffix(Request request) {
    return request == null ? "" : " (" + request + ")";
  }

  /** The same kind of exception as {@code e}, attributed to {@code request}. */
  static TransportException sameKind(HttpException e, Request request) {
    String m = e.getMessage();
    if (e instanceof dev.strand.TlsException t) {
      return new dev.strand.TlsException(t.reason(), m, request, e);
    }
    if (e instanceof ConnectTimeoutException) {
      return new ConnectTimeoutException(m, request, e);
    }
    if (e instanceof ConnectException) {
      return new ConnectException(m, request, e);
    }
    if (e instanceof ProtocolException) {
      return new ProtocolException(m, request, e);
    }
    return new TransportException(m, request, e);
  }

  /**
   * The TLS context could not be built (the system trust store is unreadable, say), or not within the
   * request's connect timeout (a {@link java.util.concurrent.TimeoutException}).
   */
  public static HttpException tlsSetup(Throwable error, Request request) {
    Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
        ? error.getCause() : error;
    if (cause instanceof java.util.concurrent.TimeoutException) {
      return new ConnectTimeoutException("setting up TLS (building the trust store and context) took longer than "
          + "the connect timeout (" + request + ")", request, cause);
    }
    return new dev.strand.TlsException(dev.strand.TlsException.Reason.OTHER,
        "cannot set up TLS: " + cause.getMessage() + " (" + request + ")", request, cause);
  }

  public static ReadTimeoutException readTimeout(Request request, long nanos) {
    return new ReadTimeoutException("read timed out after " + seconds(nanos) + " (" + request + ")", request);
  }

  static WriteTimeoutException writeTimeout(Request request, long nanos) {
    return new WriteTimeoutException("write timed out after " + seconds(nanos) + " (" + request + ")", request);
  }

  static PoolTimeoutException poolTimeout(Request request, long nanos, Origin origin) {
    return new PoolTimeoutException("no connection to " + origin + " became free within " + seconds(nanos)
        + " (" + request + ")", request);
  }

  /** The response decoder rejected the response head or body. */
  public static ProtocolException malformed(Throwable cause, Request request, int maxHeaderSize, boolean inBody) {
    String what;
    if (cause instanceof TooLongHttpHeaderException) {
      what = "response headers exceed the limit of " + maxHeaderSize + " bytes (maxHeaderSize)";
    } else if (cause instanceof TooLongHttpLineException) {
      what = "response status line is too long";
    } else if (cause instanceof TooLongFrameException) {
      what = "response " + (inBody ? "body framing" : "head") + " too long: " + cause.getMessage();
    } else {
      what = "malformed response " + (inBody ? "body (chunk framing or trailer section)" : "head") + ": "
          + cause.getMessage();
    }
    return new ProtocolException(what + " (" + request + ")", request, cause);
  }

  /** Bytes came beyond the end of a response, where no request asked for them. */
  public static ProtocolException strayBytes(Request request) {
    return new ProtocolException("server sent bytes beyond the end of the response (" + request + ")", request);
  }

  public static ProtocolException tooManyInterim(Request request, int limit) {
    return new ProtocolException("server sent more than " + limit + " interim (1xx) responses without a final one ("
        + request + ")", request);
  }

  public static ProtocolException noResponse(Request request) {
    return new ProtocolException("server closed the connection without a response (" + request + ")", request);
  }

  public static ProtocolException truncated(Request request, long received, long expected) {
    return new ProtocolException("connection closed before the end of the response body (received " + received
        + (expected >= 0 ? " of " + expected : "") + " bytes) (" + request + ")", request);
  }

  /** A socket error while the exchange was in flight. */
  public static TransportException io(Throwable cause, Request request) {
    if (cause instanceof HttpException e) {
      return e instanceof TransportException t && e.request() == request ? t : sameKind(e, request);
    }
    String m = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    return new TransportException((cause instanceof IOException ? "I/O error: " : "") + m + " (" + request + ")", request, cause);
  }

  /** An HTTP/2 error code by its RFC 9113 name ({@code FLOW_CONTROL_ERROR}), or {@code "error code N"}. */
  public static String h2Error(long code) {
    io.netty.handler.codec.http2.Http2Error error = io.netty.handler.codec.http2.Http2Error.valueOf(code);
    return error == null ? "error code " + code : error.name();
  }

  /** A GOAWAY's debug data as text for a message ({@code ": text"}), or {@code ""} if it has none that prints. */
  public static String goAwayText(io.netty.buffer.ByteBuf debugData) {
    int n = Math.min(debugData.readableBytes(), 200);
    String text = debugData.toString(debugData.readerIndex(), n, java.nio.charset.StandardCharsets.US_ASCII);
    return !text.isEmpty() && text.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? ": " + text : "";
  }

  /** Seconds with one decimal, e.g. {@code "5.0 s"}. */
  public static String seconds(long nanos) {
    long tenths = Math.round(nanos / 100_000_000.0);
    return (tenths / 10) + "." + (tenths % 10) + " s";
  }
}
