package dev.strand;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.peers.Peers;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP cache through a client: what it stores and serves, revalidation, and bad entries; nginx as the peer. */
@ExtendWith(NettyLeakDetectorExtension.class)
class HttpCacheTest {
  @TempDir
  Path dir;

  /** A clock the test moves. */
  static final class TestClock extends Clock {
    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-04T10:00:00Z"));

    void advanceSeconds(long s) {
      now.updateAndGet(t -> t.plusSeconds(s));
    }

    String httpDate() {
      return DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.ofInstant(now.get(), ZoneOffset.UTC));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  private final TestClock clock = new TestClock();
  private final AtomicInteger served = new AtomicInteger();

  private Client client(HttpCache cache, Function<Request, Response> server) {
    return Client.builder().cache(cache).transport(MockTransport.of(r -> {
      served.incrementAndGet();
      return server.apply(r);
    })).build();
  }

  private Response ok(String body, String... headers) {
    Response.Builder b = Response.builder(200).header("Date", clock.httpDate()).body(body);
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return b.build();
  }

  @Test
  void aFreshResponseIsServedFromDiskUntilItExpiresThenRevalidated() {
    HttpCache cache = HttpCache.onDisk(dir, 1 << 20, clock);
    try (Client client = client(cache, r -> r.headers().first("If-None-Match") != null
        ? Response.builder(304).header("Date", clock.httpDate()).header("Cache-Control", "max-age=60").build()
        : ok("v1", "Cache-Control", "max-age=60", "ETag", "\"a\""))) {
      Response first = client.get("http://127.0.0.1/doc");
      assertFalse(HttpCache.servedFromCache(first));
      assertEquals("strand; fwd=uri-miss; fwd-status=200; stored", first.headers().first("Cache-Status"));
      clock.advanceSeconds(30);
      Response hit = client.get("http://127.0.0.1/doc");
      assertEquals("v1", hit.text());
      assertTrue(HttpCache.servedFromCache(hit));
      assertEquals("30", hit.headers().first("Age"));
      assertEquals(1, served.get());
      clock.advanceSeconds(31);
      Response revalidated = client.get("http://127.0.0.1/doc");
      assertEquals(200, revalidated.status());
      assertEquals("v1", revalidated.text(), "the stored body, after a 304");
      assertEquals("strand; fwd=stale; fwd-status=304", revalidated.headers().first("Cache-Status"));
      assertEquals(2, served.get());
      clock.advanceSeconds(30);
      assertTrue(HttpCache.servedFromCache(client.get("http://127.0.0.1/doc")), "the 304 renewed the freshness");
      assertEquals(2, served.get());
      assertEquals(4, cache.requestCount());
      assertEquals(3, cache.hitCount());
    }
  }

  @Test
  void whatMustNotBeStoredIsNot() {
    HttpCache cache = HttpCache.onDisk(dir, 1 << 20, clock);
    try (Client client = client(cache, r -> switch (r.url().getPath()) {
      case "/no-store" -> ok("x", "Cache-Control", "no-store, max-age=60");
      case "/vary-star" -> ok("x", "Cache-Control", "max-age=60", "Vary", "*");
      case "/no-freshness" -> ok("x");
      case "/shared" -> ok("x", "Cache-Control", "public, max-age=60");
      default -> ok("x", "Cache-Control", "max-age=60");
    })) {
      for (String path : List.of("/no-store", "/vary-star", "/no-freshness")) {
        client.get("http://127.0.0.1" + path);
        assertFalse(HttpCache.servedFromCache(client.get("http://127.0.0.1" + path)), path);
      }
      Request authorised = Request.builder("GET", "http://127.0.0.1/private").header("Authorization", "Bearer t").build();
      client.send(authorised);
      assertFalse(HttpCache.servedFromCache(client.send(authorised)), "authorised, not marked shareable");
      Request shared = Request.builder("GET", "http://127.0.0.1/shared").header("Authorization", "Bearer t").build();
      client.send(shared);
      assertTrue(HttpCache.servedFromCache(client.send(shared)), "public may be stored");
      assertEquals(1, cache.entryCount());
    }
  }

  @Test
  void theRequestsDirectivesAndAnUnsafeMethodAreHonoured() {
    HttpCache cache = HttpCache.onDisk(dir, 1 << 20, clock);
    try (Client client = client(cache, r -> r.method().equals("POST") ? Response.builder(201).build()
        : ok("n" + served.get(), "Cache-Control", "max-age=60"))) {
      String url = "http://127.0.0.1/item";
      client.get(url);
      assertFalse(HttpCache.servedFromCache(client.send(Request.builder("GET", url).header("Cache-Control", "no-cache").build())),
          "no-cache goes to the server (no validator: a full response)");
      assertTrue(HttpCache.servedFromCache(client.get(url)));
      client.post(url, RequestBody.of("change"));
      Request onlyCached = Request.builder("GET", url).header("Cache-Control", "only-if-cached").build();
      assertEquals(504, client.send(onlyCached).status(), "the POST dropped the stored response");
    }
  }

