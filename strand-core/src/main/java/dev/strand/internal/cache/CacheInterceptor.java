package dev.strand.internal.cache;

import dev.strand.Headers;
import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP cache as a network interceptor: answers fresh GETs from the {@link DiskStore}, revalidates
 * stale ones with their validators, stores what {@link CachePolicy} allows while the caller reads it,
 * and drops entries that unsafe requests make stale. Each response it passes says what happened in a
 * {@code Cache-Status} field (RFC 9211).
 */
public final class CacheInterceptor implements Interceptor {
  /** The {@code Cache-Status} field's name for this cache. */
  public static final String CACHE_NAME = "strand";

  private final DiskStore store;
  private final Clock clock;
  private final int maxEntryBytes;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong network = new AtomicLong();

  public CacheInterceptor(DiskStore store, Clock clock, int maxEntryBytes) {
    this.store = store;
    this.clock = clock;
    this.maxEntryBytes = maxEntryBytes;
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    Request request = chain.request();
    requests.incrementAndGet();
    if (!CachePolicy.cacheableRequest(request) || userConditional(request)) {
      network.incrementAndGet();
      return chain.proceed(request).thenApply(r -> {
        if (CachePolicy.invalidates(request, r.status())) {
          store.remove(key(request));
        }
        return r;
      });
    }
    String key = key(request);
    long now = clock.millis();
    CacheEntry stored = store.get(key);
    String miss = "uri-miss";
    if (stored != null && !CachePolicy.varyMatches(stored, request)) {
      stored = null;
      miss = "vary-miss";
    }
    if (stored != null && CachePolicy.fresh(stored, request, now)) {
      hits.incrementAndGet();
      return CompletableFuture.completedFuture(fromStore(stored, request, now, "hit"));
    }
    if (CacheControl.parse(request.headers()).onlyIfCached()) {
      return CompletableFuture.completedFuture(StreamingResponses.of(request, 504, "Gateway Timeout",
          Headers.of("Cache-Status", CACHE_NAME + "; fwd=miss; detail=only-if-cached", "Content-Length", "0"),
          dev.strand.Version.HTTP_1_1, ResponseBody.of(new byte[0])));
    }
    CacheEntry entry = stored;
    Request conditional = entry == null ? null : CachePolicy.conditional(request, entry);
    String forward = entry == null ? miss : CacheControl.parse(request.headers()).noCache() ? "request" : "stale";
    network.incrementAndGet();
    return chain.proceed(conditional != null ? conditional : request).thenApply(r -> {
      long received = clock.millis();
      if (entry != null && conditional != null && r.status() == 304) {
        r.close();
        CacheEntry updated = entry.withHead(CachePolicy.merged(entry.headers(), r.headers()), now, received);
        if (CacheControl.parse(updated.headers()).noStore()) {
          store.remove(key);
        } else {
          store.put(updated);
        }
        hits.incrementAndGet();
        return fromStore(updated, request, received, "fwd=" + forward + "; fwd-status=304");
      }
      return fromNetwork(request, r, key, now, forward);
    });
  }

  /** The network's response, stored while the caller reads it if it may be. */
  private StreamingResponse fromNetwork(Request request, StreamingResponse r, String key, long sentMillis, String forward) {
    String status = CACHE_NAME + "; fwd=" + forward + "; fwd-status=" + r.status();
    long length = StreamingResponses.body(r).contentLength();
    if (!CachePolicy.storable(request, r) || length > maxEntryBytes) {
      if (CacheControl.parse(r.headers()).noStore()) {
        store.remove(key);
      }
      return StreamingResponses.withBody(r, r.headers().toBuilder().add("Cache-Status", status).build(), StreamingResponses.body(r));
    }
    Headers head = r.headers();
    Headers vary = CachePolicy.varyRequestHeaders(request, head);
    long received = clock.millis();
    ResponseBody body = new CachingBody(StreamingResponses.body(r), maxEntryBytes, bytes -> store.put(
        new CacheEntry(key, vary, r.status(), r.reason(), r.version(), head, bytes, sentMillis, received)));
    return StreamingResponses.withBody(r, head.toBuilder().add("Cache-Status", status + "; stored").build(), body);
  }

  private static StreamingResponse fromStore(CacheEntry e, Request request, long now, String what) {
    Headers headers = e.headers().toBuilder()
        .set("Age", Long.toString(CachePolicy.ageMillis(e, now) / 1000))
        .add("Cache-Status", CACHE_NAME + "; " + what)
        .build();
    return StreamingResponses.of(request, e.status(), e.reason(), headers, e.version(), ResponseBody.of(e.body()));
  }

  /** A request with its own validators wants the server's answer to them, not this cache's. */
  private static boolean userConditional(Request request) {
    return request.headers().contains("If-None-Match") || request.headers().contains("If-Modified-Since")
        || request.headers().contains("Range");
  }

  private static String key(Request request) {
    return request.url().toString();
  }

  public long size() {
    return store.size();
  }

  public int entryCount() {
    return store.count();
  }

  public void clear() {
    store.clear();
  }

  public long requestCount() {
    return requests.get();
  }

  public long hitCount() {
    return hits.get();
  }

  public long networkCount() {
    return network.get();
  }
}
