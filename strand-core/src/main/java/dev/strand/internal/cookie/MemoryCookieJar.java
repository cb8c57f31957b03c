package dev.strand.internal.cookie;

import dev.strand.Cookie;
import dev.strand.CookieJar;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One client's cookies, kept by the rules of RFC 6265: host-only and Domain cookies, path
 * matching, Secure only over https, Max-Age over Expires, deletion by expiry. Thread-safe.
 *
 * <p>The clock is passed in, so expiry is tested without sleeping. Cookies are indexed by domain,
 * so a request looks only at its host and the host's parent domains. At most {@value #MAX_COOKIES}
 * cookies are kept; beyond that the oldest go first.
 */
public final class MemoryCookieJar implements CookieJar {
  static final int MAX_COOKIES = 3000;

  private final LongSupplier clock;
  private final Map<String, List<StoredCookie>> byDomain = new HashMap<>();
  private long nextCreation;
  // Read without the lock: a client that never received a cookie pays one volatile read per request.
  private volatile int size;

  /** @param clock current time in epoch milliseconds */
  public MemoryCookieJar(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public void saveFromResponse(URI url, List<String> setCookies) {
    for (String value : setCookies) {
      store(url, value);
    }
  }

  /** Stores (or replaces, or with a past expiry deletes) the cookie of one Set-Cookie value. */
  public synchronized void store(URI url, String setCookie) {
    long now = clock.getAsLong();
    StoredCookie c = SetCookieParser.parse(setCookie, host(url), url.getRawPath(), isHttps(url), now, nextCreation);
    if (c != null) {
      put(c, now);
    }
  }

  @Override
  public void add(Cookie cookie) {
    String name = cookie.name();
    String domain = cookie.domain() == null ? "" : cookie.domain().toLowerCase(Locale.ROOT);
    if (domain.startsWith(".")) {
      domain = domain.substring(1);
    }
    if (name == null || name.isEmpty() || domain.isEmpty()) {
      throw new IllegalArgumentException("a cookie needs a name and a domain: " + cookie);
    }
    if (!cookie.hostOnly() && !Domains.isIpAddress(domain) && Domains.isPublicSuffix(domain)) {
      throw new IllegalArgumentException("cookie " + name + " names a public suffix as its domain (" + domain
          + "): it would be sent to every site under it");
    }
    String path = cookie.path() == null || cookie.path().isEmpty() ? "/" : cookie.path();
    boolean persistent = cookie.expires() != null;
    long expiresAt = persistent ? epochMillis(cookie.expires()) : Long.MAX_VALUE;
    synchronized (this) {
      put(new StoredCookie(name, cookie.value() == null ? "" : cookie.value(), domain, path, expiresAt, persistent,
          cookie.secure(), cookie.httpOnly(), cookie.hostOnly(), nextCreation), clock.getAsLong());
    }
  }

  /** An expiry as milliseconds, saturated: a caller's Instant may lie beyond what a long of milliseconds holds. */
  private static long epochMillis(java.time.Instant expires) {
    try {
      return expires.toEpochMilli();
    } catch (ArithmeticException beyond) {
      return expires.isBefore(java.time.Instant.EPOCH) ? Long.MIN_VALUE + 1 : Long.MAX_VALUE;
    }
  }

  @Override
  public synchronized boolean remove(String name, String domain, String path) {
    List<StoredCookie> list = byDomain.get(domain.toLowerCase(Locale.ROOT));
    if (list == null) {
      return false;
    }
    for (int i = 0; i < list.size(); i++) {
      StoredCookie c = list.get(i);
      if (c.name().equals(name) && c.path().equals(path)) {
        list.remove(i);
        size--;
        removeIfEmpty(c.domain(), list);
        return true;
      }
    }
    return false;
  }

  @Override
  public synchronized void clear() {
    byDomain.clear();
    size = 0;
  }

  /** Stores, replaces or (expired) deletes {@code c}. Holds the lock. */
  private void put(StoredCookie c, long now) {
    List<StoredCookie> list = byDomain.get(c.domain());
    if (list != null) {
      for (int i = 0; i < list.size(); i++) {
        StoredCookie old = list.get(i);
        if (old.sameKey(c)) {
          list.remove(i);
          if (!c.expired(now)) {
            list.add(i, c.withCreation(old.creation()));
          } else {
            size--;
          }
          removeIfEmpty(c.domain(), list);
          return;
        }
      }
    }
    if (c.expired(now)) {
      return;
    }
    nextCreation++;
    byDomain.computeIfAbsent(c.domain(), d -> new ArrayList<>(4)).add(c);
    size++;
    if (size > MAX_COOKIES) {
      evict(now);
    }
  }

  /** The Cookie header value for a request to {@code url}, or {@code null} if no cookie applies. */
  public String cookieHeader(URI url) {
    return header(loadForRequest(url));
  }

  /** The value of a Cookie header with {@code cookies}, or {@code null} for none. */
  public static String header(List<Cookie> cookies) {
    if (cookies.isEmpty()) {
      return null;
    }
    StringBuilder sb = new StringBuilder(cookies.size() * 24);
    for (Cookie c : cookies) {
      if (!sb.isEmpty()) {
        sb.append("; ");
      }
      sb.append(c.name()).append('=').append(c.value());
    }
    return sb.toString();
  }

  @Override
  public List<Cookie> loadForRequest(URI url) {
    if (size == 0) {
      return List.of();
    }
    String host = host(url);
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    boolean https = isHttps(url);
    List<StoredCookie> matches = new ArrayList<>(4);
    synchronized (this) {
      long now = clock.getAsLong();
      String domain = host;
      while (true) {
        List<StoredCookie> list = byDomain.get(domain);
        if (list != null) {
          for (int i = list.size() - 1; i >= 0; i--) {
            StoredCookie c = list.get(i);
            if (c.expired(now)) {
              list.remove(i);
              size--;
            } else if ((!c.hostOnly() || domain.equals(host)) && (!c.secure() || https)
                && Domains.pathMatch(path, c.path())) {
              matches.add(c);
            }
          }
          removeIfEmpty(domain, list);
        }
        int dot = domain.indexOf('.');
        if (dot < 0 || Domains.isIpAddress(host)) {
          break;
        }
        domain = domain.substring(dot + 1);
      }
    }
    if (matches.isEmpty()) {
      return List.of();
    }
    // RFC 6265 5.4: longer paths first, then earlier creation.
    matches.sort((a, b) -> a.path().length() != b.path().length()
        ? Integer.compare(b.path().length(), a.path().length())
        : Long.compare(a.creation(), b.creation()));
    List<Cookie> out = new ArrayList<>(matches.size());
    for (StoredCookie c : matches) {
      out.add(c.toCookie());
    }
    return out;
  }

  @Override
  public synchronized List<Cookie> cookies() {
    long now = clock.getAsLong();
    List<StoredCookie> all = new ArrayList<>(size);
    for (List<StoredCookie> list : byDomain.values()) {
      for (StoredCookie c : list) {
        if (!c.expired(now)) {
          all.add(c);
        }
      }
    }
    all.sort((a, b) -> Long.compare(a.creation(), b.creation()));
    List<Cookie> out = new ArrayList<>(all.size());
    for (StoredCookie c : all) {
      out.add(c.toCookie());
    }
    return List.copyOf(out);
  }

  private void evict(long now) {
    for (var it = byDomain.values().iterator(); it.hasNext(); ) {
      List<StoredCookie> list = it.next();
      int before = list.size();
      list.removeIf(c -> c.expired(now));
      size -= before - list.size();
      if (list.isEmpty()) {
        it.remove();
      }
    }
    while (size > MAX_COOKIES) {
      String oldestDomain = null;
      StoredCookie oldest = null;
      for (Map.Entry<String, List<StoredCookie>> e : byDomain.entrySet()) {
        for (StoredCookie c : e.getValue()) {
          if (oldest == null || c.creation() < oldest.creation()) {
            oldest = c;
            oldestDomain = e.getKey();
          }
        }
      }
      List<StoredCookie> list = byDomain.get(oldestDomain);
      list.remove(oldest);
      removeIfEmpty(oldestDomain, list);
      size--;
    }
  }

  private void removeIfEmpty(String domain, List<StoredCookie> list) {
    if (list.isEmpty()) {
      byDomain.remove(domain);
    }
  }

  private static String host(URI url) {
    return url.getHost().toLowerCase(Locale.ROOT);
  }

  private static boolean isHttps(URI url) {
    return "https".equalsIgnoreCase(url.getScheme());
  }
}
