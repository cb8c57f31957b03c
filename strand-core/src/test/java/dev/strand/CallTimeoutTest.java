package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Timeout#call()}: one bound over the whole call, which the per-phase limits are not. The
 * server trickles a byte every 200 ms, always inside the 1 s read timeout.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CallTimeoutTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private static final Timeout ONE_SECOND_READ_HALF_SECOND_CALL =
      Timeout.DEFAULT.withRead(Duration.ofSeconds(1)).withCall(Duration.ofMillis(500));
  private static final String TRICKLE = "/drip?bytes=25&interval=200";

  private static void assertReleased(Client client) throws InterruptedException {
    EventStreamTest.eventually(() -> client.stats().inUse() == 0 && client.stats().pending() == 0, client.stats());
  }

  @Test
  void withoutACallLimitATrickleTakesAsLongAsItLikes() {
    try (Client client = Client.builder().timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(1))).build()) {
      Response r = client.get(server.url("/drip?bytes=5&interval=200"));
      assertEquals(5, r.bytes().length);
      assertTrue(r.elapsed().toMillis() >= 800, "five bytes 200 ms apart, each inside the read timeout");
    }
  }

  @Test
  void aBufferedCallFailsAtItsLimitNamingIt() throws InterruptedException {
    try (Client client = Client.builder().timeout(ONE_SECOND_READ_HALF_SECOND_CALL).build()) {
      long start = System.nanoTime();
      CallTimeoutException e = assertThrows(CallTimeoutException.class, () -> client.get(server.url(TRICKLE)));
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertTrue(ms >= 450 && ms < 3000, "fired near 500 ms: " + ms);
      assertTrue(e.getMessage().contains("0.5 s (Timeout.call)"), e.getMessage());
      assertInstanceOf(TimeoutException.class, e);
      assertReleased(client);
      assertEquals(200, client.get(server.url("/small")).status(), "the client goes on");
    }
  }

  @Test
  void anAsyncCallFailsTheSame() throws InterruptedException {
    try (Client client = Client.builder().timeout(ONE_SECOND_READ_HALF_SECOND_CALL).build()) {
      CompletionException e = assertThrows(CompletionException.class, () -> client.async().get(server.url(TRICKLE)).join());
      assertInstanceOf(CallTimeoutException.class, e.getCause());
      assertReleased(client);
    }
  }

  @Test
  void aStreamedBodyIsUnderTheLimitWhileItIsRead() throws InterruptedException {
    try (Client client = Client.builder().timeout(ONE_SECOND_READ_HALF_SECOND_CALL).build();
        StreamingResponse r = client.stream(Request.get(server.url(TRICKLE)))) {
      assertEquals(200, r.status());
      CallTimeoutException e = assertThrows(CallTimeoutException.class, () -> {
        for (byte[] ignored : r.chunks()) {
          // keep reading until the deadline
        }
      });
      assertTrue(e.getMessage().contains("while reading the body"), e.getMessage());
      assertReleased(client);
    }
  }

  @Test
  void aServerThatNeverAnswersFailsAtTheCallLimitNotTheReadOne() {
    Request r = Request.builder("GET", server.url("/never"))
        .timeout(Timeout.DEFAULT.withRead(Duration.ofSeconds(30)).withCall(Duration.ofMillis(300))).build();
    try (Client client = Client.create()) {
      CallTimeoutException e = assertThrows(CallTimeoutException.class, () -> client.send(r));
      assertTrue(e.getMessage().contains("before the response arrived"), e.getMessage());
    }
  }

  @Test
  void aCallThatEndsInTimeKeepsItsResponse() {
    try (Client client = Client.builder().timeout(Timeout.DEFAULT.withCall(Duration.ofSeconds(5))).build();
        StreamingResponse r = client.stream(Request.get(server.url("/bytes/100000")))) {
      int total = 0;
      for (byte[] chunk : r.chunks()) {
        total += chunk.length;
      }
      assertEquals(100_000, total);
    }
  }

  @Test
  void retriesStopWhereTheLimitWouldPass() {
    MockTransport mock = MockTransport.of(r -> Response.builder(503).header("Retry-After", "2").build());
    RetryPolicy retry = RetryPolicy.builder().maxAttempts(5).build();
    try (Client client = Client.builder().transport(mock).retry(retry)
        .timeout(Timeout.DEFAULT.withCall(Duration.ofSeconds(1))).build()) {
      long start = System.nanoTime();
      assertEquals(503, client.get("http://127.0.0.1/x").status(), "a 2 s wait does not fit in 1 s: the 503 is the answer");
      assertTrue(System.nanoTime() - start < 900_000_000L);
      assertEquals(1, mock.requests().size());
    }
  }
}
