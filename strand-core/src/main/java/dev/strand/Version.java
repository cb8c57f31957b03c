package dev.strand;

/**
 * HTTP protocol versions. A response reports the version actually spoken ({@link #HTTP_1_0},
 * {@link #HTTP_1_1}, {@link #HTTP_2} or {@link #HTTP_3}); a client's version policy (default
 * {@link #HTTP_2}, or {@link #HTTP_1_1} to opt out of HTTP/2) may also be
 * {@link #HTTP_2_PRIOR_KNOWLEDGE}, {@link #HTTP_3_FIRST} or {@link #HTTP_3_ALT_SVC}.
 *
 * <p>HTTP/3 runs over QUIC and needs the {@code dev.strand:strand-http3} module on the class path:
 * without it, building a client with any HTTP/3 policy fails with an {@link IllegalStateException}
 * that names the artifact.
 *
 * {@snippet :
 * Client client = Client.builder().version(Version.HTTP_3_ALT_SVC).build();   // h2/1.1 until Alt-Svc says h3
 * Response r = client.get("https://example.com/");
 * System.out.println(r.version());                                            // HTTP/2, later HTTP/3
 * }
 */
public enum Version {
  HTTP_1_0("HTTP/1.0"),
  /** HTTP/1.1 only: over TLS, ALPN offers only http/1.1. The opt-out from the default {@link #HTTP_2}. */
  HTTP_1_1("HTTP/1.1"),
  /**
   * The default policy: HTTP/2 where an {@code https} server picks h2 by ALPN (h2 offered before
   * http/1.1), HTTP/1.1 where it picks http/1.1 or none, and always in cleartext ({@code http}
   * origins get no h2c upgrade; see {@link #HTTP_2_PRIOR_KNOWLEDGE}). As a response's version:
   * HTTP/2 was spoken.
   */
  HTTP_2("HTTP/2"),
  /** HTTP/2 without negotiation, also over cleartext (h2c). A policy, never reported by a response. */
  HTTP_2_PRIOR_KNOWLEDGE("HTTP/2"),
  /**
   * HTTP/3 over QUIC from the first request to an {@code https} origin, on the origin's own port
   * (UDP), without falling back: a failure to reach the server over QUIC is the request's failure,
   * as with curl's {@code --http3-only}. Cleartext {@code http} speaks HTTP/1.1.
   */
  HTTP_3("HTTP/3"),
  /**
   * HTTP/3 first, TCP when QUIC does not come up, as with curl's {@code --http3}: the first request to
   * an {@code https} origin tries QUIC on the port an {@code Alt-Svc} advertised, else on the origin's
   * own port (UDP); if no QUIC connection is up within a short head start (500 ms, or the connect
   * timeout if shorter) the request goes over TCP (HTTP/2 or HTTP/1.1, by ALPN) unnoticed. A QUIC
   * connection that fails marks the endpoint as broken, and requests go straight to TCP for a while
   * (5 minutes, doubling on each further failure). A policy, never reported by a response: see
   * {@link Response#version()} for what each request used.
   */
  HTTP_3_FIRST("HTTP/3"),
  /**
   * TCP first (HTTP/2 or HTTP/1.1, by ALPN), then HTTP/3 for an {@code https} origin whose responses
   * advertised it with {@code Alt-Svc: h3=":port"} (RFC 7838; {@code ma} and {@code persist} honoured,
   * kept per client). A QUIC connection that fails, or whose handshake takes longer than a short head
   * start, leaves the request to TCP unnoticed, and the origin is not tried over QUIC again for a while
   * (5 minutes, doubling on each further failure). A policy, never reported by a response: see
   * {@link Response#version()} for what each request used.
   */
  HTTP_3_ALT_SVC("HTTP/3");

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
