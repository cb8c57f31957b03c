package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectTimeoutException;
import dev.strand.Dns;
import dev.strand.EventListener;
import dev.strand.NettyTransport;
import dev.strand.Timeout;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Happy Eyeballs against an address that drops SYNs ({@link BlackHole}): the call succeeds on the next
 * address within the attempt delay plus a margin, far inside the connect timeout, and leaves no socket
 * behind; when every address is black-holed the connect timeout bounds the whole race.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class BlackHoledAddressTest {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final long MARGIN_MILLIS = 750;
  private static BlackHole hole;

  @BeforeAll
  static void makeTheHole() {
    hole = BlackHole.create();
  }

  @AfterAll
  static void fillIt() {
    if (hole != null) {
      hole.close();
    }
  }

  /** The address each attempt went to, and which one won. */
  private static final class Attempts implements EventListener {
    final List<String> started = new CopyOnWriteArrayList<>();
    final List<String> won = new CopyOnWriteArrayList<>();

    @Override
    public void connectStart(Call call, long nanos, SocketAddress address) {
      started.add(((InetSocketAddress) address).getAddress().getHostAddress());
    }

    @Override
    public void connectEnd(Call call, long nanos, SocketAddress address) {
      won.add(((InetSocketAddress) address).getAddress().getHostAddress());
    }
  }

  private static Client client(Attempts events, Dns dns, Duration attemptDelay) {
    return Client.builder().eventListener(events).timeout(Timeout.of(CONNECT_TIMEOUT))
        .transport(NettyTransport.builder().dns(dns).connectAttemptDelay(attemptDelay).build()).build();
  }

  private static Dns name(String host, String... addresses) {
    return Dns.overrides(Map.of(host, java.util.Arrays.stream(addresses).map(BlackHole::address).toList()), Dns.system());
  }

  private static long failOver(String first, String live, String serverHost, Duration delay) {
    Attempts events = new Attempts();
    try (TestServer server = TestServer.builder().host(serverHost).build();
        Client client = client(events, name("svc.test", first, live), delay)) {
      long start = System.nanoTime();
      assertEquals(200, client.get("http://svc.test:" + server.port() + "/small").status());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= delay.toMillis() && millis < delay.toMillis() + MARGIN_MILLIS,
          "the second address wins after the " + delay.toMillis() + " ms delay, not the connect timeout: " + millis + " ms");
      assertEquals(List.of(BlackHole.address(first).getHostAddress(), BlackHole.address(live).getHostAddress()),
          events.started);
      assertEquals(List.of(BlackHole.address(live).getHostAddress()), events.won);
      assertEquals(List.of(), hole.pendingConnects(), "the losing attempt's socket is closed");
      assertEquals(1, server.acceptedConnections());
      System.out.println("failover " + first + " -> " + live + " with a " + delay.toMillis() + " ms delay: " + millis + " ms");
      return millis;
    }
  }

  @Test
  void aBlackHoledIpv6AddressFallsBackToIpv4AfterTheAttemptDelay() {
    failOver(BlackHole.V6, "127.0.0.1", "127.0.0.1", Duration.ofMillis(250));
  }

  @Test
  void aBlackHoledIpv4AddressFallsBackToIpv6() {
    failOver(BlackHole.V4, "::1", "::1", Duration.ofMillis(250));
  }

  @Test
  void theAttemptDelayIsTheUsers() {
    failOver(BlackHole.V6, "127.0.0.1", "127.0.0.1", Duration.ofMillis(100));
  }

  @Test
  void everyAddressBlackHoledTimesOutOnceForTheWholeRaceNamingEach() {
    Attempts events = new Attempts();
    try (Client client = Client.builder().eventListener(events).timeout(Timeout.of(Duration.ofMillis(1500)))
        .transport(NettyTransport.builder().dns(name("gone.test", BlackHole.V6, BlackHole.V4)).build()).build()) {
      long start = System.nanoTime();
      ConnectTimeoutException e = assertThrows(ConnectTimeoutException.class, () -> client.get("http://gone.test:80/"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 1_500 && millis < 1_500 + MARGIN_MILLIS, "the connect timeout bounds the race: " + millis + " ms");
      assertTrue(e.getMessage().startsWith("connect to gone.test:80 timed out after 1.5 s: every address failed: ["
          + BlackHole.V6 + "]:80 (timed out); " + BlackHole.V4 + ":80 (timed out)"), e.getMessage());
      assertEquals(2, events.started.size());
      assertEquals(List.of(), hole.pendingConnects(), "no attempt is left trying");
      assertEquals(0, client.stats().origins().values().stream().mapToInt(o -> o.open()).sum());
    }
  }

  @Test
  void aShortAttemptTimeoutMovesAlongWithoutTheDelay() {
    Attempts events = new Attempts();
    try (TestServer server = TestServer.start();
        Client client = Client.builder().eventListener(events).timeout(Timeout.of(CONNECT_TIMEOUT))
            .transport(NettyTransport.builder().dns(name("svc.test", BlackHole.V6, "127.0.0.1"))
                .connectAttemptDelay(Duration.ofSeconds(5)).connectAttemptTimeout(Duration.ofMillis(200)).build())
            .build()) {
      long start = System.nanoTime();
      assertEquals(200, client.get("http://svc.test:" + server.port() + "/small").status());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 200 && millis < 200 + MARGIN_MILLIS, "the attempt timed out at 200 ms: " + millis + " ms");
    }
  }
}
