package dev.strand.internal.text;

/** Content-Type parameter parsing, for the fuzz targets (dev.strand.fuzz). */
public final class TextFuzzEntryPoints {
  private TextFuzzEntryPoints() {}

  public static String parameter(String contentType, String name) {
    return TextDecoding.parameter(contentType, name);
  }
}
