package dev.strand;

/**
 * Which HTTP versions a client speaks, and how it finds out what a server speaks: set with
 * {@link Client.Builder#version(VersionPolicy)} or {@link NettyTransport.Builder#version(VersionPolicy)}
 * (default {@link #HTTP_2}). What one exchange actually used is its response's {@link Version}: see
 * {@link Response#version()}.
 *
 * <p>HTTP/3 runs over QUIC and needs the {@code dev.strand:strand-http3} module on the class path:
 * without it, building a client with {@link #HTTP_3_ONLY}, {@link #HTTP_3_FIRST} or {@link #HTTP_3_ALT_SVC}
 * fails with an {@link IllegalStateException} that names the artifact.
 *
 * {@snippet :
 * Client client = Client.builder().version(VersionPolicy.HTTP_3_ALT_SVC).build();   // h2/1.1 until Alt-Svc says h3
 * Response r = client.get("https://example.com/");
 * System.out.println(r.version());                                                  // HTTP/2, later HTTP/3
 * }
 */
public enum VersionPolicy {
  /** HTTP/1.1 only: over TLS, ALPN offers only http/1.1. The opt-out from the default {@link #HTTP_2}. */
  HTTP_1_1,
  /**
   * The default: HTTP/2 where an {@code https} server picks h2 by ALPN (h2 offered before http/1.1),
   * HTTP/1.1 where it picks http/1.1 or none, and always in cleartext ({@code http} origins get no h2c
   * upgrade; see {@link #HTTP_2_PRIOR_KNOWLEDGE}).
   */
  HTTP_2,
  /** HTTP/2 without negotiation, also over cleartext (h2c). */
  HTTP_2_PRIOR_KNOWLEDGE,
  /**
   * HTTP/3 over QUIC from the first request to an {@code https} origin, on the origin's own port
   * (UDP), without falling back: a failure to reach the server over QUIC is the request's failure,
   * as with curl's {@code --http3-only}. Cleartext {@code http} speaks HTTP/1.1.
   */
  HTTP_3_ONLY,
  /**
   * HTTP/3 first, TCP when QUIC does not come up, as with curl's {@code --http3}: the first request to
   * an {@code https} origin tries QUIC on the port an {@code Alt-Svc} advertised, else on the origin's
   * own port (UDP); if no QUIC connection is up within a short head start (500 ms, or the connect
   * timeout if shorter) the request goes over TCP (HTTP/2 or HTTP/1.1, by ALPN) unnoticed. A QUIC
   * connection that fails marks the endpoint as broken, and requests go straight to TCP for a while
   * (5 minutes, doubling on each further failure). See {@link Response#version()} for what each request
   * used.
   */
  HTTP_3_FIRST,
  /**
   * TCP first (HTTP/2 or HTTP/1.1, by ALPN), then HTTP/3 for an {@code https} origin whose responses
   * advertised it with {@code Alt-Svc: h3=":port"} (RFC 7838; {@code ma} and {@code persist} honoured,
   * kept per client). A QUIC connection that fails, or whose handshake takes longer than a short head
   * start, leaves the request to TCP unnoticed, and the origin is not tried over QUIC again for a while
   * (5 minutes, doubling on each further failure). See {@link Response#version()} for what each request
   * used.
   */
  HTTP_3_ALT_SVC
}
