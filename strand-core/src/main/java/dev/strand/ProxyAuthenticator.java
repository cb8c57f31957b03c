package dev.strand;

import dev.strand.internal.auth.BasicProxyAuth;
import dev.strand.internal.auth.DigestProxyAuth;
import dev.strand.internal.auth.Negotiate;
import java.net.URI;
import java.util.List;

/**
 * Answers a proxy's {@code 407 Proxy Authentication Required}: given the proxy's challenges (its
 * {@code Proxy-Authenticate} values), returns the {@code Proxy-Authorization} value to send, or
 * {@code null} to give up. It is asked for {@code CONNECT} tunnels (the answer goes on the same
 * connection when the proxy keeps it open, else on a new one) and for {@code http} requests that an
 * HTTP proxy forwards. Set it with {@link Proxy#withAuthenticator}; a proxy URL with
 * {@code user:password} and no authenticator answers with {@link #basic}.
 *
 * {@snippet :
 * Proxy corporate = Proxy.http("https://proxy.corp.example:3129")
 *     .withAuthenticator(ProxyAuthenticator.negotiate());       // Kerberos, from the JVM's login
 * Proxy squid = Proxy.http("http://127.0.0.1:3128")
 *     .withAuthenticator(ProxyAuthenticator.digest("user", "secret"));
 * }
 *
 * <p>Before a proxy has challenged, the authenticator is asked with no challenges: an answer then is
 * sent at once (preemptively; {@link #basic} does, {@link #digest} does with a nonce the proxy sent
 * before, {@link #negotiate} does not). A tunnel answers at most four challenges; a proxy still
 * answering {@code 407}, or an authenticator that gives up or repeats the answer just refused, fails
 * the tunnel with a {@link ConnectException} naming the proxy and its status. A forwarded request
 * answers one challenge and then returns the {@code 407} as a response.
 *
 * <p>Called on a thread of Strand's that may block briefly (a Kerberos ticket request, say), except the
 * preemptive call, which may come from an I/O thread and must return at once.
 */
@FunctionalInterface
public interface ProxyAuthenticator {
  /**
   * The {@code Proxy-Authorization} value for a request to {@code proxy}, or {@code null}.
   *
   * @param proxy the proxy's URL, without credentials ({@code http://host:port} or {@code https://host:port})
   * @param method {@code CONNECT}, or the forwarded request's method
   * @param target what the request asks for: {@code host:port} for {@code CONNECT}, else the absolute URL
   * @param challenges the {@code Proxy-Authenticate} values of the proxy's 407, each as received (one value
   *     may hold several challenges); empty when asked preemptively
   */
  String authorize(URI proxy, String method, String target, List<String> challenges);

  /**
   * HTTP Basic, sent preemptively: {@code Basic base64(user:password)}, UTF-8. Its credentials cross the
   * network readable unless the proxy is reached over TLS ({@code https://}).
   *
   * @throws IllegalArgumentException if {@code user} contains {@code ':'}
   */
  static ProxyAuthenticator basic(String user, String password) {
    return new BasicProxyAuth(user, password);
  }

  /**
   * HTTP Digest (RFC 7616), as {@link Auth#digest} for origins: the first request goes without
   * credentials and the proxy's {@code Digest} challenge is answered (the strongest algorithm offered;
   * MD5, SHA-256, SHA-512-256); later requests to that proxy reuse its nonce, {@code nc} counting up,
   * until it calls the nonce stale. A second challenge with the nonce just answered, not stale, means
   * the credentials were refused: it is not answered again.
   */
  static ProxyAuthenticator digest(String user, String password) {
    return new DigestProxyAuth(user, password);
  }

  /**
   * SPNEGO ({@code Negotiate}, RFC 4559) with Kerberos, through the JDK's GSS-API: a token for the
   * service {@code HTTP@proxy-host}, from the credentials of the JAAS {@link javax.security.auth.Subject}
   * current where the request is made, or, with {@code -Djavax.security.auth.useSubjectCredsOnly=false},
   * those the JVM's Kerberos login finds (its ticket cache, as {@code kinit} leaves it; see
   * {@code java.security.krb5.conf}). Only a challenge is answered, never preemptively; a proxy's
   * continuation token (a second leg, which Kerberos does not need) gives up.
   *
   * @implNote The proxy's host name as written in the proxy URL names the service, not a name found by
   *     a reverse lookup: write the name the proxy's keytab is for ({@code localhost} included).
   */
  static ProxyAuthenticator negotiate() {
    return Negotiate.PROXY;
  }

  /**
   * {@link #negotiate()} with the Kerberos credentials of {@code subject}, as a JAAS
   * {@link javax.security.auth.login.LoginContext} (say with {@code Krb5LoginModule} and a keytab) left them.
   *
   * {@snippet :
   * LoginContext login = new LoginContext("strand-client", null, null, kerberosConfiguration);
   * login.login();
   * Proxy proxy = Proxy.http("http://proxy.corp.example:3128")
   *     .withAuthenticator(ProxyAuthenticator.negotiate(login.getSubject()));
   * }
   */
  static ProxyAuthenticator negotiate(javax.security.auth.Subject subject) {
    return new Negotiate(java.util.Objects.requireNonNull(subject, "subject"));
  }

  /** Asks {@code first}, and {@code second} when {@code first} has no answer: say, {@code negotiate()} then {@code digest(...)}. */
  default ProxyAuthenticator orElse(ProxyAuthenticator second) {
    java.util.Objects.requireNonNull(second, "second");
    ProxyAuthenticator first = this;
    return (proxy, method, target, challenges) -> {
      String a = first.authorize(proxy, method, target, challenges);
      return a != null ? a : second.authorize(proxy, method, target, challenges);
    };
  }
}
