package dev.strand.internal.proxy;

import io.netty.util.NetUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hosts a proxy is bypassed for, parsed from a {@code NO_PROXY} list: comma-separated entries,
 * each {@code *} (every host), a host name (matching itself and its subdomains; a leading {@code .}
 * or {@code *.} is ignored), an IP literal (IPv6 with or without brackets), or a CIDR block such as
 * {@code 10.0.0.0/8}, optionally followed by {@code :port}. Names are compared as written: nothing is
 * resolved, so an IP entry or block matches only URLs that use an IP literal, as with curl.
 */
public final class NoProxy {
  public static final NoProxy NONE = new NoProxy("", List.of(), false);

  private final String source;
  private final List<Entry> entries;
  private final boolean all;

  private NoProxy(String source, List<Entry> entries, boolean all) {
    this.source = source;
    this.entries = entries;
    this.all = all;
  }

  /** Parses a list; entries that are neither names nor addresses are ignored, as curl does. */
  public static NoProxy parse(String list) {
    if (list == null || list.isBlank()) {
      return NONE;
    }
    List<Entry> entries = new ArrayList<>();
    boolean all = false;
    for (String raw : list.split(",")) {
      String e = raw.strip().toLowerCase(Locale.ROOT);
      if (e.equals("*")) {
        all = true;
      } else if (!e.isEmpty()) {
        Entry entry = Entry.parse(e);
        if (entry != null) {
          entries.add(entry);
        }
      }
    }
    return new NoProxy(list.strip(), List.copyOf(entries), all);
  }

  /** Whether requests to {@code host} (lowercase, IPv6 in brackets or not) on {@code port} go direct. */
  public boolean matches(String host, int port) {
    if (all) {
      return true;
    }
    String h = unbracket(host);
    byte[] address = NetUtil.createByteArrayFromIpAddressString(h);
    for (Entry e : entries) {
      if (e.matches(h, address, port)) {
        return true;
      }
    }
    return false;
  }

  public boolean isEmpty() {
    return !all && entries.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoProxy n && n.source.equals(source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  /** The list as given. */
  @Override
  public String toString() {
    return source;
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /**
   * One entry: a domain (with its subdomains), or an address block ({@code bits} of {@code network};
   * an IP literal is a full-length block); {@code port} -1 for any.
   */
  private record Entry(String domain, byte[] network, int bits, int port) {
    static Entry parse(String e) {
      int port = -1;
      String host = e;
      String portText = null;
      if (e.startsWith("[")) {
        int close = e.indexOf(']');
        if (close < 0) {
          return null;
        }
        host = e.substring(1, close);
        if (e.length() > close + 1) {
          if (e.charAt(close + 1) != ':') {
            return null;
          }
          portText = e.substring(close + 2);
        }
      } else if (e.indexOf(':') >= 0 && e.indexOf(':') == e.lastIndexOf(':')) {
        // One ':' separates a name or IPv4 address from its port; a bare IPv6 address has several.
        host = e.substring(0, e.indexOf(':'));
        portText = e.substring(e.indexOf(':') + 1);
      }
      if (portText != null) {
        try {
          port = Integer.parseInt(portText);
        } catch (NumberFormatException nfe) {
          return null;
        }
      }
      int slash = host.indexOf('/');
      String address = slash < 0 ? host : host.substring(0, slash);
      byte[] network = NetUtil.createByteArrayFromIpAddressString(address);
      if (network != null) {
        int bits = network.length * 8;
        if (slash >= 0) {
          try {
            bits = Integer.parseInt(host.substring(slash + 1));
          } catch (NumberFormatException nfe) {
            return null;
          }
          if (bits < 0 || bits > network.length * 8) {
            return null;
          }
        }
        return new Entry(null, network, bits, port);
      }
      if (slash >= 0) {
        return null;
      }
      String domain = host.startsWith("*.") ? host.substring(2) : host.startsWith(".") ? host.substring(1) : host;
      return domain.isEmpty() ? null : new Entry(domain, null, 0, port);
    }

    boolean matches(String host, byte[] address, int port) {
      if (this.port >= 0 && this.port != port) {
        return false;
      }
      if (domain != null) {
        return host.equals(domain) || (host.endsWith(domain) && host.charAt(host.length() - domain.length() - 1) == '.');
      }
      return address != null && address.length == network.length && prefixMatches(address);
    }

    private boolean prefixMatches(byte[] address) {
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (address[i] != network[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xff << (8 - rest)) & 0xff;
      return (address[full] & mask) == (network[full] & mask);
    }
  }
}
