package dev.strand;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Adds credentials to requests. Implement it for custom flows: {@link #apply} decorates each
 * request; {@link #onChallenge} may answer a 401 with one new request (digest-style flows).
 *
 * {@snippet :
 * Client client = Client.builder().auth(Auth.basic("user", "pass")).build();
 * }
 */
public interface Auth {
  /** The request with credentials added. */
  Request apply(Request request);

  /**
   * Called with a 401 response to {@code request}; returns the request to send instead, or
   * {@code null} to give the 401 to the caller. Called at most once per request.
   */
  default Request onChallenge(Request request, ResponseHead response) {
    return null;
  }

  /** HTTP Basic: {@code Authorization: Basic base64(user:password)}, UTF-8. */
  static Auth basic(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (user.indexOf(':') >= 0) {
      throw new IllegalArgumentException("basic auth user must not contain ':'");
    }
    String value = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return request -> request.toBuilder().setHeader("Authorization", value).build();
  }

  /**
   * HTTP Digest (RFC 7616): the first request to an origin is sent without credentials and its 401
   * {@code Digest} challenge answered; later requests to that origin reuse the server's nonce (its
   * {@code nc} counting up) until the server says it is stale, which is answered with the new one.
   * MD5, SHA-256 and SHA-512-256 (and their {@code -sess} variants), {@code qop=auth} or none; of several
   * challenges the strongest algorithm. Wrong credentials give the 401 back. Share one instance per
   * user: it remembers each origin's nonce.
   *
   * {@snippet :
   * Client client = Client.builder().auth(Auth.digest("user", "passwd")).build();
   * client.get("https://example.org/digest-protected");   // 401, answered, 200
   * }
   *
   * <p>A request body is sent twice when challenged, so it must be repeatable.
   */
  static Auth digest(String user, String password) {
    return new dev.strand.internal.auth.DigestAuth(user, password);
  }

  /**
   * SPNEGO ({@code Negotiate}, RFC 4559) with Kerberos through the JDK's GSS-API: a {@code 401} offering
   * {@code Negotiate} is answered once with a token for the service {@code HTTP@host} (the URL's host),
   * from the JVM's Kerberos login (its ticket cache with
   * {@code -Djavax.security.auth.useSubjectCredsOnly=false}); see {@link ProxyAuthenticator#negotiate()},
   * which does the same for proxies. Without a ticket the {@code 401} is returned, and a warning logged
   * to {@code dev.strand.auth} says why.
   *
   * {@snippet :
   * Client client = Client.builder().auth(Auth.negotiate()).build();
   * }
   */
  static Auth negotiate() {
    return dev.strand.internal.auth.Negotiate.PROXY;
  }

  /** {@link #negotiate()} with the Kerberos credentials of {@code subject} (a JAAS login's). */
  static Auth negotiate(javax.security.auth.Subject subject) {
    return new dev.strand.internal.auth.Negotiate(Objects.requireNonNull(subject, "subject"));
  }

  /**
   * Basic credentials from the {@code .netrc} file curl would read: the file {@code $NETRC} names, else
   * {@code ~/.netrc}. Read once, now (a missing file gives an Auth that adds nothing); see {@link #netrc(Path)}.
   *
   * {@snippet :
   * Client client = Client.builder().auth(Auth.netrc()).build();
   * }
   *
   * @throws java.io.UncheckedIOException if the file exists but cannot be read
   */
  static Auth netrc() {
    return dev.strand.internal.auth.Netrc.fromEnvironment(System.getenv(), System.getProperty("user.home"));
  }

  /**
   * Basic credentials from a {@code .netrc} file, read once, now. Each request gets the {@code login} and
   * {@code password} of the first {@code machine} entry for its URL's host (compared without case; the port does
   * not count), else of the {@code default} entry, unless it already has an {@code Authorization} header; a host
   * with neither is sent nothing. As the client's {@link Client.Builder#auth Auth}, it is applied once per call to
   * the URL asked for: a redirect to another host never carries the credentials.
   *
   * {@snippet :
   * // machine api.example.org login alice password "s3cret with spaces"
   * Client client = Client.builder().auth(Auth.netrc(Path.of("/etc/strand/netrc"))).build();
   * }
   *
   * <p>The syntax is curl 8's: whitespace-separated tokens (an entry may span lines), {@code machine},
   * {@code default}, {@code login}, {@code password}, {@code account} (ignored), {@code macdef} (the macro up to the
   * next empty line skipped), {@code #} comments to the end of the line, and double-quoted values with
   * {@code \"}, {@code \\}, {@code \n}, {@code \r}, {@code \t} escapes.
   *
   * @throws java.io.UncheckedIOException if the file cannot be read
   */
  static Auth netrc(java.nio.file.Path file) {
    Objects.requireNonNull(file, "file");
    return dev.strand.internal.auth.Netrc.read(file);
  }

  /** {@code Authorization: Bearer TOKEN}. */
  static Auth bearer(String token) {
    Objects.requireNonNull(token, "token");
    String value = "Bearer " + token;
    return request -> request.toBuilder().setHeader("Authorization", value).build();
  }
}
