package dev.strand.internal.auth;

import java.util.List;

/** The package's challenge parsers, for the fuzz targets (dev.strand.fuzz). */
public final class AuthFuzzEntryPoints {
  private AuthFuzzEntryPoints() {}

  /** Each challenge as its scheme and parameters. */
  public static List<String> challenges(List<String> wwwAuthenticate) {
    return Challenges.parse(wwwAuthenticate).stream().map(c -> c.scheme() + " " + c.params()).toList();
  }

  /** The Authorization value Digest answers the strongest usable challenge with, or null if none is usable. */
  public static String digestAnswer(List<String> wwwAuthenticate, String method, String uri) {
    Challenges.Challenge c = DigestAuth.strongest(Challenges.parse(wwwAuthenticate));
    return c == null ? null : new DigestAuth("user", "pass", () -> "0a4f113b").authorization(c, method, uri, 1, "0a4f113b");
  }
}
