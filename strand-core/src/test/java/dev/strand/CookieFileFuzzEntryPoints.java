package dev.strand;

/** {@link CookieFile}'s line parser, for the fuzz targets (dev.strand.fuzz). */
public final class CookieFileFuzzEntryPoints {
  private CookieFileFuzzEntryPoints() {}

  public static Cookie parseLine(String line) {
    return CookieFile.parse(line);
  }

  /** The cookies {@link CookieFile#write} would write, read back as {@link CookieFile#read} reads them. */
  public static java.util.List<Cookie> writtenAndRead(java.util.Collection<Cookie> cookies) {
    return CookieFile.text(cookies).lines().map(CookieFile::parse).filter(java.util.Objects::nonNull).toList();
  }
}
