package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestProxy;
import dev.strand.testkit.TestServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WebSockets through the scripted {@link TestProxy}: always a CONNECT tunnel, for ws:// as for wss://
 * (a forwarding proxy need not relay an upgrade). Real proxies are in {@link dev.strand.peers.ProxyPeersTest}.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketProxyTest {
  @Test
  void wsGoesThroughOneConnectTunnel() throws Exception {
    try (TestServer server = TestServer.start();
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket("ws://localhost:" + server.port() + "/ws/echo?deflate=1", rec);
      assertEquals(List.of(new TestProxy.Seen("CONNECT localhost:" + server.port() + " HTTP/1.1", null)), proxy.seen());
      assertEquals(1, proxy.tunnelsOpen());
      rec.echoAndClose(ws, "through the proxy");
    }
  }

  @Test
  void wssGoesThroughOneConnectTunnelAndVerifiesTheServer() throws Exception {
    try (TestServer server = HttpsTest.tlsServer(false);
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.JDK))
            .proxy(Proxy.http("http://user:pass@127.0.0.1:" + proxy.port())).build()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket("wss://localhost:" + server.port() + "/ws/echo", rec);
      assertEquals(1, proxy.seen().size(), proxy.seen().toString());
      assertEquals("CONNECT localhost:" + server.port() + " HTTP/1.1", proxy.seen().get(0).requestLine());
      assertTrue(proxy.seen().get(0).proxyAuthorization().startsWith("Basic "), proxy.seen().toString());
      assertEquals(1, server.tlsHandshakes());
      rec.echoAndClose(ws, "through the proxy");
    }
  }

  @Test
  void aRefusedConnectIsAConnectExceptionWithTheStatus() {
    try (TestProxy proxy = TestProxy.builder().connectStatus(407).build();
        Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      ConnectException e = assertThrows(ConnectException.class,
          () -> client.websocket("ws://localhost:1/ws/echo", rec));
      assertEquals(ConnectException.class, e.getClass());
      assertTrue(e.getMessage().startsWith("proxy 127.0.0.1:" + proxy.port()
          + " refused the tunnel to localhost:1: 407 Proxy Authentication Required"), e.getMessage());
      assertEquals(1, proxy.connects());
      assertEquals(0, rec.opens.get());
      assertEquals(0, rec.ends.get(), "no listener call for a socket that never opened");
    }
  }

  @Test
  void noProxyHostsGoDirect() throws Exception {
    try (TestServer server = TestServer.start();
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.fromEnvironment(Map.of(
            "http_proxy", proxy.url(), "no_proxy", "127.0.0.1"))).build()) {
      WebSocketRecorder direct = new WebSocketRecorder();
      direct.echoAndClose(client.websocket("ws://127.0.0.1:" + server.port() + "/ws/echo", direct), "direct");
      assertEquals(List.of(), proxy.seen());
      assertEquals(0, proxy.acceptedConnections());

      WebSocketRecorder proxied = new WebSocketRecorder();
      proxied.echoAndClose(client.websocket("ws://localhost:" + server.port() + "/ws/echo", proxied), "through the proxy");
      assertEquals(1, proxy.connects(), "a ws:// URL takes http_proxy: " + proxy.seen());
    }
  }

  @Test
  void closingTheClientAbortsAProxiedSocketAndItsTunnel() throws Exception {
    try (TestServer server = TestServer.start(); TestProxy proxy = TestProxy.start()) {
      Client client = Client.builder().proxy(Proxy.http(proxy.url())).build();
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket("ws://localhost:" + server.port() + "/ws/echo", rec);
      assertEquals(1, proxy.tunnelsOpen());
      client.close();
      assertTrue(rec.awaitError().getMessage().contains("client was closed"), rec.error.getMessage());
      assertFalse(ws.isOpen());
      for (int i = 0; i < 100 && proxy.tunnelsOpen() > 0; i++) {
        Thread.sleep(50); // the proxy notices the closed connection on its own event loop
      }
      assertEquals(0, proxy.tunnelsOpen(), "the proxy's tunnel closes with the socket");
    }
  }

  @Test
  void closingTheClientWhileTheProxyHoldsTheConnectFailsTheHandshake() throws Exception {
    try (TestProxy proxy = TestProxy.builder().silent().build()) {
      Client client = Client.builder().proxy(Proxy.http(proxy.url())).build();
      WebSocketRecorder rec = new WebSocketRecorder();
      CompletableFuture<WebSocket> opening = client.async().websocket("ws://localhost:1/ws/echo", rec);
      for (int i = 0; i < 100 && proxy.connects() == 0; i++) {
        Thread.sleep(50); // until the CONNECT has reached the proxy
      }
      assertEquals(1, proxy.connects());
      client.close();
      ExecutionException e = assertThrows(ExecutionException.class, () -> opening.get(5, TimeUnit.SECONDS));
      assertEquals(TransportException.class, e.getCause().getClass());
      assertEquals("the client was closed before the WebSocket handshake completed (GET ws://localhost:1/ws/echo)",
          e.getCause().getMessage());
      assertEquals(0, rec.ends.get(), "no listener call for a socket that never opened");
    }
  }

  @Test
  void anUntrustedServerThroughTheTunnelIsATlsFailure() {
    try (TestServer server = HttpsTest.tlsServer(false);
        TestProxy proxy = TestProxy.start();
        Client client = Client.builder().proxy(Proxy.http(proxy.url())).build()) {
      assertThrows(TlsException.class,
          () -> client.websocket("wss://localhost:" + server.port() + "/ws/echo", new WebSocketRecorder()));
      assertEquals(1, proxy.connects());
    }
  }
}
