package dev.strand;

import java.time.Instant;
import java.util.Objects;

/**
 * A cookie held by a {@link Client}, as stored from a {@code Set-Cookie} field (RFC 6265). Read-only
 * view: see {@link Client#cookies()}. An immutable value, equal to another with the same fields; build one
 * to {@linkplain CookieJar#add(Cookie) add} to a jar with {@link #builder(String, String)}.
 *
 * {@snippet :
 * Cookie session = Cookie.builder("sid", "abc").domain("shop.example").secure(true).build();
 * }
 */
public final class Cookie {
  private final String name;
  private final String value;
  private final String domain;
  private final String path;
  private final Instant expires;
  private final boolean secure;
  private final boolean httpOnly;
  private final boolean hostOnly;

  private Cookie(Builder b) {
    this.name = b.name;
    this.value = b.value;
    this.domain = b.domain;
    this.path = b.path;
    this.expires = b.expires;
    this.secure = b.secure;
    this.httpOnly = b.httpOnly;
    this.hostOnly = b.hostOnly;
  }

  /**
   * A builder for a cookie named {@code name} with {@code value}: path {@code /}, a session cookie (no expiry),
   * host-only, neither secure nor HttpOnly. Set its domain before adding it to a jar.
   */
  public static Builder builder(String name, String value) {
    return new Builder(name, value);
  }

  /** A builder holding this cookie's fields. */
  public Builder toBuilder() {
    return new Builder(name, value)
        .domain(domain)
        .path(path)
        .expires(expires)
        .secure(secure)
        .httpOnly(httpOnly)
        .hostOnly(hostOnly);
  }

  /** The cookie name. */
  public String name() {
    return name;
  }

  /** The cookie value, as sent. */
  public String value() {
    return value;
  }

  /** The host (for a host-only cookie) or the domain it is sent to, lower case. */
  public String domain() {
    return domain;
  }

  /** Sent to this path and below. */
  public String path() {
    return path;
  }

  /** When it expires, or {@code null} for a session cookie (kept while the client lives). */
  public Instant expires() {
    return expires;
  }

  /** Sent only over https. */
  public boolean secure() {
    return secure;
  }

  /** Marked HttpOnly (no meaning for a client without scripts, kept for completeness). */
  public boolean httpOnly() {
    return httpOnly;
  }

  /** Sent only to {@code domain} itself, not to its subdomains (no Domain attribute was given). */
  public boolean hostOnly() {
    return hostOnly;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cookie c
        && Objects.equals(name, c.name)
        && Objects.equals(value, c.value)
        && Objects.equals(domain, c.domain)
        && Objects.equals(path, c.path)
        && Objects.equals(expires, c.expires)
        && secure == c.secure
        && httpOnly == c.httpOnly
        && hostOnly == c.hostOnly;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, value, domain, path, expires, secure, httpOnly, hostOnly);
  }

  @Override
  public String toString() {
    return "Cookie[name=" + name + ", value=" + value + ", domain=" + domain + ", path=" + path + ", expires="
        + expires + ", secure=" + secure + ", httpOnly=" + httpOnly + ", hostOnly=" + hostOnly + "]";
  }

  /** Sets the fields of a {@link Cookie}. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final String value;
    private String domain;
    private String path = "/";
    private Instant expires;
    private boolean secure;
    private boolean httpOnly;
    private boolean hostOnly = true;

    private Builder(String name, String value) {
      this.name = name;
      this.value = value;
    }

    /** The host (for a host-only cookie) or the domain the cookie is sent to; a leading dot is ignored. */
    public Builder domain(String domain) {
      this.domain = domain;
      return this;
    }

    /** Sent to this path and below (default {@code /}). */
    public Builder path(String path) {
      this.path = path;
      return this;
    }

    /** When it expires; {@code null} (the default) for a session cookie. */
    public Builder expires(Instant expires) {
      this.expires = expires;
      return this;
    }

    /** Sent only over https (default {@code false}). */
    public Builder secure(boolean secure) {
      this.secure = secure;
      return this;
    }

    /** Marked HttpOnly (default {@code false}). */
    public Builder httpOnly(boolean httpOnly) {
      this.httpOnly = httpOnly;
      return this;
    }

    /**
     * Sent only to {@code domain} itself (the default, as for a {@code Set-Cookie} without Domain), or with
     * {@code false} to its subdomains too.
     */
    public Builder hostOnly(boolean hostOnly) {
      this.hostOnly = hostOnly;
      return this;
    }

    public Cookie build() {
      return new Cookie(this);
    }
  }
}
