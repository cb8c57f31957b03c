package dev.strand.spi;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Version;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import javax.net.ssl.SSLSession;

/**
 * Builds the {@link StreamingResponse} that a {@link Transport} delivers: the response head as it
 * arrived, with the body still to be read from the transport's {@link ResponseBody}. The one door
 * between the two: code that layers over a transport (an adapter driving reads itself, a view that
 * decodes or counts the bytes) takes the body out with {@link #body} and puts a new one in with
 * {@link #withBody}; users read a response's body through {@link StreamingResponse#body()} and
 * {@link StreamingResponse#chunks()}, and never see a {@code ResponseBody}.
 *
 * {@snippet :
 * return CompletableFuture.completedFuture(
 *     StreamingResponses.of(request, 200, null, headers, Version.HTTP_1_1, body));
 * }
 */
public final class StreamingResponses {
  // StreamingResponse keeps its constructor private, so that the user API offers no way to wrap a raw
  // ResponseBody. This class is in the same module, where a private lookup needs no opened package;
  // a static final handle compiles to a direct call.
  private static final MethodHandle NEW;
  private static final MethodHandle BODY;
  private static final MethodHandle WITH_BODY;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(StreamingResponse.class, MethodHandles.lookup());
      NEW = lookup.findConstructor(StreamingResponse.class, MethodType.methodType(void.class, Request.class,
          int.class, String.class, Headers.class, Version.class, ResponseBody.class, SSLSession.class));
      BODY = lookup.findVirtual(StreamingResponse.class, "responseBody", MethodType.methodType(ResponseBody.class));
      WITH_BODY = lookup.findVirtual(StreamingResponse.class, "withBody",
          MethodType.methodType(StreamingResponse.class, Headers.class, ResponseBody.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private StreamingResponses() {}

  /**
   * A response received in cleartext.
   *
   * @param reason the reason phrase, or {@code null} for the standard one of {@code status}
   * @param body the body, still to be read; the response owns it from now on
   */
  public static StreamingResponse of(
      Request request, int status, String reason, Headers headers, Version version, ResponseBody body) {
    return of(request, status, reason, headers, version, body, null);
  }

  /**
   * As {@link #of(Request, int, String, Headers, Version, ResponseBody)}, received over {@code sslSession}.
   *
   * @param sslSession the TLS session the response came over, or {@code null} for cleartext
   */
  public static StreamingResponse of(Request request, int status, String reason, Headers headers, Version version,
      ResponseBody body, SSLSession sslSession) {
    try {
      return (StreamingResponse) NEW.invokeExact(request, status, reason, headers, version, body, sslSession);
    } catch (Throwable e) {
      throw rethrown(e);
    }
  }

  /** The body of {@code response}, still to be read; whoever reads it reads the response's body. */
  public static ResponseBody body(StreamingResponse response) {
    try {
      return (ResponseBody) BODY.invokeExact(response);
    } catch (Throwable e) {
      throw rethrown(e);
    }
  }

  /**
   * {@code response}'s head with other header fields and another body, for example a decompressing
   * view of its own; {@code response} is not to be read after this.
   */
  public static StreamingResponse withBody(StreamingResponse response, Headers headers, ResponseBody body) {
    try {
      return (StreamingResponse) WITH_BODY.invokeExact(response, headers, body);
    } catch (Throwable e) {
      throw rethrown(e);
    }
  }

  // invokeExact declares Throwable; the constructor and methods it calls declare no checked exception.
  private static Error rethrown(Throwable e) {
    if (e instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    return e instanceof Error error ? error : new AssertionError("no checked exception is declared", e);
  }
}
