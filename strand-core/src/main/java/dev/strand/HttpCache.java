package dev.strand;

import dev.strand.internal.cache.CacheInterceptor;
import dev.strand.internal.cache.DiskStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * An HTTP cache on disk (RFC 9111, a private cache), opt-in: {@link Client.Builder#cache}. Built as an
 * {@link Interceptor} in the network position, so it sees each redirect hop and stores bodies as they came
 * off the wire (decompression happens after it).
 *
 * <ul>
 *   <li>Answers a GET from disk while the stored response is fresh ({@code max-age}, else
 *       {@code Expires − Date}, else 10 % of the time since {@code Last-Modified}), with an {@code Age}
 *       field; request directives {@code no-cache}, {@code max-age}, {@code min-fresh}, {@code max-stale}
 *       and {@code only-if-cached} (a 504 when there is nothing fresh) are honoured.
 *   <li>Revalidates a stale response with its {@code ETag} / {@code Last-Modified}; a 304 updates the
 *       stored head and the stored body is served.
 *   <li>Stores only what may be stored: never {@code no-store}, never {@code Vary: *}, a response varying
 *       on request fields only for requests that match them, and a response to a request with
 *       {@code Authorization} only if it is marked {@code public}, {@code s-maxage} or {@code must-revalidate}
 *       (this cache does not tell users apart). A body is stored while the caller reads it, once read to
 *       its end; one larger than an eighth of the cache's size is not stored.
 *   <li>A successful POST, PUT, DELETE or PATCH drops the stored response of its URL.
 *   <li>Each entry is one file with a SHA-256 of its content: a truncated or corrupt file is a miss and is
 *       deleted, never served. Beyond {@code maxBytes} the least recently used entries go.
 * </ul>
 *
 * Every response that passed through it carries a {@code Cache-Status} field (RFC 9211) saying what
 * happened: {@code strand; hit}, {@code strand; fwd=stale; fwd-status=304} (revalidated),
 * {@code strand; fwd=uri-miss; fwd-status=200; stored}...; {@link #servedFromCache} reads it.
 *
 * {@snippet :
 * HttpCache cache = HttpCache.onDisk(Path.of("/var/cache/my-app/http"), 50L * 1024 * 1024);
 * try (Client client = Client.builder().cache(cache).build()) {
 *   Response r = client.get("https://example.com/logo.png");
 *   boolean cached = HttpCache.servedFromCache(r);
 * }
 * }
 *
 * @implNote Lookups and stores read and write files on the calling thread, which for redirect hops is
 *     an I/O thread; entries are small files, as OkHttp's are.
 */
public final class HttpCache implements Interceptor {
  private final CacheInterceptor cache;

  private HttpCache(CacheInterceptor cache) {
    this.cache = cache;
  }

  /**
   * A cache in {@code directory} (created if missing; entries left there by an earlier run are used)
   * holding at most {@code maxBytes}.
   *
   * @throws java.io.UncheckedIOException if the directory cannot be created or read
   */
  public static HttpCache onDisk(Path directory, long maxBytes) {
    return onDisk(directory, maxBytes, Clock.systemUTC());
  }

  static HttpCache onDisk(Path directory, long maxBytes, Clock clock) {
    Objects.requireNonNull(directory, "directory");
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be >= 1: " + maxBytes);
    }
    int maxEntry = (int) Math.min(Integer.MAX_VALUE - 64, Math.max(1, maxBytes / 8));
    return new HttpCache(new CacheInterceptor(new DiskStore(directory, maxBytes), clock, maxEntry));
  }

  /**
   * Whether {@code response} was served from a cache of this kind: stored and fresh, or revalidated by a
   * 304 (the body came from disk either way).
   */
  public static boolean servedFromCache(ResponseHead response) {
    for (String status : response.headers().all("Cache-Status")) {
      if (status.startsWith(CacheInterceptor.CACHE_NAME + ";")
          && (status.contains("; hit") || status.contains("fwd-status=304"))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    return cache.intercept(chain);
  }

  /** Bytes stored now. */
  public long size() {
    return cache.size();
  }

  /** Responses stored now. */
  public int entryCount() {
    return cache.entryCount();
  }

  /** Requests that came through the cache. */
  public long requestCount() {
    return cache.requestCount();
  }

  /** Requests answered with a stored body (fresh, or revalidated by a 304). */
  public long hitCount() {
    return cache.hitCount();
  }

  /** Requests that went to the network (revalidations included). */
  public long networkCount() {
    return cache.networkCount();
  }

  /** Deletes every entry. */
  public void clear() {
    cache.clear();
  }

  @Override
  public String toString() {
    return "HttpCache[" + entryCount() + " entries, " + size() + " bytes]";
  }
}
