package dev.strand.internal.dns;

import dev.strand.Dns;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** The addresses of one family only ({@link Dns#ipv4Only()}, {@link Dns#ipv6Only()}). */
public final class FamilyFilter implements Dns {
  /** An address family. */
  public enum Family {
    IPV4("IPv4", Inet4Address.class),
    IPV6("IPv6", Inet6Address.class);

    private final String label;
    private final Class<? extends InetAddress> type;

    Family(String label, Class<? extends InetAddress> type) {
      this.label = label;
      this.type = type;
    }
  }

  private final Dns resolver;
  private final Family family;

  public FamilyFilter(Dns resolver, Family family) {
    this.resolver = resolver;
    this.family = family;
  }

  @Override
  public List<InetAddress> lookup(String host) throws UnknownHostException {
    List<InetAddress> all = resolver.lookup(host);
    List<InetAddress> kept = all.stream().filter(family.type::isInstance).toList();
    if (kept.isEmpty()) {
      throw new UnknownHostException(host + " has no " + family.label + " address (it has " + all + ")");
    }
    return kept;
  }

  @Override
  public String toString() {
    return resolver + " (" + family.label + " only)";
  }
}
