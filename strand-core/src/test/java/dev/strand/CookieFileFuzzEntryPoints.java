package dev.strand;

/** {@link CookieFile}'s line parser, for the fuzz targets (dev.strand.fuzz). */
public final class CookieFileFuzzEntryPoints {
  private CookieFileFuzzEntryPoints() {}

  public static Cookie parseLine(String line) {
    return CookieFile.parse(line);
  }
}
