package dev.strand.internal.dns;

import dev.strand.Dns;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Fixed addresses for some names ({@link Dns#overrides}), the rest from another resolver. */
public final class StaticDns implements Dns {
  private final Map<String, List<InetAddress>> addresses;
  private final Dns fallback;

  public StaticDns(Map<String, List<InetAddress>> addresses, Dns fallback) {
    Map<String, List<InetAddress>> byName = new HashMap<>();
    addresses.forEach((name, list) -> {
      if (list.isEmpty()) {
        throw new IllegalArgumentException("no address for " + name);
      }
      byName.put(Hosts.normalize(name), List.copyOf(list));
    });
    this.addresses = Map.copyOf(byName);
    this.fallback = fallback;
  }

  @Override
  public List<InetAddress> lookup(String host) throws UnknownHostException {
    List<InetAddress> fixed = addresses.get(Hosts.normalize(host));
    return fixed != null ? fixed : fallback.lookup(host);
  }

  @Override
  public String toString() {
    return "Dns.overrides(" + addresses.keySet() + ", then " + fallback + ")";
  }
}
