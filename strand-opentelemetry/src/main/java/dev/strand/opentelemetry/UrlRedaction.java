package dev.strand.opentelemetry;

import java.net.URI;
import java.util.Set;

/**
 * {@code url.full} as the conventions want it: user info as {@code REDACTED:REDACTED}, the values of
 * sensitive query parameters as {@code REDACTED}, no fragment.
 */
final class UrlRedaction {
  static final String REDACTED = "REDACTED";

  private final Set<String> parameters;

  UrlRedaction(Set<String> parameters) {
    this.parameters = Set.copyOf(parameters);
  }

  String full(URI url) {
    StringBuilder out = new StringBuilder(64).append(url.getScheme()).append("://");
    if (url.getRawUserInfo() != null) {
      out.append(REDACTED).append(':').append(REDACTED).append('@');
    }
    out.append(url.getHost());
    if (url.getPort() >= 0) {
      out.append(':').append(url.getPort());
    }
    out.append(url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath());
    String query = url.getRawQuery();
    if (query != null) {
      out.append('?');
      appendQuery(out, query);
    }
    return out.toString();
  }

  private void appendQuery(StringBuilder out, String query) {
    int start = 0;
    while (start <= query.length()) {
      int end = query.indexOf('&', start);
      if (end < 0) {
        end = query.length();
      }
      String pair = query.substring(start, end);
      int eq = pair.indexOf('=');
      if (eq > 0 && parameters.contains(pair.substring(0, eq))) {
        out.append(pair, 0, eq + 1).append(REDACTED);
      } else {
        out.append(pair);
      }
      if (end < query.length()) {
        out.append('&');
      }
      start = end + 1;
    }
  }
}