  @Test
  void aResponseVaryingOnARequestFieldIsServedOnlyToMatchingRequests() {
    HttpCache cache = HttpCache.onDisk(dir, 1 << 20, clock);
    try (Client client = client(cache, r -> ok(r.headers().first("Accept-Language"), "Cache-Control", "max-age=60",
        "Vary", "Accept-Language"))) {
      Request fr = Request.builder("GET", "http://127.0.0.1/greeting").header("Accept-Language", "fr").build();
      Request de = Request.builder("GET", "http://127.0.0.1/greeting").header("Accept-Language", "de").build();
      assertEquals("fr", client.send(fr).text());
      assertEquals("fr", client.send(fr).text());
      Response german = client.send(de);
      assertEquals("de", german.text());
      assertTrue(german.headers().first("Cache-Status").contains("fwd=vary-miss"), german.headers().toString());
      assertEquals(2, served.get());
    }
  }

  @Test
  void aCorruptOrTruncatedEntryIsAMissAndIsDeleted() throws IOException {
    HttpCache cache = HttpCache.onDisk(dir, 1 << 20, clock);
    try (Client client = client(cache, r -> ok("body " + served.get(), "Cache-Control", "max-age=60"))) {
      client.get("http://127.0.0.1/a");
      Path entry = onlyEntry();
      byte[] bytes = Files.readAllBytes(entry);
      bytes[bytes.length / 2] ^= 0x5a;
      Files.write(entry, bytes);
      Response afterCorruption = client.get("http://127.0.0.1/a");
      assertFalse(HttpCache.servedFromCache(afterCorruption));
      assertEquals("body 2", afterCorruption.text());
      Path restored = onlyEntry();
      Files.write(restored, java.util.Arrays.copyOf(Files.readAllBytes(restored), 20));
      assertEquals("body 3", client.get("http://127.0.0.1/a").text(), "truncated: a miss");
      assertEquals("body 3", client.get("http://127.0.0.1/a").text(), "stored again, whole");
    }
  }

  @Test
  void theSizeCapEvictsTheLeastRecentlyUsed() {
    HttpCache cache = HttpCache.onDisk(dir, 3000, clock);
    try (Client client = client(cache, r -> ok("x".repeat(300), "Cache-Control", "max-age=600"))) {
      for (int i = 0; i < 20; i++) {
        client.get("http://127.0.0.1/e" + i);
      }
      assertTrue(cache.size() <= 3000, cache.toString());
      assertTrue(cache.entryCount() < 20 && cache.entryCount() > 3, cache.toString());
      assertTrue(HttpCache.servedFromCache(client.get("http://127.0.0.1/e19")), "the newest stays");
      assertFalse(HttpCache.servedFromCache(client.get("http://127.0.0.1/e0")), "the oldest went");
    }
  }

  @Test
  void entriesSurviveANewCacheOnTheSameDirectory() {
    try (Client client = client(HttpCache.onDisk(dir, 1 << 20, clock), r -> ok("kept", "Cache-Control", "max-age=60"))) {
      client.get("http://127.0.0.1/k");
    }
    try (Client client = client(HttpCache.onDisk(dir, 1 << 20, clock), r -> ok("new", "Cache-Control", "max-age=60"))) {
      assertEquals("kept", client.get("http://127.0.0.1/k").text());
    }
  }

  private Path onlyEntry() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> all = files.toList();
      assertEquals(1, all.size(), all.toString());
      return all.get(0);
    }
  }

  @Test
  void nginxResponsesAreStoredServedAndRevalidated() throws IOException {
    String nginx = Peers.env("STRAND_NGINX_URL");
    HttpCache cache = HttpCache.onDisk(dir, 64L << 20);
    try (Client client = Client.builder().cache(cache).build()) {
      Response first = client.get(nginx + "/cached/small.json");
      assertTrue(first.headers().first("Cache-Status").endsWith("stored"), first.headers().toString());
      Response hit = client.get(nginx + "/cached/small.json");
      assertTrue(HttpCache.servedFromCache(hit));
      assertArrayEquals(first.bytes(), hit.bytes(), "stored gzip-coded, decoded on the way out");
      assertEquals(dev.strand.testkit.Payloads.SMALL.length, hit.bytes().length);

      client.get(nginx + "/text.txt"); // ETag and Last-Modified, no max-age
      Response revalidated = client.send(Request.builder("GET", nginx + "/text.txt").header("Cache-Control", "no-cache").build());
      assertEquals(200, revalidated.status());
      assertEquals("strand; fwd=request; fwd-status=304", revalidated.headers().first("Cache-Status"));
      assertEquals(10_000, revalidated.text().length());

      try (StreamingResponse big = client.stream(Request.get(nginx + "/cached/big.bin"))) {
        StreamingResponses.body(big).close(); // read none of it: nothing is stored
      }
      assertFalse(HttpCache.servedFromCache(client.get(nginx + "/cached/big.bin")), "an abandoned body was not stored");
      assertTrue(HttpCache.servedFromCache(client.get(nginx + "/cached/big.bin")), "the one read to the end was");
    }
  }
}
