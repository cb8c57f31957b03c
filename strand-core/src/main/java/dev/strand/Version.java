package dev.strand;

/**
 * The HTTP protocol version an exchange was spoken in, as a response reports it ({@link Response#version()},
 * {@link ResponseHead#version()}). What a client may speak is its {@link VersionPolicy}, set with
 * {@link Client.Builder#version(VersionPolicy)}.
 *
 * {@snippet :
 * Client client = Client.builder().version(VersionPolicy.HTTP_3_ALT_SVC).build();   // h2/1.1 until Alt-Svc says h3
 * Response r = client.get("https://example.com/");
 * System.out.println(r.version());                                                  // HTTP/2, later HTTP/3
 * }
 */
public enum Version {
  /** HTTP/1.0: a server answered a 1.1 request with a 1.0 status line. */
  HTTP_1_0("HTTP/1.0"),
  /** HTTP/1.1. */
  HTTP_1_1("HTTP/1.1"),
  /** HTTP/2, negotiated by ALPN over TLS or spoken with prior knowledge. */
  HTTP_2("HTTP/2"),
  /** HTTP/3 over QUIC. */
  HTTP_3("HTTP/3");

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
