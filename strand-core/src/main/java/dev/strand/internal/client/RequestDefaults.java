package dev.strand.internal.client;

import dev.strand.Headers;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.internal.events.CallEvents;
import dev.strand.Timeout;
import dev.strand.internal.coding.ContentEncodings;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The first step of every call: makes a user's request complete and absolute. Resolves a relative
 * URL against the base URL, adds the client's default query parameters and headers (the request's
 * own names win), {@code User-Agent}, {@code Accept-Encoding}, the body's {@code Content-Type} and
 * the client's timeout. Everything that does not depend on the request is computed once, here in
 * the constructor; a request that needs nothing is returned as is.
 */
public final class RequestDefaults {
  private final URI baseUrl;
  private final Timeout timeout;
  // Default fields flattened: names[i] = values[i]; a name may repeat.
  private final String[] names;
  private final String[] values;
  /**
   * The same fields as one {@link Headers}: what a request without fields of its own gets, shared by all of
   * them rather than copied into each (two objects less per call in flight).
   */
  private final Headers fields;
  private final String[] paramNames; // encoded, to compare with a raw query
  private final String defaultQuery; // encoded "a=1&b=2", or null
  // URL resolution is a pure function of the request URL, and parsing the result costs more than
  // the rest of this class together: remember it for the first URLs seen (most clients call a few).
  private final ConcurrentHashMap<URI, URI> resolvedUrls = new ConcurrentHashMap<>();
  static final int MAX_CACHED_URLS = 512;

  public RequestDefaults(ClientConfig config) {
    this.baseUrl = config.baseUrl();
    this.timeout = config.timeout();
    Headers defaults = config.defaultHeaders();
    List<String> n = new ArrayList<>();
    List<String> v = new ArrayList<>();
    defaults.forEach((name, value) -> {
      n.add(name);
      v.add(value);
    });
    if (config.userAgent() != null && !defaults.contains("User-Agent")) {
      n.add("User-Agent");
      v.add(config.userAgent());
    }
    if (config.decompress() && !defaults.contains("Accept-Encoding")) {
      n.add("Accept-Encoding");
      v.add(ContentEncodings.ACCEPT_ENCODING);
    }
    this.names = n.toArray(String[]::new);
    this.values = v.toArray(String[]::new);
    // Validated once, at build time, rather than failing every request.
    this.fields = Headers.of(interleave(names, values));

    List<Map.Entry<String, String>> params = config.defaultParams();
    this.paramNames = new String[params.size()];
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < params.size(); i++) {
      paramNames[i] = encode(params.get(i).getKey());
      if (i > 0) {
        q.append('&');
      }
      q.append(paramNames[i]).append('=').append(encode(params.get(i).getValue()));
    }
    this.defaultQuery = params.isEmpty() ? null : q.toString();
  }

  /**
   * The request as it will be sent.
   *
   * @throws dev.strand.InvalidUrlException for a relative URL without a base URL
   * @throws IllegalArgumentException if the body's Content-Type is not a valid header value
   */
  public Request apply(Request request) {
    return apply(request, null);
  }

  /**
   * The request as it will be sent, carrying {@code events} as its tag (when not {@code null}), in one copy.
   *
   * @throws dev.strand.InvalidUrlException for a relative URL without a base URL
   * @throws IllegalArgumentException if the body's Content-Type is not a valid header value
   */
  public Request apply(Request request, CallEvents events) {
    URI url = request.url();
    URI resolved = url.getScheme() == null || defaultQuery != null ? resolve(url) : url;
    Headers headers = request.headers();
    boolean addHeaders = false;
    for (String name : names) {
      if (!headers.contains(name)) {
        addHeaders = true;
        break;
      }
    }
    RequestBody body = request.body();
    String contentType = body == null ? null : body.contentType();
    boolean addContentType = contentType != null && !headers.contains("Content-Type");
    boolean addTimeout = request.timeout() == null;
    if (resolved == url && !addHeaders && !addContentType && !addTimeout && events == null) {
      return request;
    }
    Request.Builder b = resolved == url
        ? request.toBuilder()
        : Requests.with(request, request.method(), resolved, headers, body).toBuilder();
    if (addHeaders && headers.isEmpty()) {
      b.headers(fields);
    } else if (addHeaders) {
      for (int i = 0; i < names.length; i++) {
        if (!headers.contains(names[i])) {
          b.header(names[i], values[i]);
        }
      }
    }
    if (addContentType) {
      b.header("Content-Type", contentType);
    }
    if (addTimeout) {
      b.timeout(timeout);
    }
    if (events != null) {
      b.tag(CallEvents.class, events);
    }
    return b.build();
  }

  private URI resolve(URI url) {
    URI cached = resolvedUrls.get(url);
    if (cached != null) {
      return cached;
    }
    URI result = url.getScheme() == null ? Urls.resolve(baseUrl, url) : url;
    if (defaultQuery != null) {
      result = withDefaultParams(result);
    }
    if (resolvedUrls.size() < MAX_CACHED_URLS) {
      resolvedUrls.putIfAbsent(url, result);
    }
    return result;
  }

  private URI withDefaultParams(URI url) {
    String raw = url.getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return withRawQuery(url, defaultQuery);
    }
    StringBuilder q = new StringBuilder(raw.length() + defaultQuery.length() + 1).append(raw);
    int added = 0;
    int start = 0;
    for (int i = 0; i < paramNames.length; i++) {
      // Parameters are appended in order, so the i-th starts where the previous one ended.
      int end = defaultQuery.indexOf('&', start);
      if (end < 0) {
        end = defaultQuery.length();
      }
      if (!hasParam(raw, paramNames[i])) {
        q.append('&').append(defaultQuery, start, end);
        added++;
      }
      start = end + 1;
    }
    return added == 0 ? url : withRawQuery(url, q.toString());
  }

  /** Whether {@code rawQuery} holds a parameter named {@code name} (both encoded). */
  static boolean hasParam(String rawQuery, String name) {
    int from = 0;
    while (from <= rawQuery.length()) {
      int amp = rawQuery.indexOf('&', from);
      int end = amp < 0 ? rawQuery.length() : amp;
      int eq = rawQuery.indexOf('=', from);
      int nameEnd = eq >= 0 && eq < end ? eq : end;
      if (nameEnd - from == name.length() && rawQuery.startsWith(name, from)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  private static URI withRawQuery(URI url, String rawQuery) {
    StringBuilder sb = new StringBuilder(64).append(url.getScheme()).append("://").append(url.getRawAuthority());
    if (url.getRawPath() != null) {
      sb.append(url.getRawPath());
    }
    sb.append('?').append(rawQuery);
    if (url.getRawFragment() != null) {
      sb.append('#').append(url.getRawFragment());
    }
    return URI.create(sb.toString());
  }

  private static String encode(String s) {
    // Same encoding as Request.Builder.param, so names compare equal.
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String[] interleave(String[] names, String[] values) {
    String[] out = new String[names.length * 2];
    for (int i = 0; i < names.length; i++) {
      out[2 * i] = names[i];
      out[2 * i + 1] = values[i];
    }
    return out;
  }
}
