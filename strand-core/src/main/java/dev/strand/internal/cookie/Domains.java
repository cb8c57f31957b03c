package dev.strand.internal.cookie;

/** Domain and path matching of RFC 6265 sections 5.1.3 and 5.1.4. */
final class Domains {
  private Domains() {}

  /** Whether {@code host} (canonical) domain-matches {@code domain}: equal, or a subdomain of it (not for IPs). */
  static boolean domainMatch(String host, String domain) {
    if (host.equals(domain)) {
      return true;
    }
    return host.length() > domain.length()
        && host.endsWith(domain)
        && host.charAt(host.length() - domain.length() - 1) == '.'
        && !isIpAddress(host);
  }

  /**
   * Whether {@code domain} is a public suffix ({@code com}, {@code co.uk}, {@code local}), which may not
   * be a cookie's Domain; by the bundled Public Suffix List.
   */
  static boolean isPublicSuffix(String domain) {
    return PublicSuffixes.isPublicSuffix(domain);
  }

  static boolean isIpAddress(String host) {
    if (host.startsWith("[") || host.indexOf(':') >= 0) {
      return true;
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c != '.' && (c < '0' || c > '9')) {
        return false;
      }
    }
    return !host.isEmpty();
  }

  /** Whether a cookie with {@code cookiePath} is sent to {@code requestPath}. */
  static boolean pathMatch(String requestPath, String cookiePath) {
    if (!requestPath.startsWith(cookiePath)) {
      return false;
    }
    return requestPath.length() == cookiePath.length()
        || cookiePath.endsWith("/")
        || requestPath.charAt(cookiePath.length()) == '/';
  }

  /** The directory of a request path: the path a cookie without a Path attribute gets. */
  static String defaultPath(String requestPath) {
    if (requestPath == null || requestPath.isEmpty() || requestPath.charAt(0) != '/') {
      return "/";
    }
    int last = requestPath.lastIndexOf('/');
    return last == 0 ? "/" : requestPath.substring(0, last);
  }
}
