package dev.strand.internal.auth;

import dev.strand.ProxyAuthenticator;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/** {@link ProxyAuthenticator#basic}: the same answer always, challenged or not. */
public final class BasicProxyAuth implements ProxyAuthenticator {
  private final String value;

  public BasicProxyAuth(String user, String password) {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (user.indexOf(':') >= 0) {
      throw new IllegalArgumentException("basic auth user must not contain ':'");
    }
    this.value = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String authorize(URI proxy, String method, String target, List<String> challenges) {
    if (!challenges.isEmpty() && Challenges.parse(challenges).stream().noneMatch(c -> c.scheme().equalsIgnoreCase("Basic"))) {
      return null; // the proxy wants another scheme: Basic would only be refused
    }
    return value;
  }

  @Override
  public String toString() {
    return "ProxyAuthenticator.basic"; // never the credentials
  }
}
