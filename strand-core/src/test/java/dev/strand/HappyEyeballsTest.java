package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every address of a name, tried in turn on loopback: a refused address moves on at once, a name whose
 * addresses all fail names each, and the resolver, connect-to rules and local address are honoured. The
 * black-holed address (SYNs dropped, not refused) is {@code peers.BlackHoledAddressTest}'s.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class HappyEyeballsTest {
  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static Dns names(String name, String... addresses) {
    return Dns.overrides(Map.of(name, java.util.Arrays.stream(addresses).map(HappyEyeballsTest::ip).toList()), Dns.system());
  }

  @Test
  void aRefusedAddressStartsTheNextAtOnceWithoutWaitingOutTheDelay() {
    ConnectEvents events = new ConnectEvents();
    try (TestServer server = TestServer.start();
        Client client = Client.builder().eventListener(events)
            .transport(NettyTransport.builder().dns(names("two.test", "127.0.0.2", "127.0.0.1"))
                .connectAttemptDelay(Duration.ofSeconds(30)).build())
            .build()) {
      long start = System.nanoTime();
      assertEquals(200, client.get("http://two.test:" + server.port() + "/small").status());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < 5_000, "a refusal starts the next attempt at once, not after the 30 s delay: " + millis + " ms");
      assertEquals(List.of("resolved two.test [127.0.0.2, 127.0.0.1]", "start 127.0.0.2"), events.steps.subList(0, 2));
      assertTrue(events.steps.get(2).startsWith("failed 127.0.0.2"), events.steps.toString());
      assertEquals(List.of("start 127.0.0.1", "won 127.0.0.1"), events.steps.subList(3, 5));
      assertEquals(1, server.acceptedConnections());
    }
  }

  @Test
  void whenEveryAddressFailsTheErrorNamesEachAndWhy() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, ip("127.0.0.1"))) {
      closed = s.getLocalPort();
    }
    try (Client client = Client.builder()
        .transport(NettyTransport.builder().dns(names("dead.test", "127.0.0.2", "127.0.0.3")).build()).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://dead.test:" + closed + "/"));
      assertTrue(e.getMessage().startsWith("cannot connect to dead.test:" + closed + ": every address failed: 127.0.0.2:"
          + closed + " (connection refused); 127.0.0.3:" + closed + " (connection refused)"), e.getMessage());
      assertEquals(0, client.stats().origins().values().stream().mapToInt(o -> o.open()).sum());
    }
  }

  @Test
  void addressesAreInterleavedByFamilyFromTheResolversFirst() {
    ConnectEvents events = new ConnectEvents();
    try (TestServer server = TestServer.start();
        Client client = Client.builder().eventListener(events)
            .transport(NettyTransport.builder()
                .dns(names("mixed.test", "::2", "::3", "127.0.0.2", "127.0.0.1")).build()).build()) {
      assertEquals(200, client.get("http://mixed.test:" + server.port() + "/small").status());
      List<String> started = events.steps.stream().filter(s -> s.startsWith("start ")).toList();
      assertEquals("start 0:0:0:0:0:0:0:2", started.get(0));
      assertEquals("start 127.0.0.2", started.get(1));
      assertEquals("start 0:0:0:0:0:0:0:3", started.get(2));
      assertEquals("start 127.0.0.1", started.get(3));
    }
  }

  @Test
  void ipv4OnlyAndIpv6OnlyFilterTheResolversAnswer() throws Exception {
    Dns both = names("both.test", "::1", "127.0.0.1");
    assertEquals(List.of(ip("127.0.0.1")), both.ipv4Only().lookup("both.test"));
    assertEquals(List.of(ip("::1")), both.ipv6Only().lookup("both.test"));
    java.net.UnknownHostException none = assertThrows(java.net.UnknownHostException.class,
        () -> names("v4.test", "127.0.0.1").ipv6Only().lookup("v4.test"));
    assertTrue(none.getMessage().startsWith("v4.test has no IPv6 address"), none.getMessage());
    try (Client client = Client.builder().dns(names("v4.test", "127.0.0.1").ipv6Only()).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://v4.test:9/"));
      assertTrue(e.getMessage().contains("unknown host (v4.test has no IPv6 address"), e.getMessage());
    }
  }

  @Test
  void connectToSendsTheConnectionElsewhereButKeepsTheHost() {
    try (TestServer server = TestServer.start();
        Client client = Client.builder()
            .transport(NettyTransport.builder().connectTo("api.example.test", 443, "127.0.0.1", server.port())
                .connectTo("", 0, "", 1).build())
            .build()) {
      Response r = client.get("http://api.example.test:443/headers");
      assertEquals(200, r.status());
      assertTrue(r.text().toLowerCase(java.util.Locale.ROOT).contains("api.example.test:443"), r.text());
      // The catch-all second rule sends everything else to port 1, where nothing listens.
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://127.0.0.1:" + server.port() + "/"));
      assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:1:"), e.getMessage());
    }
  }

  @Test
  void connectionsComeFromTheLocalAddress() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, ip("127.0.0.1"));
        Client client = Client.builder()
            .transport(NettyTransport.builder().localAddress(ip("127.0.0.7")).build()).build()) {
      CompletableFuture<InetAddress> peer = CompletableFuture.supplyAsync(() -> {
        try (Socket s = listener.accept()) {
          InputStream in = s.getInputStream();
          byte[] head = new byte[4096];
          int n = in.read(head); // one read holds a short GET's head on loopback
          assertTrue(n > 0);
          OutputStream out = s.getOutputStream();
          out.write("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          return s.getInetAddress();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      assertEquals(204, client.get("http://127.0.0.1:" + listener.getLocalPort() + "/").status());
      assertEquals(ip("127.0.0.7"), peer.join());
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://[::1]:9/"));
      assertTrue(e.getMessage().contains("local address 127.0.0.7's family"), e.getMessage());
    }
  }
}
