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
 * arrived, with the body still to be read from the transport's {@link ResponseBody}.
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
  private static final MethodHandle NEW = constructor();

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
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new AssertionError("the constructor declares no checked exception", e);
    }
  }

  private static MethodHandle constructor() {
    try {
      return MethodHandles.privateLookupIn(StreamingResponse.class, MethodHandles.lookup()).findConstructor(
          StreamingResponse.class, MethodType.methodType(void.class, Request.class, int.class, String.class,
              Headers.class, Version.class, ResponseBody.class, SSLSession.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
