package dev.strand.internal.auth;

import dev.strand.ProxyAuthenticator;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ProxyAuthenticator#digest}: {@link DigestAuth}'s computation, with the sessions kept per
 * proxy rather than per origin. A proxy that challenges again with the nonce already answered, not
 * calling it stale, refused the credentials; the session is dropped and the challenge not answered.
 */
public final class DigestProxyAuth implements ProxyAuthenticator {
  private final DigestAuth digest;
  private final Map<URI, Session> sessions = new ConcurrentHashMap<>();

  /** The challenge a proxy last sent, and how often its nonce has been used. */
  private record Session(Challenges.Challenge challenge, AtomicInteger count) {}

  public DigestProxyAuth(String user, String password) {
    this.digest = new DigestAuth(user, password);
  }

  @Override
  public String authorize(URI proxy, String method, String target, List<String> challenges) {
    Session s = sessions.get(proxy);
    if (challenges.isEmpty()) {
      return s == null ? null : digest.answer(s.challenge(), method, target, s.count().incrementAndGet());
    }
    Challenges.Challenge c = DigestAuth.strongest(Challenges.parse(challenges));
    if (c == null) {
      return null;
    }
    if (s != null && c.param("nonce").equals(s.challenge().param("nonce")) && !"true".equalsIgnoreCase(c.param("stale"))) {
      sessions.remove(proxy, s);
      return null;
    }
    Session fresh = new Session(c, new AtomicInteger(1));
    sessions.put(proxy, fresh);
    return digest.answer(c, method, target, 1);
  }

  @Override
  public String toString() {
    return "ProxyAuthenticator.digest";
  }
}
