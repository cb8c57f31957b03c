package dev.strand.internal.connect;

import dev.strand.Dns;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How a transport turns a host and port into a TCP connection: the resolver, the Happy Eyeballs timings,
 * the local address to bind, and curl's {@code --connect-to} rewrites.
 *
 * @param attemptDelay how long an attempt has before the next address is tried beside it (RFC 8305's
 *     "Connection Attempt Delay")
 * @param attemptTimeout how long one address is tried before it counts as failed, or {@code null}: as long
 *     as the whole connect timeout allows
 * @param localAddress the address to connect from, or {@code null} for the kernel's choice
 */
public record DialSettings(Dns dns, Duration attemptDelay, Duration attemptTimeout, InetAddress localAddress,
    List<ConnectTo> connectTo) {
  /** RFC 8305 recommends 250 ms, as curl (200 ms), OkHttp and Go (300 ms) have it within 50 ms. */
  public static final Duration DEFAULT_ATTEMPT_DELAY = Duration.ofMillis(250);
  public static final DialSettings DEFAULT = new DialSettings(Dns.system(), DEFAULT_ATTEMPT_DELAY, null, null, List.of());

  public DialSettings {
    connectTo = List.copyOf(connectTo);
  }

  /**
   * One {@code --connect-to HOST1:PORT1:HOST2:PORT2} rule: requests for {@code host:port} connect to
   * {@code toHost:toPort} instead. An empty {@code host} matches every host and a port of 0 every port; an
   * empty {@code toHost} keeps the host, a {@code toPort} of 0 the port.
   */
  public record ConnectTo(String host, int port, String toHost, int toPort) {
    public ConnectTo {
      host = host.toLowerCase(Locale.ROOT);
    }

    boolean matches(String h, int p) {
      return (host.isEmpty() || host.equals(h.toLowerCase(Locale.ROOT))) && (port == 0 || port == p);
    }
  }

  /** Where a connection for {@code host:port} goes: the first matching rule's target, else itself. */
  public Target target(String host, int port) {
    for (ConnectTo rule : connectTo) {
      if (rule.matches(host, port)) {
        return new Target(rule.toHost().isEmpty() ? host : rule.toHost(), rule.toPort() == 0 ? port : rule.toPort());
      }
    }
    return new Target(host, port);
  }

  /** A host (name or literal, without brackets) and port to open a connection to. */
  public record Target(String host, int port) {}
}
