package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import dev.strand.testkit.TestServer;
import dev.strand.testkit.TestServerExtension;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** HTTP/2 through the Client against the testkit server: ALPN, h2c prior knowledge, multiplexing, flow control. */
@ExtendWith(NettyLeakDetectorExtension.class)
public class Http2Test {
  @RegisterExtension
  static final TestServerExtension tls = tlsServer();
  @RegisterExtension
  static final TestServerExtension h2c = h2cServer();

  /** A testkit server speaking h2 (and HTTP/1.1) by ALPN over TLS with the shared test PKI. */
  static TestServerExtension tlsServer() {
    return TestServerExtension.of(() -> TestServer.builder()
        .tls(SharedTestPki.get().server().cert(), SharedTestPki.get().server().key()).http2(true).build());
  }

  /** A cleartext testkit server speaking h2c with prior knowledge (and HTTP/1.1). */
  static TestServerExtension h2cServer() {
    return TestServerExtension.of(() -> TestServer.builder().http2(true).build());
  }

  static Client h2(Limits limits) {
    return Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).version(VersionPolicy.HTTP_2).limits(limits)
        .timeout(Timeout.of(java.time.Duration.ofSeconds(30))).build();
  }

  @Test
  void theDefaultPolicyPrefersH2OverTlsAndOneLineOptsOut() {
    try (Client byDefault = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).build();
        Client h1 = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).version(VersionPolicy.HTTP_1_1).build();
        NettyTransport transport = NettyTransport.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).build();
        Client onTransport = Client.builder().transport(transport).build()) {
      Response r = byDefault.get(tls.url("/small"));
      assertEquals(Version.HTTP_2, r.version(), "h2 by ALPN unless asked otherwise");
      assertArrayEquals(Payloads.SMALL, r.bytes());
      assertEquals(Version.HTTP_2, onTransport.get(tls.url("/small")).version(), "NettyTransport's default too");
      assertEquals(Version.HTTP_1_1, h1.get(tls.url("/small")).version(), ".version(HTTP_1_1) opts out");
      assertEquals(Version.HTTP_1_1, byDefault.get(h2c.url("/small")).version(), "no h2c in cleartext by default");
    }
  }

  @Test
  void alpnChoosesH2AndThePolicyDecides() {
    try (Client h2 = h2(Limits.DEFAULT);
        Client h1 = Client.builder().tls(SharedTestPki.trustTestCa(Tls.Engine.AUTO)).version(VersionPolicy.HTTP_1_1).build()) {
      Response r = h2.get(tls.url("/small"));
      assertEquals(Version.HTTP_2, r.version());
      assertArrayEquals(Payloads.SMALL, r.bytes());
      assertEquals(Version.HTTP_1_1, h1.get(tls.url("/small")).version(), "HTTP_1_1 policy does not offer h2");
      assertEquals(Version.HTTP_1_1, h2.get(h2c.url("/small")).version(), "HTTP_2 policy speaks HTTP/1.1 in cleartext");
    }
  }

  @Test
  void priorKnowledgeSpeaksH2c() {
    try (Client client = Client.builder().version(VersionPolicy.HTTP_2_PRIOR_KNOWLEDGE).build()) {
      Response r = client.get(h2c.url("/echo?x=1"));
      assertEquals(Version.HTTP_2, r.version());
      assertTrue(r.text().contains("\"query\": \"x=1\""), r.text());
      Response post = client.post(h2c.url("/echo"), RequestBody.of("hello h2"));
      assertTrue(post.text().contains("\"body\": \"hello h2\""), post.text());
    }
  }

  @Test
  void manyConcurrentStreamsShareOneConnection() throws Exception {
    try (Client client = h2(Limits.DEFAULT)) {
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        all.add(client.async().get(tls.url("/delay/50")));
      }
      for (CompletableFuture<Response> f : all) {
        assertEquals(200, f.get(30, TimeUnit.SECONDS).status());
      }
      assertEquals(1, client.stats().connectionsOpened(), "100 streams on one connection: " + client.stats());
    }
  }

  @Test
  void theServersStreamLimitIsRespected() throws Exception {
    var pki = SharedTestPki.get();
    try (TestServer four = TestServer.builder().tls(pki.server().cert(), pki.server().key()).http2(true)
            .maxConcurrentStreams(4).build();
        Client client = h2(Limits.ofConnections(1))) {
      List<CompletableFuture<Response>> all = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        all.add(client.async().get(four.url("/delay/20")));
      }
      for (CompletableFuture<Response> f : all) {
        assertEquals(200, f.get(30, TimeUnit.SECONDS).status(), "none refused");
      }
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  @Test
  void trailersAreExposed() throws Exception {
    try (Client client = h2(Limits.DEFAULT)) {
      Response r = client.get(tls.url("/trailers/100000"));
      String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(r.bytes()));
      assertEquals(sha, r.trailers().first("x-checksum"));
      try (StreamingResponse s = client.stream(Request.get(tls.url("/trailers")))) {
        s.body().readAllBytes();
        assertEquals(64, s.trailers().first("x-checksum").length());
      }
    }
  }

  @Test
  void a100MiBDownloadStreamsWithoutStalling() throws Exception {
    long n = 100L << 20;
    try (Client client = h2(Limits.DEFAULT); StreamingResponse r = client.stream(Request.get(tls.url("/bytes/" + n)))) {
      assertEquals(Version.HTTP_2, r.version());
      long total = 0;
      byte[] buf = new byte[64 * 1024];
      try (InputStream in = r.body()) {
        int k;
        while ((k = in.read(buf)) >= 0) {
          total += k;
        }
      }
      assertEquals(n, total);
    }
  }

  @Test
  void a100MiBStreamedUploadIsFlowControlled() {
    long n = 100L << 20;
    try (Client client = h2(Limits.DEFAULT)) {
      RequestBody body = RequestBody.ofInputStream(new ZeroStream(n), n, "application/octet-stream");
      Response r = client.post(tls.url("/sink"), body);
      assertTrue(r.text().contains("\"bytes\": " + n), r.text());
      assertEquals(Version.HTTP_2, r.version());
    }
  }

  @Test
  void aResetStreamIsAProtocolExceptionAndTheConnectionLivesOn() {
    try (Client client = h2(Limits.DEFAULT)) {
      assertEquals(200, client.get(tls.url("/small")).status());
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get(tls.url("/fault/reset-mid-body")));
      assertTrue(e.getMessage().contains("INTERNAL_ERROR") && e.getMessage().contains("error code 2"), e.getMessage());
      assertEquals(200, client.get(tls.url("/small")).status());
      assertEquals(1, client.stats().connectionsOpened(), "a stream reset does not cost the connection");
    }
  }

  @Test
  void aShortBodyIsDetected() {
    try (Client client = h2(Limits.DEFAULT)) {
      HttpException e = assertThrows(HttpException.class, () -> client.get(tls.url("/fault/wrong-length")));
      assertInstanceOf(ProtocolException.class, e, e.toString());
    }
  }

  @Test
  void closingAStreamedBodyEarlyResetsOnlyThatStream() throws Exception {
    try (Client client = h2(Limits.DEFAULT)) {
      try (StreamingResponse r = client.stream(Request.get(tls.url("/bytes/50000000")))) {
        assertTrue(r.body().read(new byte[1000]) > 0);
      }
      assertEquals(200, client.get(tls.url("/small")).status());
      assertEquals(1, client.stats().connectionsOpened());
    }
  }

  /** {@code n} zero bytes, generated as read. */
  public static final class ZeroStream extends InputStream {
    private long left;

    public ZeroStream(long n) {
      left = n;
    }

    @Override
    public int read() {
      return left-- > 0 ? 0 : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left <= 0) {
        return -1;
      }
      int k = (int) Math.min(len, left);
      java.util.Arrays.fill(b, off, off + k, (byte) 0);
      left -= k;
      return k;
    }
  }
}
