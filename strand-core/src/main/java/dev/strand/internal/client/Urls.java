package dev.strand.internal.client;

import dev.strand.InvalidUrlException;
import java.net.URI;

/** URL arithmetic of the request path: base URL merging and origins. Pure functions. */
public final class Urls {
  private Urls() {}

  /**
   * Resolves a URL without a scheme against the client's base URL, as httpx merges them: the base
   * path always acts as a directory and the relative path is appended to it, so both
   * {@code http://h/api} + {@code /users} and {@code http://h/api/} + {@code users} give
   * {@code http://h/api/users}. A network-path reference ({@code //host/path}) takes only the
   * base's scheme.
   *
   * @throws InvalidUrlException if {@code base} is {@code null}
   */
  public static URI resolve(URI base, URI relative) {
    if (base == null) {
      String text = relative.toString();
      throw new InvalidUrlException("relative URL \"" + text + "\" needs an absolute URL or a client baseUrl", text);
    }
    StringBuilder sb = new StringBuilder(64).append(base.getScheme()).append("://");
    String relPath = relative.getRawPath() == null ? "" : relative.getRawPath();
    if (relative.getRawAuthority() != null) {
      sb.append(relative.getRawAuthority()).append(relPath);
    } else {
      sb.append(base.getRawAuthority());
      String basePath = base.getRawPath() == null || base.getRawPath().isEmpty() ? "/" : base.getRawPath();
      sb.append(basePath);
      if (basePath.charAt(basePath.length() - 1) != '/') {
        sb.append('/');
      }
      int start = 0;
      while (start < relPath.length() && relPath.charAt(start) == '/') {
        start++;
      }
      sb.append(relPath, start, relPath.length());
    }
    if (relative.getRawQuery() != null) {
      sb.append('?').append(relative.getRawQuery());
    }
    if (relative.getRawFragment() != null) {
      sb.append('#').append(relative.getRawFragment());
    }
    String text = sb.toString();
    try {
      return URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidUrlException("cannot resolve \"" + relative + "\" against base URL " + base + ": "
          + e.getMessage(), relative.toString(), e);
    }
  }

  /** Same scheme, host and effective port (RFC 6454). */
  public static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  /** The explicit port, else 443 for https and 80 for http. */
  public static int port(URI uri) {
    if (uri.getPort() != -1) {
      return uri.getPort();
    }
    return isHttps(uri) ? 443 : 80;
  }

  public static boolean isHttps(URI uri) {
    return "https".equalsIgnoreCase(uri.getScheme());
  }
}
