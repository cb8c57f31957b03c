package dev.strand.internal.client;

import dev.strand.CookieJar;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.internal.cookie.MemoryCookieJar;
import java.util.List;

/**
 * Sends the jar's cookies with each hop and stores the Set-Cookie fields of each response,
 * redirects included. A Cookie header the caller set is sent as is, without the jar's (as httpx).
 */
final class CookieStep implements HopStep {
  private final CookieJar jar;

  CookieStep(CookieJar jar) {
    this.jar = jar;
  }

  @Override
  public Request outbound(Call call, Request request) {
    if (request.headers().contains("Cookie")) {
      return request;
    }
    String cookies = MemoryCookieJar.header(jar.loadForRequest(request.url()));
    return cookies == null ? request : request.toBuilder().header("Cookie", cookies).build();
  }

  @Override
  public StreamingResponse inbound(Call call, Request sent, StreamingResponse response) {
    List<String> setCookies = response.headers().all("Set-Cookie");
    if (!setCookies.isEmpty()) {
      jar.saveFromResponse(sent.url(), setCookies);
    }
    return response;
  }
}
