package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** wss:// against the testkit's HTTPS server, on both TLS engines and whatever the version policy. */
@ExtendWith(NettyLeakDetectorExtension.class)
class WebSocketTlsTest {
  @ParameterizedTest
  @MethodSource("dev.strand.HttpsTest#engines")
  void echoesOverTls(Tls.Engine engine) throws Exception {
    try (TestServer server = HttpsTest.tlsServer(false);
        Client client = Client.builder().tls(SharedTestPki.trustTestCa(engine)).build()) {
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket("wss://localhost:" + server.port() + "/ws/echo?deflate=1", rec);
      byte[] data = Payloads.bytes(1_000_000);
      ws.sendBinary(data);
      assertArrayEquals(data, rec.nextBinary());
      rec.echoAndClose(ws, "over tls");
    }
  }

  /** A server that speaks h2 would pick it if offered, and a WebSocket cannot run over it: ALPN offers http/1.1 only. */
  @ParameterizedTest
  @ValueSource(strings = {"HTTP_1_1", "HTTP_2"})
  void alpnOffersOnlyHttp11WhateverTheVersionPolicy(VersionPolicy version) throws Exception {
    try (TestServer server = HttpsTest.tlsServer(true);
        Client client = Client.builder().version(version).tls(SharedTestPki.trustTestCa(Tls.Engine.JDK)).build()) {
      assertEquals(version == VersionPolicy.HTTP_2 ? Version.HTTP_2 : Version.HTTP_1_1,
          client.get(server.url("/small")).version(), "the server does speak h2 to normal requests");
      WebSocketRecorder rec = new WebSocketRecorder();
      WebSocket ws = client.websocket(server.url("/ws/echo"), rec);
      assertEquals(Version.HTTP_1_1, ws.handshake().version());
      ws.sendText("h1");
      assertEquals("h1", rec.nextText());
      ws.close(1000, "").get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void anUntrustedServerFailsWithTlsException() {
    try (TestServer server = HttpsTest.tlsServer(false); Client client = Client.create()) {
      assertThrows(TlsException.class,
          () -> client.websocket("wss://127.0.0.1:" + server.port() + "/ws/echo", new WebSocketRecorder()));
    }
  }
}
