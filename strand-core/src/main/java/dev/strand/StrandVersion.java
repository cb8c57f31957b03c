package dev.strand;

/** The library version, read from the jar manifest at build time. */
final class StrandVersion {
  static final String VERSION = read();

  private StrandVersion() {}

  private static String read() {
    String v = StrandVersion.class.getPackage().getImplementationVersion();
    return v != null ? v : "0.1.0";
  }
}
