package dev.strand.cli;

import dev.strand.InvalidUrlException;
import dev.strand.Proxy;
import dev.strand.ProxyAuthenticator;
import dev.strand.Tls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The proxy curl's flags describe: {@code -x}, else the environment's variables (unless
 * {@code --no-proxy-env}), with {@code --noproxy} replacing {@code no_proxy}; {@code -U} and
 * {@code --proxy-basic/digest/negotiate} for its 407s; {@code --proxy-cacert} and
 * {@code --proxy-insecure} for TLS to an {@code https://} proxy. The JVM's proxy properties are not
 * read: a command-line tool takes the environment, as curl does.
 */
final class ProxyOptions {
  private ProxyOptions() {}

  static Proxy of(Options o, Map<String, String> env) throws UsageException {
    Proxy proxy;
    try {
      proxy = route(o, env);
    } catch (InvalidUrlException e) {
      throw new UsageException((o.proxy != null ? "--proxy: " : "") + e.getMessage());
    }
    if (proxy.equals(Proxy.none())) {
      return proxy;
    }
    if (o.proxyInsecure) {
      proxy = proxy.withTls(Tls.insecure());
    } else if (o.proxyCacert != null) {
      Path ca = Path.of(o.proxyCacert);
      if (!Files.isReadable(ca)) {
        throw new UsageException("--proxy-cacert: cannot read " + ca);
      }
      proxy = proxy.withTls(Tls.builder().trustPem(ca).trustSystem(false).build());
    }
    if (o.proxyTunnel) {
      proxy = proxy.withTunnelForAll();
    }
    ProxyAuthenticator auth = authenticator(o, env);
    return auth == null ? proxy : proxy.withAuthenticator(auth);
  }

  private static Proxy route(Options o, Map<String, String> env) {
    if (o.proxy != null) {
      String lower = o.proxy.toLowerCase(Locale.ROOT);
      boolean socks = lower.startsWith("socks5://") || lower.startsWith("socks5h://");
      Proxy given = socks ? Proxy.socks5(o.proxy) : Proxy.http(o.proxy); // checks it, with -x's name in messages
      if (o.noProxy == null) {
        return given;
      }
      // The environment's reader is the one that takes a bypass list: give it -x as the variables.
      return Proxy.fromEnvironment(Map.of("http_proxy", o.proxy, "https_proxy", o.proxy, "no_proxy", o.noProxy));
    }
    if (o.noProxyEnv) {
      return Proxy.none();
    }
    if (o.noProxy == null) {
      return Proxy.fromEnvironment(env);
    }
    Map<String, String> e = new HashMap<>(env);
    e.remove("NO_PROXY");
    e.put("no_proxy", o.noProxy);
    return Proxy.fromEnvironment(e);
  }

  private static ProxyAuthenticator authenticator(Options o, Map<String, String> env) {
    String scheme = o.proxyAuth != null ? o.proxyAuth : o.proxyUser != null ? "basic" : null;
    if (scheme == null) {
      return null; // credentials in the proxy URL, if any, go as Basic
    }
    if (scheme.equals("negotiate")) {
      useKerberosLogin(env);
      return ProxyAuthenticator.negotiate();
    }
    int colon = o.proxyUser.indexOf(':');
    String user = o.proxyUser.substring(0, colon);
    String password = o.proxyUser.substring(colon + 1);
    return scheme.equals("digest") ? ProxyAuthenticator.digest(user, password) : ProxyAuthenticator.basic(user, password);
  }

  /**
   * Lets the JDK's Kerberos find what {@code kinit} left, as curl's libkrb5 does: the ticket cache
   * (the JDK reads {@code KRB5CCNAME}) without a JAAS login, and {@code KRB5_CONFIG}, which the JDK
   * ignores, as its {@code java.security.krb5.conf}. Properties set on the command line win.
   */
  static void useKerberosLogin(Map<String, String> env) {
    if (System.getProperty("javax.security.auth.useSubjectCredsOnly") == null) {
      System.setProperty("javax.security.auth.useSubjectCredsOnly", "false");
    }
    String conf = env.get("KRB5_CONFIG");
    if (conf != null && !conf.isBlank() && System.getProperty("java.security.krb5.conf") == null) {
      System.setProperty("java.security.krb5.conf", conf);
    }
  }
}
