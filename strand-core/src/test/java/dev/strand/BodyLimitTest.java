package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The limit of a buffered body: a default for every client, per client, per request; streams are not limited. */
@ExtendWith(NettyLeakDetectorExtension.class)
class BodyLimitTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static String url(String path) {
    return server.url(path);
  }

  @Test
  void theDefaultLimitIs64MiB() {
    assertEquals(64L * 1024 * 1024, Client.DEFAULT_MAX_BODY_SIZE);
  }

  @Test
  void aRequestLimitBelowTheBodyFailsNamingTheLimitAndDropsTheConnection() throws InterruptedException {
    try (Client client = Client.create()) {
      Request r = Request.builder("GET", url("/bytes/100000")).maxBodySize(1000).build();
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.send(r));
      assertTrue(e.getMessage().contains("limit of 1000 bytes (maxBodySize"), e.getMessage());
      EventStreamTest.eventually(() -> client.stats().inUse() == 0 && client.stats().pending() == 0, client.stats());
      assertEquals(100_000, client.get(url("/bytes/100000")).bytes().length, "the next call is not affected");
    }
  }

  @Test
  void aRequestLimitOverridesTheClientsEitherWay() {
    try (Client client = Client.builder().maxBodySize(10).build()) {
      assertThrows(ProtocolException.class, () -> client.get(url("/bytes/100")));
      Request generous = Request.builder("GET", url("/bytes/100")).maxBodySize(100).build();
      assertEquals(100, client.send(generous).bytes().length);
      assertEquals(100, generous.toBuilder().build().maxBodySize(), "toBuilder keeps it");
    }
  }

  @Test
  void aStreamIsNotLimited() throws Exception {
    try (Client client = Client.builder().maxBodySize(10).build();
         StreamingResponse r = client.stream(Request.get(url("/bytes/100000")))) {
      long total = 0;
      for (byte[] chunk : r.chunks()) {
        total += chunk.length;
      }
      assertEquals(100_000, total);
    }
  }
}
