package dev.strand;

import dev.strand.internal.proxy.DecoratedRoutes;
import dev.strand.internal.proxy.NoProxy;
import dev.strand.internal.proxy.ProxyRouter;
import dev.strand.internal.proxy.ProxyRoutes;
import dev.strand.internal.proxy.ProxyServer;
import dev.strand.internal.proxy.SystemRoutes;
import java.net.ProxySelector;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where requests go on their way to the server: wherever the JVM's proxy settings say
 * ({@link #system()}, the default), straight there ({@link #none()}), or through a proxy named here.
 * Set it with {@link Client.Builder#proxy} or {@link NettyTransport.Builder#proxy}.
 *
 * <p>Precedence, one rule: the {@code Proxy} given to the builder is the only one consulted. Without
 * one it is {@link #system()}: {@link java.net.ProxySelector#getDefault()}, which reads
 * {@code -Dhttps.proxyHost}, {@code -Dhttp.proxyHost}, {@code -DsocksProxyHost} and
 * {@code -Dhttp.nonProxyHosts} (a PAC library installs itself there too), as the JDK's client and OkHttp
 * do; with none of those set it answers "direct". Environment variables ({@code https_proxy},
 * {@code no_proxy}) are read only when asked, with {@link #fromEnvironment()}, as curl reads them.
 * {@code proxy(Proxy.none())} is the one-line opt-out.
 *
 * <p>Through an HTTP proxy, {@code http} requests are sent to the proxy in absolute form
 * ({@code GET http://host/path HTTP/1.1}); {@code https} requests (and HTTP/2 with prior knowledge,
 * and WebSockets) go through a {@code CONNECT} tunnel, and TLS runs end to end with the server, whose
 * certificate is verified as without a proxy. An {@code https://} proxy URL adds TLS to the proxy
 * itself, under its own trust settings ({@link #withTls}, default {@link Tls#system()}), the proxy's
 * name checked against its certificate; a tunnelled {@code https} request then runs TLS inside that
 * TLS. Through a SOCKS5 proxy every request goes through a tunnel.
 *
 * <p>A proxy's {@code 407} is answered by its {@link ProxyAuthenticator} ({@link #withAuthenticator}),
 * by default Basic with the proxy URL's {@code user:password}, sent preemptively. A proxy that cannot be
 * reached, or that refuses a tunnel, fails the request with {@link ConnectException} naming the proxy
 * (and its status line, say {@code 407 Proxy Authentication Required}); a {@code 407} to a forwarded
 * request that the authenticator cannot answer is returned as a response, as with curl.
 *
 * {@snippet :
 * Client viaProxy = Client.builder().proxy(Proxy.http("http://user:secret@127.0.0.1:3128")).build();
 * Client likeCurl = Client.builder().proxy(Proxy.fromEnvironment()).build();
 * Client direct = Client.builder().proxy(Proxy.none()).build();       // ignore -Dhttps.proxyHost
 * Client corporate = Client.builder()
 *     .proxy(Proxy.http("https://proxy.corp.example:3129")
 *         .withTls(Tls.builder().trustPem(Path.of("corp-ca.pem")).build())
 *         .withAuthenticator(ProxyAuthenticator.negotiate()))
 *     .build();
 * }
 *
 * @implNote The selector is asked each time a connection is opened, for the URL {@code scheme://host:port/}
 *     ({@code ws} as {@code http}, {@code wss} as {@code https}); its first answer is used (a SOCKS answer
 *     means SOCKS5), and a selector that throws sends the connection direct, with a warning logged to
 *     {@code dev.strand.proxy}. Pooled connections keep the route they were opened on.
 */
public final class Proxy {
  private static final Proxy NONE = new Proxy(ProxyRoutes.DIRECT);
  private static final Proxy SYSTEM = new Proxy(new SystemRoutes(null));

  final ProxyRouter routes;

  private Proxy(ProxyRouter routes) {
    this.routes = routes;
  }

  /** No proxy: every connection goes straight to the server, whatever the JVM's settings say. */
  public static Proxy none() {
    return NONE;
  }

  /**
   * The JVM's proxy settings, the default: {@link ProxySelector#getDefault()}, looked up each time a
   * connection is opened (so one installed later counts), which by default reads the standard
   * networking properties ({@code http.proxyHost}/{@code http.proxyPort}, {@code https.proxyHost}/{@code
   * https.proxyPort}, {@code socksProxyHost}/{@code socksProxyPort}, {@code http.nonProxyHosts}).
   * Without any of them every connection goes direct.
   *
   * {@snippet :
   * // java -Dhttps.proxyHost=proxy.corp.example -Dhttps.proxyPort=3128 -Dhttp.nonProxyHosts='*.corp.example' ...
   * Client client = Client.builder().build();   // Proxy.system(): https through proxy.corp.example:3128
   * }
   */
  public static Proxy system() {
    return SYSTEM;
  }

  /**
   * The proxies {@code selector} answers for each origin ({@code scheme://host:port/}): a PAC
   * library's, say. {@code DIRECT} goes direct, {@code HTTP} through an HTTP proxy, {@code SOCKS}
   * through SOCKS5; the first answer counts.
   */
  public static Proxy of(ProxySelector selector) {
    return new Proxy(new SystemRoutes(Objects.requireNonNull(selector, "selector")));
  }

  /**
   * These settings, with {@code tls} as the trust settings for the certificate of an {@code https://}
   * proxy (default {@link Tls#system()}): the proxy's own, not the servers' ({@link Client.Builder#tls}).
   * {@link Tls#insecure()} skips checking the proxy, as curl's {@code --proxy-insecure}.
   *
   * {@snippet :
   * Proxy proxy = Proxy.http("https://127.0.0.1:3129").withTls(Tls.builder().trustPem(Path.of("proxy-ca.pem")).build());
   * }
   */
  public Proxy withTls(Tls tls) {
    Objects.requireNonNull(tls, "tls");
    return decorate(tls, null);
  }

  /**
   * These settings, with {@code authenticator} answering every selected proxy's {@code 407}
   * (instead of Basic with the proxy URL's credentials).
   */
  public Proxy withAuthenticator(ProxyAuthenticator authenticator) {
    Objects.requireNonNull(authenticator, "authenticator");
    return decorate(null, authenticator);
  }

  /**
   * These settings, with a {@code CONNECT} tunnel through an HTTP proxy for {@code http} requests too, as
   * curl's {@code --proxytunnel}: the proxy sees only the host and port, never the request, and a proxy
   * that rewrites or caches forwarded requests is kept out of the exchange.
   */
  public Proxy withTunnelForAll() {
    return decorate(null, null, true);
  }

  private Proxy decorate(Tls tls, ProxyAuthenticator authenticator) {
    return decorate(tls, authenticator, false);
  }

  private Proxy decorate(Tls tls, ProxyAuthenticator authenticator, boolean tunnelAll) {
    if (this == NONE) {
      return this;
    }
    if (routes instanceof DecoratedRoutes d) {
      return new Proxy(new DecoratedRoutes(d.routes(), tls != null ? tls : d.tls(),
          authenticator != null ? authenticator : d.authenticator(), tunnelAll || d.tunnelAll()));
    }
    return new Proxy(new DecoratedRoutes(routes, tls, authenticator, tunnelAll));
  }

  /**
   * Every request through the HTTP proxy at {@code url}: {@code http://[user:password@]host[:port]}
   * (port 80 by default; user and password percent-encoded; {@code host:port} alone means http), or
   * {@code https://...} (port 443 by default) for TLS to the proxy.
   *
   * @throws InvalidUrlException if {@code url} is not such a URL
   */
  public static Proxy http(String url) {
    return single(url, "proxy URL", ProxyServer.Kind.HTTP, "Proxy.socks5");
  }

  /**
   * Every request through the SOCKS5 proxy at {@code url}: {@code socks5://[user:password@]host[:port]}
   * (port 1080 by default; {@code socks5h://} is accepted too). The proxy resolves the server's
   * name in both cases, since the name is what it is sent.
   *
   * @throws InvalidUrlException if {@code url} is not such a URL
   */
  public static Proxy socks5(String url) {
    return single(url.contains("://") ? url : "socks5://" + url, "SOCKS proxy URL", ProxyServer.Kind.SOCKS5, "Proxy.http");
  }

  /** The proxy settings of this process's environment; see {@link #fromEnvironment(Map)}. */
  public static Proxy fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * Proxy settings from environment variables, as curl reads them: {@code http_proxy} for
   * {@code http} URLs, {@code https_proxy} for {@code https} URLs, {@code all_proxy} for either when
   * its own is unset, and {@code no_proxy} for the hosts that go direct. Each may also be spelt in
   * upper case; the lower-case one wins when both are set. Values are proxy URLs as for
   * {@link #http} ({@code host:port} alone means http; {@code socks5://} and {@code socks5h://} give a
   * SOCKS5 proxy); empty values count as unset.
   *
   * <p>{@code no_proxy} is comma-separated: {@code *} for every host; a host name, which also matches
   * its subdomains (a leading {@code .} or {@code *.} is ignored); an IP literal; or a CIDR block such as
   * {@code 10.0.0.0/8}; each optionally with {@code :port}. Nothing is resolved: an address entry
   * matches only URLs whose host is an IP literal.
   *
   * <p>When {@code REQUEST_METHOD} is set (the process is a CGI script) {@code HTTP_PROXY} is
   * ignored, since a client can set it there with a {@code Proxy:} request header ("httpoxy");
   * {@code http_proxy} is still read.
   *
   * @throws InvalidUrlException naming the variable if one holds an unusable proxy URL
   */
  public static Proxy fromEnvironment(Map<String, String> env) {
    Objects.requireNonNull(env, "env");
    boolean cgi = env.get("REQUEST_METHOD") != null;
    String http = value(env, "http_proxy", cgi ? null : "HTTP_PROXY");
    String https = value(env, "https_proxy", "HTTPS_PROXY");
    String all = value(env, "all_proxy", "ALL_PROXY");
    String noProxy = value(env, "no_proxy", "NO_PROXY");
    ProxyServer forHttp = http != null ? ProxyServer.parse(http, name(env, "http_proxy", "HTTP_PROXY"))
        : all != null ? ProxyServer.parse(all, name(env, "all_proxy", "ALL_PROXY")) : null;
    ProxyServer forHttps = https != null ? ProxyServer.parse(https, name(env, "https_proxy", "HTTPS_PROXY"))
        : all != null ? ProxyServer.parse(all, name(env, "all_proxy", "ALL_PROXY")) : null;
    if (forHttp == null && forHttps == null) {
      return NONE;
    }
    return new Proxy(new ProxyRoutes(forHttp, forHttps, NoProxy.parse(noProxy)));
  }

  /**
   * The proxy a request to {@code url} would go through, without credentials (so it can be
   * logged), or empty if it would go direct: for {@code http}, {@code https}, {@code ws} and
   * {@code wss} URLs; other URLs, and relative ones, go direct.
   *
   * {@snippet :
   * Optional<URI> via = Proxy.fromEnvironment().proxyFor(URI.create("https://example.com/"));
   * }
   */
  public Optional<URI> proxyFor(URI url) {
    if (url.getScheme() == null || url.getHost() == null) {
      return Optional.empty();
    }
    int port = url.getPort() >= 0 ? url.getPort() : switch (url.getScheme().toLowerCase(java.util.Locale.ROOT)) {
      case "https", "wss" -> 443;
      default -> 80;
    };
    ProxyServer p = routes.select(url.getScheme(), url.getHost(), port);
    return p == null ? Optional.empty() : Optional.of(p.uri());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Proxy p && p.routes.equals(routes);
  }

  @Override
  public int hashCode() {
    return routes.hashCode();
  }

  /** The settings, without credentials. */
  @Override
  public String toString() {
    return this == NONE ? "Proxy[none]" : this == SYSTEM ? "Proxy[system]" : "Proxy[" + routes + "]";
  }

  private static Proxy single(String url, String source, ProxyServer.Kind kind, String other) {
    ProxyServer p = ProxyServer.parse(Objects.requireNonNull(url, "url"), source);
    if (p.kind() != kind) {
      throw new InvalidUrlException(source + ": a " + p.kind() + " proxy URL; use " + other + ": \"" + p + "\"",
          p.toString());
    }
    return new Proxy(new ProxyRoutes(p, p, NoProxy.NONE));
  }

  /** The lower-case variable if set and not empty, else the upper-case one ({@code null} to skip it). */
  private static String value(Map<String, String> env, String lower, String upper) {
    String v = env.get(lower);
    if ((v == null || v.isBlank()) && upper != null) {
      v = env.get(upper);
    }
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** The name of the variable {@link #value} read, for messages. */
  private static String name(Map<String, String> env, String lower, String upper) {
    String v = env.get(lower);
    return v != null && !v.isBlank() ? lower : upper;
  }
}
