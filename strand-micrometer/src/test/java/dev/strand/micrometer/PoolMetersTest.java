package dev.strand.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Response;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The connection pool's meters, read from {@code Client.stats()}, per origin. */
@ExtendWith(NettyLeakDetectorExtension.class)
class PoolMetersTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private String origin() {
    return "http://127.0.0.1:" + server.port();
  }

  private double gauge(String name) {
    return registry.get(name).tags("client.name", "pool", "origin", origin()).gauge().value();
  }

  @Test
  void anOriginGetsItsGaugesWhenACallFirstReachesIt() {
    StrandMetrics metrics = StrandMetrics.builder(registry).clientName("pool").build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      metrics.bind(client);
      assertNull(registry.find("strand.client.connections.open").gauge(), "no origin yet");
      assertEquals(0, registry.get("strand.client.connections.created").tags("client.name", "pool").functionCounter().count());

      client.get(server.url("/small"));
      assertEquals(1, gauge("strand.client.connections.open"));
      assertEquals(1, gauge("strand.client.connections.idle"));
      assertEquals(0, gauge("strand.client.connections.active"));
      assertEquals(0, gauge("strand.client.requests.pending"));
      assertEquals(1, registry.get("strand.client.connections.created").functionCounter().count());
      assertEquals(origin(), client.stats().origins().keySet().iterator().next(), "the tag is the stats' own name");
    }
  }

  @Test
  void activeAndPendingFollowTheCallsInFlight() throws Exception {
    StrandMetrics metrics = StrandMetrics.builder(registry).clientName("pool").build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).limits(Limits.ofConnections(1)).build()) {
      metrics.bind(client);
      client.get(server.url("/small")); // the origin's gauges
      List<CompletableFuture<Response>> calls = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        calls.add(client.async().get(server.url("/delay/300")));
      }
      eventually(() -> gauge("strand.client.connections.active") == 1 && gauge("strand.client.requests.pending") == 2);
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
      eventually(() -> gauge("strand.client.connections.active") == 0 && gauge("strand.client.requests.pending") == 0);
      assertEquals(1, gauge("strand.client.connections.open"), "one connection, reused");
    }
  }

  @Test
  void closeRemovesThePoolMetersAndOneInstanceServesOneClient() {
    StrandMetrics metrics = StrandMetrics.builder(registry).clientName("pool").build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build();
        Client other = Client.create()) {
      metrics.bind(client);
      client.get(server.url("/small"));
      assertThrows(IllegalStateException.class, () -> metrics.bind(other));
      metrics.close();
      assertNull(registry.find("strand.client.connections.open").gauge());
      assertNull(registry.find("strand.client.connections.created").functionCounter());
      assertEquals(1, registry.get(StrandMetrics.REQUESTS).timer().count(), "the timer stays");
    }
  }

  @Test
  void withoutTheTimerTheInterceptorStillFindsOrigins() {
    StrandMetrics metrics = StrandMetrics.builder(registry).clientName("pool").requestTimer(false).build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      metrics.bind(client);
      client.get(server.url("/small"));
      assertEquals(1, gauge("strand.client.connections.open"));
      assertNull(registry.find(StrandMetrics.REQUESTS).timer());
    }
  }

  private static void eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "condition not met within 5 s");
      Thread.sleep(10);
    }
  }
}
