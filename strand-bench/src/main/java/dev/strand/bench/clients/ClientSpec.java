package dev.strand.bench.clients;

import java.net.URI;
import java.time.Duration;

/**
 * What every adapter is given: the URL, the concurrency (= pool size = in-flight bound), the one timeout
 * that all clients share for connect, read and pool acquisition, and the body length every response must have.
 */
public record ClientSpec(URI url, int concurrency, Duration timeout, int expectedLength) {
  public ClientSpec {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
  }
}
