package dev.strand.internal.proxy;

import dev.strand.InvalidUrlException;
import dev.strand.ProxyAuthenticator;
import dev.strand.Tls;
import dev.strand.internal.auth.BasicProxyAuth;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One proxy server: the protocol spoken to it, where it is, and its credentials ({@code null} when
 * none). {@link #toString()} never shows the password.
 *
 * @param secure whether the connection to the proxy itself runs TLS (an {@code https://} proxy URL)
 * @param host as in the URL; an IPv6 literal keeps its brackets
 * @param tls the trust settings for the proxy's own certificate, or {@code null} for {@link Tls#system()}
 * @param authenticator answers the proxy's 407, or {@code null}: then the URL's credentials, if any, as Basic
 * @param tunnelAll whether an HTTP proxy gets a CONNECT tunnel for {@code http} targets too (curl's
 *     {@code --proxytunnel}), instead of absolute-form requests
 */
public record ProxyServer(Kind kind, boolean secure, String host, int port, String username, String password,
    Tls tls, ProxyAuthenticator authenticator, boolean tunnelAll) {
  /** The protocol spoken to the proxy. */
  public enum Kind {
    /** Absolute-form requests for {@code http} targets, a CONNECT tunnel for the rest. */
    HTTP,
    /** A SOCKS5 tunnel for every target; the proxy resolves the target's name. */
    SOCKS5
  }

  /**
   * Parses {@code [scheme://][user:password@]host[:port][/]}: scheme {@code http} (the default),
   * {@code https}, {@code socks5} or {@code socks5h}; port 80 for http, 443 for https and 1080 for SOCKS
   * by default. User and password are percent-decoded.
   *
   * @param source what the text came from, for messages ({@code "proxy URL"}, {@code "HTTPS_PROXY"})
   * @throws InvalidUrlException for anything else
   */
  public static ProxyServer parse(String text, String source) {
    String trimmed = text.strip();
    String withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed;
    URI uri;
    try {
      uri = new URI(withScheme);
    } catch (URISyntaxException e) {
      throw invalid(source, text, "not a URL (" + e.getReason() + ")", e);
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    Kind kind = switch (scheme) {
      case "http", "https" -> Kind.HTTP;
      case "socks5", "socks5h" -> Kind.SOCKS5;
      default -> throw invalid(source, text,
          "unsupported proxy scheme \"" + scheme + "\" (use http://, https://, socks5:// or socks5h://)", null);
    };
    boolean secure = scheme.equals("https");
    if (uri.getHost() == null) {
      throw invalid(source, text, "no valid host name", null);
    }
    String path = uri.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw invalid(source, text, "a proxy URL has no path, query or fragment", null);
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : secure ? 443 : kind == Kind.HTTP ? 80 : 1080;
    String user = null;
    String password = null;
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
      password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
    }
    return new ProxyServer(kind, secure, uri.getHost().toLowerCase(Locale.ROOT), port, user, password, null, null, false);
  }

  /** An HTTP proxy found by a {@link java.net.ProxySelector}, which gives no credentials nor TLS. */
  public static ProxyServer of(Kind kind, String host, int port) {
    String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    return new ProxyServer(kind, false, h.toLowerCase(Locale.ROOT), port, null, null, null, null, false);
  }

  /** This proxy with {@code tls} for its own certificate (kept if {@code null}). */
  public ProxyServer withTls(Tls tls) {
    return tls == null ? this : new ProxyServer(kind, secure, host, port, username, password, tls, authenticator, tunnelAll);
  }

  /** This proxy answering 407s with {@code authenticator} (kept if {@code null}). */
  public ProxyServer withAuthenticator(ProxyAuthenticator authenticator) {
    return authenticator == null ? this : new ProxyServer(kind, secure, host, port, username, password, tls, authenticator, tunnelAll);
  }

  /** This proxy tunnelling every target if {@code tunnelAll} (kept as it is if not). */
  public ProxyServer withTunnelAll(boolean tunnelAll) {
    return !tunnelAll || this.tunnelAll ? this
        : new ProxyServer(kind, secure, host, port, username, password, tls, authenticator, true);
  }

  /** The authenticator for 407s: the configured one, else Basic with the URL's credentials, else {@code null}. */
  public ProxyAuthenticator auth() {
    if (authenticator != null) {
      return authenticator;
    }
    return username == null ? null : new BasicProxyAuth(username, password);
  }

  /** The host to resolve and connect to: brackets of an IPv6 literal removed. */
  public String socketHost() {
    return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
  }

  /** {@code "host:port"}, for messages. */
  public String authority() {
    return host + ":" + port;
  }

  /** The proxy's URL without credentials, safe to log: {@code http://host:port}, {@code https://...} or {@code socks5://...}. */
  public URI uri() {
    return URI.create((kind == Kind.SOCKS5 ? "socks5" : secure ? "https" : "http") + "://" + authority());
  }

  /** The trust settings for the proxy's certificate. */
  public Tls proxyTls() {
    return tls == null ? Tls.system() : tls;
  }

  @Override
  public String toString() {
    return uri().toString();
  }

  private static String decode(String s) {
    // URLDecoder would turn '+' into a space; in userinfo it is a plain '+'.
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static InvalidUrlException invalid(String source, String text, String why, Throwable cause) {
    String shown = redact(text);
    return new InvalidUrlException(source + ": " + why + ": \"" + shown + "\"", shown, cause);
  }

  /** The text with any password replaced, so that an error message does not leak it. */
  private static String redact(String text) {
    int at = text.lastIndexOf('@');
    int start = text.indexOf("://") + 3; // 2 when there is no scheme
    int colon = at < 0 ? -1 : text.indexOf(':', start < 3 ? 0 : start);
    return colon >= 0 && colon < at ? text.substring(0, colon + 1) + "***" + text.substring(at) : text;
  }
}
