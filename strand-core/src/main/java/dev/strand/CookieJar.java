package dev.strand;

import dev.strand.internal.cookie.MemoryCookieJar;
import java.net.URI;
import java.util.List;

/**
 * Where a {@link Client} keeps cookies: the client calls {@link #saveFromResponse} with each response's
 * {@code Set-Cookie} fields (redirect hops included) and {@link #loadForRequest} before each request;
 * the other methods let you inspect and edit the jar. Implementations must be thread-safe.
 *
 * <p>{@link #create()} is the default: in memory, by the rules of RFC 6265 (host-only and Domain cookies,
 * path matching, Secure only over https, Max-Age over Expires), refusing a Domain that is a public suffix
 * ({@code com}, {@code co.uk}; by a bundled copy of the Public Suffix List). To keep cookies across runs,
 * save them in curl's file format with {@link CookieFile}, or wrap {@code create()} in a jar of your own.
 *
 * {@snippet :
 * CookieJar jar = CookieJar.create();
 * CookieFile.read(Path.of("cookies.txt")).forEach(jar::add);
 * try (Client client = Client.builder().cookieJar(jar).build()) {
 *   client.get("https://example.org/login");
 * }
 * CookieFile.write(Path.of("cookies.txt"), jar.cookies());
 * }
 */
public interface CookieJar {
  /** A new, empty in-memory jar that follows RFC 6265; what a client uses unless given another. */
  static CookieJar create() {
    return new MemoryCookieJar(System::currentTimeMillis);
  }

  /**
   * Stores the cookies of a response to {@code url}, given its {@code Set-Cookie} field values in order.
   * Values that break the rules (a Domain the URL's host is not in, or a public suffix; Secure over
   * http) are ignored; one already expired deletes its namesake.
   */
  void saveFromResponse(URI url, List<String> setCookies);

  /** The cookies to send with a request to {@code url}, in the order of its {@code Cookie} header. */
  List<Cookie> loadForRequest(URI url);

  /** The unexpired cookies, oldest first; a snapshot. */
  List<Cookie> cookies();

  /**
   * Adds a cookie, replacing one with the same name, domain and path; a cookie whose {@code expires} has
   * passed deletes that one instead. A {@code null} path is {@code "/"}.
   *
   * @throws IllegalArgumentException if the name or domain is empty, or a Domain cookie (not
   *     {@link Cookie#hostOnly()}) names a public suffix
   */
  void add(Cookie cookie);

  /** Removes the cookie with this name, domain and path; whether there was one. */
  boolean remove(String name, String domain, String path);

  /** Removes every cookie. */
  void clear();
}
