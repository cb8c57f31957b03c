package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.Request;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * User information in a URL ({@code http://user:pw@host/}), as curl and browsers treat it: taken off
 * the URL, so it reaches neither the request line nor {@code Host}, and sent as Basic credentials,
 * unless the request has an Authorization header or the client an {@code Auth} (they win). Applied
 * once per call, outside redirects: a hop to another origin drops Authorization like any other.
 */
final class UrlCredentials {
  private UrlCredentials() {}

  static Request apply(Request request, boolean clientHasAuth) {
    URI url = request.url();
    String userInfo = url.getRawUserInfo();
    if (userInfo == null) {
      return request;
    }
    Headers headers = request.headers();
    if (!clientHasAuth && !headers.contains("Authorization")) {
      int colon = userInfo.indexOf(':');
      String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
      String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      headers = headers.toBuilder().set("Authorization", "Basic " + basic).build();
    }
    return Requests.with(request, request.method(), withoutUserInfo(url), headers, request.body());
  }

  static URI withoutUserInfo(URI url) {
    StringBuilder sb = new StringBuilder(64).append(url.getScheme()).append("://").append(url.getHost());
    if (url.getPort() != -1) {
      sb.append(':').append(url.getPort());
    }
    if (url.getRawPath() != null) {
      sb.append(url.getRawPath());
    }
    if (url.getRawQuery() != null) {
      sb.append('?').append(url.getRawQuery());
    }
    if (url.getRawFragment() != null) {
      sb.append('#').append(url.getRawFragment());
    }
    return URI.create(sb.toString());
  }

  /** Percent-decoding without form decoding's "+" as space: a "+" in a password is a plus. */
  private static String decode(String raw) {
    return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
