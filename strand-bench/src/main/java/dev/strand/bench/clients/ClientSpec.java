package dev.strand.bench.clients;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What every adapter is given: the URL, the concurrency (= pool size = in-flight bound), the one timeout
 * that all clients share for connect, read and pool acquisition, the body length every response must have,
 * what goes on the wire, the CA to trust for TLS (null in cleartext), and for the handshake scenario the
 * TLS engine ({@code "jdk"}/{@code "openssl"}, else null) with connection reuse switched off, and whether a new
 * connection may resume an earlier one's TLS session (the clients' default).
 */
public record ClientSpec(URI url, int concurrency, Duration timeout, int expectedLength, Wire wire, Path ca,
    String tlsEngine, boolean newConnectionEach, boolean tlsResumption) {
  public ClientSpec {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
    if (wire.tls() && ca == null) {
      throw new IllegalArgumentException(wire + " needs the CA to trust");
    }
  }

  /** Cleartext HTTP/1.1. */
  public ClientSpec(URI url, int concurrency, Duration timeout, int expectedLength) {
    this(url, concurrency, timeout, expectedLength, Wire.H1, null, null, false, true);
  }
}
