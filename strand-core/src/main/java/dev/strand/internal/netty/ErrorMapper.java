package dev.strand.internal.netty;

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
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.io.IOException;
import java.nio.channels.UnresolvedAddressException;
import java.net.UnknownHostException;

/** Turns Netty and socket failures into Strand's exceptions, with messages that name what failed. */
final class ErrorMapper {
  private ErrorMapper() {}

  /** A failure to open a connection to {@code origin}. */
  static HttpException connect(Throwable cause, Request request, Origin origin) {
    if (cause instanceof HttpException e) {
      return e.request() == request ? e : sameKind(e, request);
    }
    String where = origin.socketHost() + ":" + origin.port();
    if (cause instanceof io.netty.channel.ConnectTimeoutException) {
      var limit = request.timeout() == null ? null : request.timeout().connect();
      return new ConnectTimeoutException("connect to " + where + " timed out"
          + (limit == null ? "" : " after " + seconds(limit.toNanos())) + " (" + request + ")", request, cause);
    }
    String why;
    if (cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
      why = "unknown host";
    } else if (cause instanceof java.net.ConnectException && cause.getMessage() != null
        && cause.getMessage().contains("refused")) {
      why = "connection refused";
    } else {
      why = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
    return new ConnectException("cannot connect to " + where + ": " + why + " (" + request + ")", request, cause);
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

  /** The TLS context could not be built (the system trust store is unreadable, say). */
  static dev.strand.TlsException tlsSetup(Throwable error, Request request) {
    return new dev.strand.TlsException(dev.strand.TlsException.Reason.OTHER,
        "cannot set up TLS: " + error.getMessage() + " (" + request + ")", request, error);
  }

  static ReadTimeoutException readTimeout(Request request, long nanos) {
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
  static ProtocolException malformed(Throwable cause, Request request, int maxHeaderSize, boolean inBody) {
    String what;
    if (cause instanceof TooLongHttpHeaderException) {
      what = "response headers exceed the limit of " + maxHeaderSize + " bytes (maxHeaderSize)";
    } else if (cause instanceof TooLongHttpLineException) {
      what = "response status line is too long";
    } else if (cause instanceof TooLongFrameException) {
      what = "response " + (inBody ? "body framing" : "head") + " too long: " + cause.getMessage();
    } else {
      what = "malformed response " + (inBody ? "body" : "head") + ": " + cause.getMessage();
    }
    return new ProtocolException(what + " (" + request + ")", request, cause);
  }

  static ProtocolException noResponse(Request request) {
    return new ProtocolException("server closed the connection without a response (" + request + ")", request);
  }

  static ProtocolException truncated(Request request, long received, long expected) {
    return new ProtocolException("connection closed before the end of the response body (received " + received
        + (expected >= 0 ? " of " + expected : "") + " bytes) (" + request + ")", request);
  }

  /** A socket error while the exchange was in flight. */
  static TransportException io(Throwable cause, Request request) {
    if (cause instanceof HttpException e) {
      return e instanceof TransportException t && e.request() == request ? t : sameKind(e, request);
    }
    String m = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    return new TransportException((cause instanceof IOException ? "I/O error: " : "") + m + " (" + request + ")", request, cause);
  }

  /** Seconds with one decimal, e.g. {@code "5.0 s"}. */
  static String seconds(long nanos) {
    long tenths = Math.round(nanos / 100_000_000.0);
    return (tenths / 10) + "." + (tenths % 10) + " s";
  }
}
