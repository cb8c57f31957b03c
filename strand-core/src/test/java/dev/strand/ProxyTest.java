package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestProxy;
import dev.strand.testkit.TestServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests through the scripted {@link TestProxy}: the request line and credentials it received,
 * how many connections and tunnels it saw, and its refusals.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class ProxyTest {
  @Test
  void httpRequestsUseAbsoluteFormWithCredentialsAndReuseOneConnection() {
    try (TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http("http://us%40r:p+ss@127.0.0.1:" + proxy.port())).build()) {
      for (int i = 0; i < 20; i++) {
        Response r = client.get("http://example.test:8080/path?q=" + i);
        assertEquals(200, r.status());
        assertEquals("GET http://example.test:8080/path?q=" + i, r.text());
      }
      assertEquals("GET http://example.test:8080/path?q=0 HTTP/1.1", proxy.seen().get(0).requestLine());
      String expected = "Basic " + Base64.getEncoder().encodeToString("us@r:p+ss".getBytes());
      assertEquals(expected, proxy.seen().get(0).proxyAuthorization());
      assertEquals(1, proxy.acceptedConnections(), "20 sequential requests, one connection to the proxy");
      assertEquals(1, client.stats().origins().get("http://example.test:8080").open(), client.stats().toString());
    }
  }

  @Test
  void httpsGoesThroughOneTunnelPerConnectionAndVerifiesTheServer() {
    try (TestServer server = HttpsTest.tlsServer(false);
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK))
            .proxy(Proxy.http(proxy.url())).build()) {
      for (int i = 0; i < 10; i++) {
        assertArrayEquals(Payloads.SMALL, client.get("https://localhost:" + server.port() + "/small").bytes());
      }
      assertEquals(1, proxy.connects());
      assertEquals(List.of(new TestProxy.Seen("CONNECT localhost:" + server.port() + " HTTP/1.1", null)), proxy.seen());
      assertEquals(1, server.tlsHandshakes());
      assertEquals(1, client.stats().origins().get("https://localhost:" + server.port()).open());
      // The tunnel is to localhost; 127.0.0.1 is another origin and gets its own.
      assertEquals(200, client.get(server.url("/small")).status());
      assertEquals(2, proxy.connects());
    }
  }

  @Test
  void tunnelForAllSendsHttpThroughConnectAndReusesTheTunnel() {
    try (TestServer server = TestServer.start();
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http(proxy.url()).withTunnelForAll()).build()) {
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
      }
      assertEquals(List.of(new TestProxy.Seen("CONNECT 127.0.0.1:" + server.port() + " HTTP/1.1", null)), proxy.seen(),
          "one tunnel asked for, and no request forwarded in absolute form");
    }
  }

  @Test
  void wrongServerCertificateThroughTheTunnelIsATlsFailure() {
    try (TestServer server = HttpsTest.tlsServer(false);
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
      assertThrows(TlsException.class, () -> client.get(server.url("/small")), "the system CAs do not trust the test CA");
    }
  }

  @Test
  void http2OverTheTunnelAndH2cByPriorKnowledge() {
    try (TestServer tls = HttpsTest.tlsServer(true);
        TestServer h2c = TestServer.builder().http2(true).build();
        TestProxy proxy = TestProxy.start();
        Client h2 = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).version(VersionPolicy.HTTP_2)
            .proxy(Proxy.http(proxy.url())).build();
        Client prior = Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).proxy(Proxy.http(proxy.url())).build()) {
      List<CompletableFuture<Response>> burst = IntStream.range(0, 20)
          .mapToObj(i -> h2.async().get(tls.url("/small"))).toList();
      for (CompletableFuture<Response> f : burst) {
        Response r = f.join();
        assertEquals(Version.HTTP_2, r.version());
        assertArrayEquals(Payloads.SMALL, r.bytes());
      }
      assertEquals(1, proxy.connects(), "one HTTP/2 connection carries the burst");
      Response r = prior.get(h2c.url("/small"));
      assertEquals(Version.HTTP_2, r.version());
      assertEquals(2, proxy.connects(), "h2c needs a tunnel too: a proxy would not forward the preface");
    }
  }

  @Test
  void refusedConnectIsAConnectExceptionWithTheStatus() {
    for (int status : new int[] {407, 403, 502}) {
      try (TestProxy proxy = TestProxy.builder().connectStatus(status).build();
          Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
        Request request = Request.get("https://localhost:1/x");
        ConnectException e = assertThrows(ConnectException.class, () -> client.send(request));
        assertEquals(ConnectException.class, e.getClass());
        assertTrue(e.getMessage().startsWith("proxy 127.0.0.1:" + proxy.port() + " refused the tunnel to localhost:1: "
            + status + " "), e.getMessage());
        assertTrue(e.getMessage().endsWith("(GET https://localhost:1/x)"), e.getMessage());
        assertEquals(request.url(), e.request().url());
        assertEquals(0, client.stats().open());
      }
    }
  }

  @Test
  void unreachableProxyIsNamed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (Client client = Client.builder().proxy(Proxy.http("127.0.0.1:" + port)).build()) {
      for (String url : List.of("http://example.test/", "https://example.test/")) {
        ConnectException e = assertThrows(ConnectException.class, () -> client.get(url));
        assertTrue(e.getMessage().startsWith("cannot connect to proxy 127.0.0.1:" + port + ": connection refused"),
            e.getMessage());
      }
    }
    try (Client client = Client.builder().proxy(Proxy.http("no-such-proxy.invalid:3128")).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://example.test/"));
      assertTrue(e.getMessage().startsWith("cannot connect to proxy no-such-proxy.invalid:3128: unknown host"),
          e.getMessage());
    }
  }

  @Test
  void silentProxyTimesOutTheConnectWithinTheConnectTimeout() {
    try (TestProxy proxy = TestProxy.builder().silent().build();
        Client client = Client.builder().proxy(Proxy.http(proxy.url()))
            .timeout(Timeout.DEFAULT.withConnect(Duration.ofMillis(300))).build()) {
      long start = System.nanoTime();
      ConnectTimeoutException e = assertThrows(ConnectTimeoutException.class, () -> client.get("https://localhost:1/"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= 250 && millis < 3000, millis + " ms");
      assertTrue(e.getMessage().startsWith("connect to localhost:1 through proxy 127.0.0.1:" + proxy.port()
          + " timed out after 0.3 s"), e.getMessage());
      assertEquals(1, proxy.connects());
      assertEquals(0, client.stats().open());
    }
  }

  @Test
  void noProxyHostsGoDirect() {
    try (TestServer server = TestServer.start();
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.fromEnvironment(java.util.Map.of(
            "http_proxy", proxy.url(), "no_proxy", "localhost,127.0.0.0/8"))).build()) {
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
      assertArrayEquals(Payloads.SMALL, client.get("http://localhost:" + server.port() + "/small").bytes());
      assertEquals(List.of(), proxy.seen());
      assertEquals("GET http://example.test/", client.get("http://example.test/").text());
      assertEquals(1, proxy.seen().size());
    }
  }

  @Test
  void aRequestsOwnProxyAuthorizationWins() {
    try (TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http("http://u:p@127.0.0.1:" + proxy.port())).build()) {
      client.send(Request.builder("GET", "http://example.test/").header("Proxy-Authorization", "Bearer t").build());
      assertEquals("Bearer t", proxy.seen().get(0).proxyAuthorization());
    }
    try (TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
      client.get("http://example.test/");
      assertNull(proxy.seen().get(0).proxyAuthorization());
    }
  }
}
