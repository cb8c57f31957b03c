package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.InvalidUrlException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.ResponseHead;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

/**
 * The redirect policy as a pure function: given a request and the head of its response, the next
 * request to send, or {@code null} to stop. Driven by {@link RedirectLink} for sync and async alike.
 */
public final class Redirects {
  private static final String[] BODY_HEADERS = {"Content-Type", "Content-Length", "Transfer-Encoding", "Content-Encoding"};
  private static final String[] CREDENTIAL_HEADERS = {"Authorization", "Cookie", "Proxy-Authorization", "Host"};

  private Redirects() {}

  /**
   * The request that follows {@code response}, or {@code null} if it is not a redirect to follow
   * (not 301, 302, 303, 307 or 308, or no Location).
   *
   * <ul>
   *   <li>301, 302, 303: GET without a body (HEAD stays HEAD), body headers dropped.
   *   <li>307, 308: same method and body; a one-shot body cannot be sent twice, so that fails.
   *   <li>A hop to another origin drops Authorization, Cookie, Proxy-Authorization and Host.
   * </ul>
   *
   * @throws InvalidUrlException for a Location that is not a usable http(s) URL (before any pool sees it)
   * @throws ProtocolException for an https to http hop when not allowed, a non-http(s) scheme, or a
   *     307/308 whose request body cannot be replayed
   */
  public static Request next(Request request, ResponseHead response, boolean allowHttpsToHttp) {
    int status = response.status();
    if (status != 301 && status != 302 && status != 303 && status != 307 && status != 308) {
      return null;
    }
    String location = response.headers().first("Location");
    if (location == null || location.isBlank()) {
      return null;
    }
    URI from = request.url();
    URI to = resolveLocation(from, location, request);
    if (Urls.isHttps(from) && !Urls.isHttps(to) && !allowHttpsToHttp) {
      throw new ProtocolException("refusing to follow a redirect from https to http (" + Urls.redacted(from) + " -> " + Urls.redacted(to)
          + "); Client.Builder.allowHttpsToHttpRedirect(true) allows it", request);
    }
    String method = request.method();
    RequestBody body = request.body();
    Headers.Builder headers = null;
    if (status <= 303) {
      if (!method.equals("HEAD")) {
        method = "GET";
      }
      if (body != null || hasAny(request.headers(), BODY_HEADERS)) {
        headers = request.headers().toBuilder();
        for (String name : BODY_HEADERS) {
          headers.remove(name);
        }
      }
      body = null;
    } else if (body != null && !body.isRepeatable()) {
      throw new ProtocolException("cannot follow the " + status + " redirect to " + Urls.redacted(to) + ": it must resend the "
          + "request body, which is a one-shot stream already sent; use a repeatable RequestBody (bytes, text, "
          + "file) to follow 307/308 redirects", request);
    }
    if (!Urls.sameOrigin(from, to) && hasAny(request.headers(), CREDENTIAL_HEADERS)) {
      if (headers == null) {
        headers = request.headers().toBuilder();
      }
      for (String name : CREDENTIAL_HEADERS) {
        headers.remove(name);
      }
    }
    return Requests.with(request, method, to, headers == null ? request.headers() : headers.build(), body);
  }

  /**
   * Resolves a Location value against the URL that answered with it. Servers send raw spaces and
   * UTF-8 in Location often enough that such characters are percent-encoded rather than refused.
   */
  static URI resolveLocation(URI from, String location, Request request) {
    URI target;
    try {
      target = new URI(location.strip());
    } catch (URISyntaxException e) {
      try {
        target = new URI(escape(location.strip()));
      } catch (URISyntaxException again) {
        throw new InvalidUrlException("redirect Location is not a valid URL: \"" + location + "\" (" + request + ")",
            location, again);
      }
    }
    if (target.getScheme() == null && target.getRawAuthority() == null
        && (target.getRawPath() == null || target.getRawPath().isEmpty())) {
      // A query-only or fragment-only reference keeps the path (RFC 3986 5.2.2; java.net.URI drops it).
      String path = from.getRawPath() == null || from.getRawPath().isEmpty() ? "/" : from.getRawPath();
      String query = target.getRawQuery() != null ? "?" + target.getRawQuery()
          : from.getRawQuery() != null ? "?" + from.getRawQuery() : "";
      target = URI.create(from.getScheme() + "://" + from.getRawAuthority() + path + query);
    } else if (target.getScheme() == null) {
      URI base = from.getRawPath() == null || from.getRawPath().isEmpty() ? from.resolve("/") : from;
      target = base.resolve(target);
    } else if (!target.getScheme().equalsIgnoreCase("http") && !target.getScheme().equalsIgnoreCase("https")) {
      throw new ProtocolException("redirect to a non-http(s) URL: \"" + location + "\"", request);
    }
    if (target.getHost() == null) {
      throw new InvalidUrlException("redirect Location has no host: \"" + location + "\" (" + request + ")", location);
    }
    String portProblem = Urls.portProblem(target);
    if (portProblem != null) {
      throw new InvalidUrlException("redirect Location \"" + Urls.redacted(target) + "\" is not a valid URL: "
          + portProblem + " (" + request + ")", Urls.redacted(target));
    }
    return target;
  }

  private static boolean hasAny(Headers headers, String[] names) {
    for (String name : names) {
      if (headers.contains(name)) {
        return true;
      }
    }
    return false;
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' || c == '`'
          || c == '{' || c == '|' || c == '}') {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }
}
