package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.CookieJar;
import dev.strand.internal.cookie.MemoryCookieJar;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Sends the jar's cookies with each hop and stores the Set-Cookie fields of each response,
 * redirects included. A Cookie header the caller set is sent as is, without the jar's (as httpx).
 */
final class CookieLink implements Link {
  private final CookieJar jar;
  private final Link next;

  CookieLink(CookieJar jar, Link next) {
    this.jar = jar;
    this.next = next;
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    Request toSend = request;
    if (!request.headers().contains("Cookie")) {
      String cookies = MemoryCookieJar.header(jar.loadForRequest(request.url()));
      if (cookies != null) {
        toSend = request.toBuilder().header("Cookie", cookies).build();
      }
    }
    return next.proceed(call, toSend).thenApply(r -> {
      List<String> setCookies = r.headers().all("Set-Cookie");
      if (!setCookies.isEmpty()) {
        jar.saveFromResponse(request.url(), setCookies);
      }
      return r;
    });
  }
}
