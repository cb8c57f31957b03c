package dev.strand.internal.dns;

import java.util.Locale;

/** Host names as lookups compare them: lower case, without a trailing dot. */
final class Hosts {
  private Hosts() {}

  static String normalize(String host) {
    String h = host.toLowerCase(Locale.ROOT);
    return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
  }
}
