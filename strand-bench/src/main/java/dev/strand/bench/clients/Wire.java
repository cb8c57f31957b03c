package dev.strand.bench.clients;

/** What a scenario puts on the wire; each adapter maps it onto its own client's settings. */
public enum Wire {
  /** Cleartext HTTP/1.1 (the original scenarios). */
  H1,
  /** HTTP/1.1 over TLS, HTTP/2 not offered. */
  H1_TLS,
  /** HTTP/2 over TLS, negotiated by ALPN. */
  H2_TLS,
  /** Cleartext HTTP/2 with prior knowledge. */
  H2C,
  /** HTTP/3 over QUIC, straight away. */
  H3;

  public boolean tls() {
    return this == H1_TLS || this == H2_TLS || this == H3;
  }

  public boolean h2() {
    return this == H2_TLS || this == H2C;
  }
}
