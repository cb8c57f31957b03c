package dev.strand.internal.pool;

/** Alt-Svc parsing, for the fuzz targets (dev.strand.fuzz). */
public final class PoolFuzzEntryPoints {
  private PoolFuzzEntryPoints() {}

  /** The h3 alternative a field value offers {@code origin}, as text, or null. */
  public static String altSvc(Origin origin, String value, long now) {
    AltServices.Entry e = AltServices.parse(origin, value, now);
    return e == null ? null : e.toString();
  }
}
