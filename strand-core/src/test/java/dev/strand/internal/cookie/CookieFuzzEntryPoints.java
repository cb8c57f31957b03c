package dev.strand.internal.cookie;

/** The package's parsers that the fuzz targets (dev.strand.fuzz) call directly. */
public final class CookieFuzzEntryPoints {
  private CookieFuzzEntryPoints() {}

  public static boolean isPublicSuffix(String domain) {
    return PublicSuffixes.isPublicSuffix(domain);
  }

  public static boolean domainMatch(String host, String domain) {
    return Domains.domainMatch(host, domain);
  }

  public static long cookieDate(String text) {
    return CookieDates.parse(text);
  }
}
