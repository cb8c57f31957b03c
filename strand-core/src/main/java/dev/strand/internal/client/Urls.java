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
    URI resolved;
    try {
      resolved = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidUrlException("cannot resolve \"" + relative + "\" against base URL " + base + ": "
          + e.getMessage(), relative.toString(), e);
    }
    String problem = portProblem(resolved);
    if (problem != null) {
      throw new InvalidUrlException("invalid URL \"" + redacted(resolved) + "\": " + problem, redacted(resolved));
    }
    return resolved;
  }

  /**
   * What is wrong with the port of {@code url}, or null: {@code java.net.URI} takes any digits, and an
   * out-of-range port would otherwise surface only when a socket address is made for it.
   */
  public static String portProblem(URI url) {
    int port = url.getPort();
    if (port == 0 || port > 65535) {
      return "port " + port + " is not between 1 and 65535";
    }
    return null;
  }

  /**
   * {@code url} as text without its user information, for messages and {@code toString()}: a
   * password in a URL must not reach logs.
   */
  public static String redacted(URI url) {
    String userInfo = url.getRawUserInfo();
    if (userInfo == null) {
      return url.toString();
    }
    String text = url.toString();
    int at = text.indexOf(userInfo + "@");
    return at < 0 ? text : text.substring(0, at) + "***@" + text.substring(at + userInfo.length() + 1);
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
