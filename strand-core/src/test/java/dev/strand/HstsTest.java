package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.internal.client.HstsStore;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * HSTS: the store's rules with explicit clocks, then end to end: {@code localhost:80} routed to a cleartext testkit
 * server and {@code localhost:443} to a TLS one, so an upgrade shows in which server answered.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class HstsTest {
  private static TestServer plain;
  private static TestServer tls;

  @BeforeAll
  static void start() {
    plain = TestServer.start();
    tls = TestServer.builder().tls(SharedTestPki.get().server().cert(), SharedTestPki.get().server().key()).build();
  }

  @AfterAll
  static void stop() {
    plain.close();
    tls.close();
  }

  private static Client client(Hsts hsts) {
    return Client.builder().hsts(hsts)
        .transport(NettyTransport.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO))
            .connectTo("localhost", 80, plain.host(), plain.port())
            .connectTo("localhost", 443, tls.host(), tls.port()).build())
        .build();
  }

  private static String sts(String value) {
    return "/hsts?sts=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void anHttpsAnswerUpgradesLaterHttpRequestsUntilMaxAgeZero() {
    try (Client client = client(Hsts.inMemory())) {
      assertEquals("http", client.get("http://localhost/hsts").request().url().getScheme());
      // Over http the header is ignored.
      client.get("http://localhost" + sts("max-age=600"));
      assertEquals("http", client.get("http://localhost/hsts").request().url().getScheme());

      Response learned = client.get("https://localhost" + sts("max-age=600"));
      assertEquals(200, learned.status());
      Response upgraded = client.get("http://localhost/hsts?after=1");
      assertEquals(URI.create("https://localhost/hsts?after=1"), upgraded.request().url());
      assertTrue(upgraded.sslSession().isPresent(), "answered by the TLS server");

      client.get("https://localhost" + sts("max-age=0"));
      assertEquals("http", client.get("http://localhost/hsts").request().url().getScheme());
    }
  }

  @Test
  void theFileIsCurlsFormatAndSurvivesTheClient(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hsts.txt");
    try (Client client = client(Hsts.file(file))) {
      client.get("https://localhost" + sts("max-age=31536000; includeSubDomains"));
    }
    String text = Files.readString(file);
    assertTrue(text.matches("(?s).*\\n\\.localhost \"\\d{8} \\d\\d:\\d\\d:\\d\\d\"\\n"), text);
    try (Client again = client(Hsts.file(file))) {
      assertTrue(again.get("http://localhost/hsts").sslSession().isPresent());
    }
  }

  @Test
  void storeRules() {
    HstsStore s = HstsStore.inMemory();
    long now = 1_000_000_000_000L;
    s.record(URI.create("https://a.example/"), "max-age=100; includeSubDomains", now);
    s.record(URI.create("https://b.example/"), "max-age=100", now);
    s.record(URI.create("https://127.0.0.1/"), "max-age=100", now);
    s.record(URI.create("https://[::1]/"), "max-age=100", now);
    s.record(URI.create("https://c.example/"), "max-age=abc", now);
    assertEquals(URI.create("https://a.example/x?q"), s.upgrade(URI.create("http://a.example/x?q"), now));
    assertEquals(URI.create("https://x.a.example/"), s.upgrade(URI.create("http://x.a.example/"), now));
    assertNull(s.upgrade(URI.create("http://x.b.example/"), now), "no includeSubDomains");
    assertEquals(URI.create("https://b.example/"), s.upgrade(URI.create("http://b.example:80/"), now));
    assertEquals(URI.create("https://b.example:8080/"), s.upgrade(URI.create("http://b.example:8080/"), now));
    assertNull(s.upgrade(URI.create("http://127.0.0.1/"), now), "IP literals are never HSTS hosts");
    assertNull(s.upgrade(URI.create("http://c.example/"), now), "an invalid header is ignored");
    assertNull(s.upgrade(URI.create("http://b.example/"), now + 100_001), "expired");
  }

  @Test
  void curlFileLinesAreRead(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("hsts.txt"), "# comment\n.sub.example \"unlimited\"\n"
        + "old.example \"20200101 00:00:00\"\nnew.example \"29991231 23:59:59\"\n");
    HstsStore s = HstsStore.file(file);
    long now = System.currentTimeMillis();
    assertEquals("https", s.upgrade(URI.create("http://a.sub.example/"), now).getScheme());
    assertNull(s.upgrade(URI.create("http://old.example/"), now));
    assertEquals("https", s.upgrade(URI.create("http://new.example/"), now).getScheme());
  }
}
