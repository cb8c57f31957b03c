package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.internal.retry.RetryRules;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The client's Location, Retry-After and HSTS-file parsers, for the fuzz targets (dev.strand.fuzz). */
public final class ClientFuzzEntryPoints {
  private ClientFuzzEntryPoints() {}

  public static URI resolveLocation(URI from, String location, Request request) {
    return Redirects.resolveLocation(from, location, request);
  }

  public static Duration retryAfter(String value, Instant now) {
    return RetryRules.retryAfter(value, now);
  }

  /** A store holding what {@code lines} (an HSTS file) say. */
  public static HstsStore hstsFile(List<String> lines) {
    HstsStore store = HstsStore.inMemory();
    store.parse(lines);
    return store;
  }
}
