package dev.strand.internal.auth;

import dev.strand.Auth;
import dev.strand.ProxyAuthenticator;
import dev.strand.Request;
import dev.strand.ResponseHead;
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import javax.security.auth.Subject;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;

/**
 * SPNEGO ({@code Negotiate}, RFC 4559) over the JDK's GSS-API, for proxies ({@code 407}) and origins
 * ({@code 401}): a fresh security context per challenge, its first token for {@code HTTP@host}. With
 * Kerberos that one token authenticates; a server's continuation (a second leg) is not answered,
 * since one challenge is all a retry carries, and the context would have to outlive it.
 */
public final class Negotiate implements ProxyAuthenticator, Auth {
  /** SPNEGO's mechanism, which wraps Kerberos as HTTP servers expect. */
  private static final Oid SPNEGO = oid("1.3.6.1.5.5.2");
  private static final System.Logger LOG = System.getLogger("dev.strand.auth");
  /** With the JVM's default Kerberos login. */
  public static final Negotiate PROXY = new Negotiate(null);

  private final Subject subject;

  /** @param subject whose Kerberos credentials to use, or {@code null} for the JVM's default login */
  public Negotiate(Subject subject) {
    this.subject = subject;
  }

  @Override
  public String authorize(URI proxy, String method, String target, List<String> challenges) {
    return offered(challenges) ? token(proxy.getHost()) : null;
  }

  @Override
  public Request apply(Request request) {
    return request;
  }

  @Override
  public Request onChallenge(Request request, ResponseHead response) {
    List<String> challenges = response.headers().all("WWW-Authenticate");
    if (!offered(challenges) || request.headers().first("Authorization") != null) {
      return null; // not asked, or already answered and refused
    }
    try {
      return request.toBuilder().setHeader("Authorization", token(request.url().getHost())).build();
    } catch (IllegalStateException e) {
      // No ticket (say): the 401 goes back to the caller, as curl returns it, and the log says why.
      LOG.log(System.Logger.Level.WARNING, "cannot answer the 401 of " + request + " with Negotiate: " + e.getMessage());
      return null;
    }
  }

  /** Whether the challenges offer Negotiate without a continuation token. */
  private static boolean offered(List<String> challenges) {
    for (String value : challenges) {
      for (String part : value.split(",")) {
        String p = part.strip();
        if (p.equalsIgnoreCase("Negotiate")) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code Negotiate <base64 token>} for the service {@code HTTP@host}. */
  private String token(String host) {
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    try {
      byte[] token = subject == null ? initialToken(h) : Subject.callAs(subject, () -> initialToken(h));
      return "Negotiate " + Base64.getEncoder().encodeToString(token);
    } catch (CompletionException e) {
      throw new IllegalStateException("Negotiate for HTTP@" + h + ": " + e.getCause().getMessage(), e.getCause());
    } catch (GSSException e) {
      throw new IllegalStateException("Negotiate for HTTP@" + h + ": " + e.getMessage(), e);
    }
  }

  private static byte[] initialToken(String host) throws GSSException {
    GSSManager manager = GSSManager.getInstance();
    GSSName service = manager.createName("HTTP@" + host.toLowerCase(Locale.ROOT), GSSName.NT_HOSTBASED_SERVICE);
    GSSContext context = manager.createContext(service, SPNEGO, null, GSSContext.DEFAULT_LIFETIME);
    try {
      context.requestMutualAuth(false); // nothing would read the server's answer token
      context.requestCredDeleg(false); // a proxy gets no ticket to act as the user
      return context.initSecContext(new byte[0], 0, 0);
    } finally {
      context.dispose();
    }
  }

  private static Oid oid(String text) {
    try {
      return new Oid(text);
    } catch (GSSException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public String toString() {
    return subject == null ? "Negotiate" : "Negotiate[subject]";
  }
}
