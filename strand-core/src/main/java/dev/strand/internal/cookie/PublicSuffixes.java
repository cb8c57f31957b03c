package dev.strand.internal.cookie;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The Public Suffix List (https://publicsuffix.org/list/), ICANN and private sections, from the
 * bundled {@code public_suffix_list.dat} (see its README). Read on first use: most clients never
 * receive a cookie with a Domain attribute.
 */
final class PublicSuffixes {
  private final Set<String> rules = new HashSet<>();
  private final Set<String> wildcards = new HashSet<>(); // "*.ck" kept as "ck"
  private final Set<String> exceptions = new HashSet<>(); // "!www.ck" kept as "www.ck"

  private PublicSuffixes(BufferedReader lines) throws IOException {
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      String rule = line.strip();
      int space = rule.indexOf(' ');
      if (space >= 0) {
        rule = rule.substring(0, space);
      }
      if (rule.isEmpty() || rule.startsWith("//")) {
        continue;
      }
      if (rule.startsWith("!")) {
        exceptions.add(ascii(rule.substring(1)));
      } else if (rule.startsWith("*.")) {
        wildcards.add(ascii(rule.substring(2)));
      } else {
        rules.add(ascii(rule));
      }
    }
  }

  private static final class Holder {
    static final PublicSuffixes LIST = load();
  }

  /**
   * Whether {@code domain} (lower case, ASCII) is a public suffix: the whole name is what the list's
   * prevailing rule matches. A single label is one by the list's default rule {@code *}.
   */
  static boolean isPublicSuffix(String domain) {
    return Holder.LIST.matchesWhole(domain);
  }

  boolean matchesWhole(String domain) {
    if (exceptions.contains(domain)) {
      return false; // "!www.ck": www.ck itself is registrable
    }
    if (rules.contains(domain)) {
      return true;
    }
    int dot = domain.indexOf('.');
    return dot < 0 || wildcards.contains(domain.substring(dot + 1));
  }

  private static PublicSuffixes load() {
    try (InputStream in = PublicSuffixes.class.getResourceAsStream("public_suffix_list.dat")) {
      if (in == null) {
        throw new IllegalStateException("public_suffix_list.dat is missing from strand-core's jar");
      }
      return new PublicSuffixes(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled public suffix list", e);
    }
  }

  /** Hosts in URLs are ASCII (punycode), the list is in Unicode. */
  private static String ascii(String rule) {
    String lower = rule.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); i++) {
      if (lower.charAt(i) >= 0x80) {
        try {
          return IDN.toASCII(lower, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
          return lower;
        }
      }
    }
    return lower;
  }
}
