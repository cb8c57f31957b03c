package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.strand.internal.dns.DnsMessage;
import dev.strand.internal.dns.DnsOverHttps;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DNS over HTTPS against a scripted resolver (the JDK's HTTP server answering with DNS messages): answers
 * used and cached for their TTL, and a resolver that misbehaves failing the call with a typed exception
 * that says how, within the call's deadline. Unbound's DNS over HTTPS is {@code peers.UnboundDohTest}'s.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class DnsOverHttpsTest {
  /** A resolver at {@code /dns-query} that answers each query with what {@code answer} makes of it, counting queries. */
  private static final class ScriptedResolver implements AutoCloseable {
    final HttpServer server;
    final AtomicInteger queries = new AtomicInteger();

    ScriptedResolver(String contentType, int status, Function<byte[], byte[]> answer) throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      server.createContext("/dns-query", exchange -> {
        queries.incrementAndGet();
        String q = exchange.getRequestURI().getRawQuery();
        byte[] query = Base64.getUrlDecoder().decode(q.substring(q.indexOf("dns=") + 4));
        byte[] body = answer.apply(query);
        if (body == null) {
          return; // never answers: the client's read timeout ends it
        }
        exchange.getResponseHeaders().add("content-type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
      });
      server.start();
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/dns-query");
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  /** An answer to {@code query} with one record of the asked type for 127.0.0.1 or ::1, for {@code ttl} seconds. */
  static byte[] loopbackAnswer(byte[] query, int ttl) {
    int type = (query[query.length - 4] & 0xFF) << 8 | (query[query.length - 3] & 0xFF);
    byte[] address = type == DnsMessage.TYPE_A ? new byte[] {127, 0, 0, 1}
        : new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    ByteBuffer b = ByteBuffer.allocate(query.length + 12 + address.length);
    b.put(query);
    b.put(2, (byte) 0x81).put(3, (byte) 0x80); // QR, RD, RA
    b.put(7, (byte) 1); // ANCOUNT
    b.putShort((short) 0xC00C).putShort((short) type).putShort((short) 1).putInt(ttl).putShort((short) address.length)
        .put(address);
    return b.array();
  }

  @Test
  void namesResolveOverHttpsAndAnswersAreKeptForTheirTtl() throws Exception {
    AtomicLong now = new AtomicLong();
    try (ScriptedResolver resolver = new ScriptedResolver("application/dns-message", 200, q -> loopbackAnswer(q, 60));
        Client doh = Client.create();
        TestServer server = TestServer.start()) {
      DnsOverHttps dns = new DnsOverHttps(doh, resolver.url(), now::get);
      assertEquals(List.of(InetAddress.getByName("::1"), InetAddress.getByName("127.0.0.1")), dns.lookup("api.test"));
      assertEquals(2, resolver.queries.get(), "an AAAA and an A query");
      now.addAndGet(Duration.ofSeconds(59).toNanos());
      dns.lookup("API.test.");
      assertEquals(2, resolver.queries.get(), "within the TTL the answer is reused");
      now.addAndGet(Duration.ofSeconds(2).toNanos());
      dns.lookup("api.test");
      assertEquals(4, resolver.queries.get(), "after the TTL it is asked again");
      try (Client client = Client.builder().dns(Dns.overHttps(doh, resolver.url())).build()) {
        assertEquals(200, client.get("http://api.test:" + server.port() + "/small").status()); // ::1 refused, then 127.0.0.1
      }
    }
  }

  @Test
  void aMisbehavingResolverFailsTheCallSayingHow() throws Exception {
    assertResolverFailure("application/dns-message", 200, q -> new byte[] {0, 0, (byte) 0x81},
        "unknown host (malformed DNS answer: it ends at byte 3");
    assertResolverFailure("application/dns-message", 200, q -> {
      byte[] a = loopbackAnswer(q, 60);
      a[0] = 0x12; // another query's ID
      return a;
    }, "malformed DNS answer: its ID is");
    assertResolverFailure("text/html", 200, q -> "<html>".getBytes(), "answered with content-type \"text/html\"");
    assertResolverFailure("application/dns-message", 500, q -> new byte[0], "answered 500");
  }

  @Test
  void aResolverThatNeverAnswersIsBoundedByTheResolversOwnTimeout() throws Exception {
    try (ScriptedResolver resolver = new ScriptedResolver("application/dns-message", 200, q -> null);
        Client doh = Client.builder().timeout(Timeout.of(Duration.ofMillis(500))).build();
        Client client = Client.builder().dns(Dns.overHttps(doh, resolver.url())).build()) {
      long start = System.nanoTime();
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://slow.test/"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < 3_000, "bounded by the resolver client's 500 ms read timeout: " + millis + " ms");
      assertTrue(e.getMessage().contains("cannot look up slow.test over HTTPS: read timed out"), e.getMessage());
    }
  }

  private static void assertResolverFailure(String type, int status, Function<byte[], byte[]> answer, String expected)
      throws IOException {
    try (ScriptedResolver resolver = new ScriptedResolver(type, status, answer);
        Client doh = Client.create();
        Client client = Client.builder().dns(Dns.overHttps(doh, resolver.url())).build()) {
      ConnectException e = assertThrows(ConnectException.class, () -> client.get("http://odd.test/"));
      assertTrue(e.getMessage().startsWith("cannot connect to odd.test:80: ") && e.getMessage().contains(expected),
          "expected \"" + expected + "\" in: " + e.getMessage());
      assertTrue(e.getCause() instanceof UnknownHostException, String.valueOf(e.getCause()));
      assertEquals(0, client.stats().origins().values().stream().mapToInt(o -> o.open()).sum());
    }
  }
}
