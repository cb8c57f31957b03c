package dev.strand.internal.cookie;

import dev.strand.Cookie;
import java.time.Instant;

/**
 * A cookie in the jar (RFC 6265 section 5.3).
 *
 * @param expiresAt epoch millis; {@link Long#MAX_VALUE} for a session cookie
 * @param creation order of first storage, kept when a cookie is replaced (it orders the Cookie header)
 */
record StoredCookie(
    String name, String value, String domain, String path, long expiresAt, boolean persistent,
    boolean secure, boolean httpOnly, boolean hostOnly, long creation) {

  boolean expired(long now) {
    return expiresAt <= now;
  }

  boolean sameKey(StoredCookie other) {
    return name.equals(other.name) && domain.equals(other.domain) && path.equals(other.path);
  }

  Cookie toCookie() {
    return Cookie.builder(name, value)
        .domain(domain)
        .path(path)
        .expires(persistent ? Instant.ofEpochMilli(expiresAt) : null)
        .secure(secure)
        .httpOnly(httpOnly)
        .hostOnly(hostOnly)
        .build();
  }

  StoredCookie withCreation(long creation) {
    return new StoredCookie(name, value, domain, path, expiresAt, persistent, secure, httpOnly, hostOnly, creation);
  }
}
