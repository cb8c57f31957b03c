package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a real connection: a response hook that throws must release the connection. The pool holds
 * ONE connection, so a leaked one makes the next request fail with PoolTimeoutException; a
 * released one (the transport releases asynchronously, on its event loop) is handed over.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class HookLeakTest {
  private static Client.Builder oneConnection(TestServer server) {
    return Client.builder()
        .baseUrl(server.baseUri().toString())
        .limits(Limits.ofConnections(1))
        .timeout(Timeout.DEFAULT.withPool(Duration.ofSeconds(10)));
  }

  @Test
  void throwingResponseHookReleasesTheConnection() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    IllegalStateException boom = new IllegalStateException("hook says no");
    try (TestServer server = TestServer.start();
        Client client = oneConnection(server).onResponse(h -> {
          if (refuse.get()) {
            throw boom;
          }
        }).build()) {
      for (int i = 0; i < 5; i++) {
        assertSame(boom, assertThrows(IllegalStateException.class, () -> client.get("/big")));
      }
      refuse.set(false);
      assertArrayEquals(Payloads.BIG, client.get("/big").bytes(), "a leaked connection would time out the pool");
      assertArrayEquals(Payloads.SMALL, client.get("/small").bytes());
    }
  }

  @Test
  void throwingResponseHookOnTheFinalHopOfARedirectReleasesTheConnection() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    try (TestServer server = TestServer.start();
        Client client = oneConnection(server).followRedirects(true).onResponse(h -> {
          if (h.status() == 200 && refuse.get()) {
            throw new IllegalStateException("not this one");
          }
        }).build()) {
      assertThrows(IllegalStateException.class, () -> client.get("/redirect/3"));
      refuse.set(false);
      Response r = client.get("/redirect/3");
      assertEquals(200, r.status());
      assertEquals(3, r.history().size());
    }
  }
}
