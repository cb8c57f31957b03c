package dev.strand.internal.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The routes a {@link ProxySelector} gives: the JVM's default one ({@code selector} {@code null},
 * looked up on each use so that a {@link ProxySelector#setDefault} later counts), which reads
 * {@code http.proxyHost}, {@code https.proxyHost}, {@code socksProxyHost} and {@code http.nonProxyHosts}
 * (and the desktop's settings with {@code java.net.useSystemProxies}), or a given one (a PAC library's).
 * The first usable answer is taken; a SOCKS answer means SOCKS5. A selector that throws sends the
 * connection direct, as browsers do when a PAC script fails, with a warning.
 *
 * <p>The engine asks for every HTTPS request (whether it may share a connection, whether it goes over QUIC),
 * so the common case is answered without the selector: the JDK's own selector with none of its proxy hosts set
 * and no desktop settings answers direct, and building a {@link URI} to hear it so cost a few percent of an
 * HTTP/3 request's CPU.
 */
public record SystemRoutes(ProxySelector selector) implements ProxyRouter {
  private static final System.Logger LOG = System.getLogger("dev.strand.proxy");

  @Override
  public ProxyServer select(String scheme, String host, int port) {
    ProxySelector s = selector != null ? selector : ProxySelector.getDefault();
    if (s == null || selector == null && JdkSelector.answersDirect(s)) {
      return null;
    }
    String asked = switch (scheme.toLowerCase(Locale.ROOT)) {
      case "http", "ws" -> "http";
      case "https", "wss" -> "https";
      default -> null;
    };
    if (asked == null) {
      return null;
    }
    List<java.net.Proxy> answers;
    try {
      String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
      answers = s.select(new URI(asked, null, h, port, "/", null, null));
    } catch (URISyntaxException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the proxy selector " + s + " failed for " + asked + "://" + host + ":" + port
          + "; connecting directly", e);
      return null;
    }
    for (java.net.Proxy p : answers == null ? List.<java.net.Proxy>of() : answers) {
      if (p.type() == java.net.Proxy.Type.DIRECT) {
        return null;
      }
      if (p.address() instanceof InetSocketAddress a) {
        return ProxyServer.of(p.type() == java.net.Proxy.Type.SOCKS ? ProxyServer.Kind.SOCKS5 : ProxyServer.Kind.HTTP,
            a.getHostString(), a.getPort());
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return selector == null ? "system" : "selector " + selector;
  }

  /**
   * What the JDK's own selector reads ({@code sun.net.spi.DefaultProxySelector}): a host property per scheme
   * ({@code http.proxyHost} or {@code proxyHost}, {@code https.proxyHost}, {@code socksProxyHost} for both), looked
   * up in the system properties and then in {@code conf/net.properties}, and the desktop's settings when
   * {@code java.net.useSystemProxies} is true. With none of those it answers direct whatever the URI.
   */
  private static final class JdkSelector {
    private static final String CLASS = "sun.net.spi.DefaultProxySelector";
    private static final List<String> SETTINGS =
        List.of("http.proxyHost", "https.proxyHost", "proxyHost", "socksProxyHost");
    /** {@code conf/net.properties}, which the JDK reads once at start-up as this does. */
    private static final Properties NET = netProperties();

    static boolean answersDirect(ProxySelector s) {
      if (!s.getClass().getName().equals(CLASS) || "true".equalsIgnoreCase(get("java.net.useSystemProxies"))) {
        return false;
      }
      for (String setting : SETTINGS) {
        String value = get(setting);
        if (value != null && !value.isEmpty()) {
          return false;
        }
      }
      return true;
    }

    private static String get(String key) {
      String value = System.getProperty(key);
      return value != null ? value : NET.getProperty(key);
    }

    private static Properties netProperties() {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "conf", "net.properties"))) {
        p.load(in);
      } catch (IOException | RuntimeException e) {
        // No readable file: the JDK has no defaults from it either.
      }
      return p;
    }
  }
}
