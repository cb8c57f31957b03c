package dev.strand;

/**
 * HTTP protocol versions. A response reports the version actually spoken ({@link #HTTP_1_0},
 * {@link #HTTP_1_1} or {@link #HTTP_2}); a client's version policy may also be
 * {@link #HTTP_2_PRIOR_KNOWLEDGE}.
 */
public enum Version {
  HTTP_1_0("HTTP/1.0"),
  /** HTTP/1.1 only. */
  HTTP_1_1("HTTP/1.1"),
  /** Prefer HTTP/2 (negotiated by ALPN over TLS), fall back to HTTP/1.1. */
  HTTP_2("HTTP/2"),
  /** HTTP/2 without negotiation, also over cleartext (h2c). A policy, never reported by a response. */
  HTTP_2_PRIOR_KNOWLEDGE("HTTP/2");

  private final String text;

  Version(String text) {
    this.text = text;
  }

  /** The protocol as written on a status line, e.g. {@code HTTP/1.1}. */
  @Override
  public String toString() {
    return text;
  }
}
