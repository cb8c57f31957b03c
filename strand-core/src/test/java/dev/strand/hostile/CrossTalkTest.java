package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Limits;
import dev.strand.Timeout;
import dev.strand.testkit.FaultProxy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The no-cross-talk invariant under a hostile network: through a {@link FaultProxy}, every response a call
 * gets is its own request's (the testkit's {@code /echo} names the request's id), every failure is a typed
 * {@code HttpException} within the call's deadline, and afterwards the pool has nothing in use or pending.
 * The leak extension fails the test on any unreleased buffer.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class CrossTalkTest {
  private static final int REQUESTS = 2_000;
  private static final int IN_FLIGHT = 64;
  /** The client's own timeouts: each call must end on its own well before {@link #DEADLINE}. */
  private static final Timeout TIMEOUT = Timeout.of(Duration.ofSeconds(2));
  private static final Duration DEADLINE = Duration.ofSeconds(10);
  private static final Duration BUDGET = Duration.ofSeconds(60);

  private static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void noFaultsEveryCallGetsItsOwnResponse() throws Exception {
    try (FaultProxy proxy = FaultProxy.builder(server).build()) {
      // The default timeouts: with nothing injected, a busy machine must not turn into failures.
      EchoLoad.Outcomes o = load(proxy, 32, Timeout.DEFAULT);
      assertEquals(REQUESTS, o.own(), o.toString());
    }
  }

  @Test
  void mixedFaultsNeverCrossTalk() throws Exception {
    try (FaultProxy proxy = FaultProxy.builder(server).seed(20261204).reset(0.01).delay(0.05, 20).truncate(0.01)
        .strayBytes(0.02).earlyClose(0.01).build()) {
      EchoLoad.Outcomes o = load(proxy, 32);
      assertInvariant(o, proxy);
    }
  }

  /** One fault per connection, at its first chance: every connection that meets one fails at a different point. */
  @Test
  void oneFaultPerConnectionNeverCrossTalks() throws Exception {
    try (FaultProxy proxy = FaultProxy.builder(server).seed(99).perConnection().reset(0.15).delay(0.15, 20)
        .truncate(0.15).strayBytes(0.15).earlyClose(0.15).build()) {
      EchoLoad.Outcomes o = load(proxy, 16);
      assertInvariant(o, proxy);
    }
  }

  /**
   * Few connections, many stray bytes: each stray byte sequence lands on a connection that is about to be
   * reused, the case where bytes after a complete response were once read as the next response.
   */
  @Test
  void strayBytesAfterAResponseAreNeverTheNextResponse() throws Exception {
    try (FaultProxy proxy = FaultProxy.builder(server).seed(7).strayBytes(0.3).build()) {
      EchoLoad.Outcomes o = load(proxy, 4);
      assertInvariant(o, proxy);
      assertTrue(proxy.injected(FaultProxy.Fault.STRAY_BYTES) > 100, proxy.toString());
    }
  }

  private static EchoLoad.Outcomes load(FaultProxy proxy, int connections) throws Exception {
    return load(proxy, connections, TIMEOUT);
  }

  private static EchoLoad.Outcomes load(FaultProxy proxy, int connections, Timeout timeout) throws Exception {
    try (Client client = Client.builder().timeout(timeout).limits(Limits.ofConnections(connections)).build()) {
      EchoLoad.Outcomes o = EchoLoad.run(client, id -> proxy.url("/echo?id=" + id), REQUESTS, IN_FLIGHT, DEADLINE,
          BUDGET);
      PoolCheck.settled(client);
      System.out.println(proxy + ": " + o);
      return o;
    }
  }

  private static void assertInvariant(EchoLoad.Outcomes o, FaultProxy proxy) {
    String what = o + " via " + proxy;
    assertTrue(o.foreign().isEmpty(), "cross-talk: " + what);
    assertTrue(o.untyped().isEmpty(), "not an HttpException: " + what);
    assertEquals(0, o.hung(), "past the deadline: " + what);
    assertEquals(REQUESTS, o.own() + o.typedTotal(), what);
  }
}
