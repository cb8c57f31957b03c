package dev.strand.internal.proxy;

import dev.strand.ProxyAuthenticator;
import java.net.URI;
import java.util.List;

/**
 * The proxy's authenticator, carrying an answer worked out for a {@code 407} whose connection the
 * proxy closed: a new connection's {@link HttpTunnelHandler} sends it with its first {@code CONNECT},
 * and counts its rounds on from {@code rounds}.
 */
public record ReplayAuth(ProxyAuthenticator original, String answer, int rounds) implements ProxyAuthenticator {
  @Override
  public String authorize(URI proxy, String method, String target, List<String> challenges) {
    return original.authorize(proxy, method, target, challenges);
  }

  @Override
  public String toString() {
    return original.toString();
  }
}
