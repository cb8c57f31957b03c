package dev.strand.cli;

import dev.strand.Client;
import dev.strand.Dns;
import dev.strand.NettyTransport;
import dev.strand.Tls;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * curl's name and address options on a transport: {@code --resolve}, {@code --connect-to}, {@code -4},
 * {@code -6}, {@code --doh-url} and {@code --interface}.
 *
 * @implNote {@code --resolve HOST:PORT:ADDR} applies to the request's port only, as curl's does; since
 *     Strand's resolver is per host, a rule for another port is ignored (a redirect to another port of
 *     that host is resolved as usual).
 */
final class NameResolution {
  private NameResolution() {}

  /**
   * Sets {@code tb}'s resolver, rules and local address from {@code o}.
   *
   * @return the client that DNS over HTTPS goes through, for the caller to close, or {@code null}
   */
  static Client apply(Options o, NettyTransport.Builder tb, URI url, Tls tls) throws UsageException {
    Dns dns = overrides(o.resolve, url);
    Client doh = null;
    if (o.dohUrl != null) {
      URI resolver = URI.create(o.dohUrl);
      if (!"https".equalsIgnoreCase(resolver.getScheme()) || resolver.getHost() == null) {
        throw new UsageException("--doh-url needs an https:// URL: " + o.dohUrl);
      }
      // The resolver's own name goes through --resolve and the system, as in curl: it cannot resolve itself.
      doh = Client.builder().tls(tls).dns(family(o, dns)).build();
      dns = Dns.overHttps(doh, resolver);
    }
    tb.dns(family(o, dns));
    for (String rule : o.connectTo) {
      connectTo(tb, rule);
    }
    if (o.iface != null) {
      tb.localAddress(localAddress(o));
    }
    return doh;
  }

  private static Dns family(Options o, Dns dns) {
    return o.ipv4 ? dns.ipv4Only() : o.ipv6 ? dns.ipv6Only() : dns;
  }

  /** {@code HOST:PORT:ADDR[,ADDR]...} rules for the request's port ({@code *} for any port). */
  private static Dns overrides(List<String> rules, URI url) throws UsageException {
    if (rules.isEmpty()) {
      return Dns.system();
    }
    int port = url.getPort() >= 0 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme())
        || "wss".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    Map<String, List<InetAddress>> byHost = new HashMap<>();
    for (String rule : rules) {
      String[] parts = splitHostPort(rule, "--resolve", "HOST:PORT:ADDRESS[,ADDRESS]...");
      if (parts[1].equals("*") || parts[1].equals(Integer.toString(port))) {
        List<InetAddress> addresses = new ArrayList<>();
        for (String a : parts[2].split(",")) {
          addresses.add(literal(a.strip(), "--resolve " + rule));
        }
        byHost.putIfAbsent(parts[0], addresses); // curl: the first rule for a name wins
      } else {
        port(parts[1], "--resolve " + rule);
      }
    }
    return Dns.overrides(byHost, Dns.system());
  }

  /** {@code HOST1:PORT1:HOST2:PORT2}, each part possibly empty. */
  private static void connectTo(NettyTransport.Builder tb, String rule) throws UsageException {
    String[] first = splitHostPort(rule, "--connect-to", "HOST1:PORT1:HOST2:PORT2");
    String[] second = hostPort(first[2], "--connect-to " + rule);
    String from = "--connect-to " + rule;
    tb.connectTo(first[0], first[1].isEmpty() ? 0 : port(first[1], from), second[0],
        second[1].isEmpty() ? 0 : port(second[1], from));
  }

  /** {@code HOST:PORT} with HOST possibly empty or a bracketed IPv6 literal: {host, port}. */
  private static String[] hostPort(String text, String where) throws UsageException {
    int colon = text.startsWith("[") ? text.indexOf("]:") + 1 : text.indexOf(':');
    if (colon < 0 || (text.startsWith("[") && colon == 0) || text.indexOf(':', colon + 1) >= 0) {
      throw new UsageException(where + ": expected HOST1:PORT1:HOST2:PORT2");
    }
    return new String[] {text.substring(0, colon), text.substring(colon + 1)};
  }

  /** {@code HOST:PORT:REST} with HOST possibly a bracketed IPv6 literal: {host, port, rest}. */
  private static String[] splitHostPort(String rule, String option, String form) throws UsageException {
    int hostEnd = rule.startsWith("[") ? rule.indexOf("]:") + 1 : rule.indexOf(':');
    if (hostEnd <= 0 && !rule.startsWith(":")) {
      throw new UsageException(option + " " + rule + ": expected " + form);
    }
    int portEnd = rule.indexOf(':', hostEnd + 1);
    if (portEnd < 0) {
      throw new UsageException(option + " " + rule + ": expected " + form);
    }
    return new String[] {rule.substring(0, hostEnd), rule.substring(hostEnd + 1, portEnd), rule.substring(portEnd + 1)};
  }

  private static int port(String text, String where) throws UsageException {
    try {
      int p = Integer.parseInt(text);
      if (p >= 1 && p <= 65535) {
        return p;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new UsageException(where + ": \"" + text + "\" is not a port (1-65535)");
  }

  private static InetAddress literal(String text, String where) throws UsageException {
    String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    if (!bare.matches("[0-9a-fA-F:.%]+") || (bare.indexOf(':') < 0 && !bare.matches("[0-9.]+"))) {
      throw new UsageException(where + ": \"" + text + "\" is not an IP address");
    }
    try {
      return InetAddress.getByName(bare); // a literal: nothing is looked up
    } catch (UnknownHostException e) {
      throw new UsageException(where + ": \"" + text + "\" is not an IP address");
    }
  }

  /** {@code --interface}: an interface's first address (of the family -4/-6 asks for), or an address. */
  private static InetAddress localAddress(Options o) throws UsageException {
    try {
      NetworkInterface nic = NetworkInterface.getByName(o.iface);
      if (nic != null) {
        for (InetAddress a : Collections.list(nic.getInetAddresses())) {
          if (o.ipv6 ? a instanceof Inet6Address : a instanceof Inet4Address) {
            return a;
          }
        }
        throw new UsageException("--interface " + o.iface + ": the interface has no " + (o.ipv6 ? "IPv6" : "IPv4")
            + " address");
      }
    } catch (SocketException e) {
      throw new UsageException("--interface " + o.iface + ": " + e.getMessage());
    }
    return literal(o.iface, "--interface " + o.iface + " (neither an interface nor an address)");
  }
}
