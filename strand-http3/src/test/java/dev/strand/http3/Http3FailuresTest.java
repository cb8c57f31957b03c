package dev.strand.http3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ConnectTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.TlsException;
import dev.strand.Tls;
import dev.strand.TransportException;
import dev.strand.VersionPolicy;
import dev.strand.testkit.Http3TestServer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.tls.TestPki;
import java.net.DatagramSocket;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * HTTP/3 failures end as on TCP: the same exception types, messages that say what happened, within
 * their timeouts, nothing leaked, and the client still usable afterwards.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http3FailuresTest {
  @Test
  void serverClosingTheQuicConnectionMidStreamFailsTheBodyClearly() throws Exception {
    try (Http3TestServer server = Http3Fixture.server(100); Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      try (StreamingResponse r = client.stream(Request.get(server.url("/abort/100000")))) {
        assertEquals(200, r.status());
        TransportException e = assertThrows(TransportException.class, () -> {
          for (byte[] chunk : r.chunks()) {
            assertTrue(chunk.length > 0);
          }
        });
        assertInstanceOf(ProtocolException.class, e, e.toString());
        assertTrue(e.getMessage().contains("H3_INTERNAL_ERROR") && e.getMessage().contains("test abort"), e.getMessage());
      }
      // A new connection serves the next request.
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
      assertEquals(2, server.connections());
    }
  }

  @Test
  void closingTheClientFailsACallInFlight() throws Exception {
    try (Http3TestServer server = Http3Fixture.server(100)) {
      Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY);
      CompletableFuture<Response> inFlight = client.async().send(Request.get(server.url("/delay/60000")));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (client.stats().inUse() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(1, client.stats().inUse(), "the call is on its QUIC stream");
      client.close();
      // Its QUIC channel is closed while the event loops still run, so the call hears of it and does not wait on.
      CompletionException e = assertThrows(CompletionException.class, () -> inFlight.orTimeout(10, TimeUnit.SECONDS).join());
      assertInstanceOf(TransportException.class, e.getCause(), () -> String.valueOf(e.getCause()));
    }
  }

  @Test
  void untrustedCertificateIsATlsException() {
    TestPki pki = TestPki.shared();
    try (Http3TestServer server = Http3TestServer.start(pki.selfSigned().cert(), pki.selfSigned().key(), 100);
        Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      TlsException e = assertThrows(TlsException.class, () -> client.get(server.url("/small")));
      assertEquals(TlsException.Reason.UNKNOWN_CA, e.reason(), e.getMessage());
    }
  }

  @Test
  void certificateForAnotherHostIsATlsException() {
    TestPki pki = TestPki.shared();
    try (Http3TestServer server = Http3TestServer.start(pki.wrongHost().cert(), pki.wrongHost().key(), 100);
        Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      TlsException e = assertThrows(TlsException.class, () -> client.get(server.url("/small")));
      assertEquals(TlsException.Reason.HOSTNAME_MISMATCH, e.reason(), e.getMessage());
    }
  }

  @Test
  void insecureTlsAcceptsAnyCertificate() {
    TestPki pki = TestPki.shared();
    try (Http3TestServer server = Http3TestServer.start(pki.selfSigned().cert(), pki.selfSigned().key(), 100);
        Client client = Client.builder().tls(Tls.insecure()).version(VersionPolicy.HTTP_3_ONLY).build()) {
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
    }
  }

  @Test
  void nothingListeningOnUdpIsAConnectTimeoutWithinTheConnectTimeout() throws Exception {
    int port;
    try (DatagramSocket s = new DatagramSocket(0)) {
      port = s.getLocalPort(); // free again once closed: nothing answers there
    }
    Timeout t = Timeout.of(Duration.ofSeconds(10)).withConnect(Duration.ofMillis(700));
    try (Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY, t)) {
      long start = System.nanoTime();
      ConnectTimeoutException e = assertThrows(ConnectTimeoutException.class,
          () -> client.get("https://127.0.0.1:" + port + "/small"));
      long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(ms < 3000, "took " + ms + " ms");
      assertTrue(e.getMessage().contains("QUIC handshake with 127.0.0.1:" + port + " timed out after 0.7 s"), e.getMessage());
    }
  }

  @Test
  void readTimeoutAppliesToHttp3() {
    Timeout t = Timeout.of(Duration.ofSeconds(10)).withRead(Duration.ofMillis(300));
    try (Http3TestServer server = Http3Fixture.server(100); Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY, t)) {
      ReadTimeoutException e = assertThrows(ReadTimeoutException.class, () -> client.get(server.url("/delay/3000")));
      assertTrue(e.getMessage().contains("read timed out"), e.getMessage());
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes(), "the connection goes on");
      assertEquals(1, server.connections());
    }
  }

  @Test
  void cancellingAFutureResetsOnlyItsStream() throws Exception {
    try (Http3TestServer server = Http3Fixture.server(100); Client client = Http3Fixture.client(VersionPolicy.HTTP_3_ONLY)) {
      client.get(server.url("/small"));
      CompletableFuture<Response> slow = client.async().get(server.url("/delay/5000"));
      Thread.sleep(100);
      slow.cancel(true);
      assertThrows(CancellationException.class, slow::join);
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
      assertEquals(1, server.connections());
      // Closing a streamed body early discards only that stream too.
      try (StreamingResponse r = client.stream(Request.get(server.url("/bytes/10000000")))) {
        assertEquals(200, r.status());
      }
      assertArrayEquals(Payloads.SMALL, client.get(server.url("/small")).bytes());
      assertEquals(1, server.connections());
    }
  }

  @Test
  void poolTimeoutWhenTheOnlyConnectionIsFull() {
    Timeout t = Timeout.of(Duration.ofSeconds(10)).withPool(Duration.ofMillis(300));
    try (Http3TestServer server = Http3Fixture.server(1);
        Client client = Client.builder().tls(Http3Fixture.trustingTestCa()).version(VersionPolicy.HTTP_3_ONLY).timeout(t)
            .limits(dev.strand.Limits.ofConnections(1)).build()) {
      client.get(server.url("/small"));
      CompletableFuture<Response> busy = client.async().get(server.url("/delay/1500"));
      CompletionException e = assertThrows(CompletionException.class,
          () -> client.async().get(server.url("/small")).join());
      assertInstanceOf(dev.strand.PoolTimeoutException.class, e.getCause());
      assertArrayEquals(Payloads.SMALL, busy.join().bytes());
    }
  }
}
