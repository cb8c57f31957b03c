package dev.strand.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ClientStats;
import dev.strand.InvalidUrlException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Defaults that keep a hostile server from exhausting memory or escaping the URL rules: a buffered body
 * is capped by default (a small gzip body decoding to gigabytes fails), a streamed one is not; a redirect to
 * an impossible URL is refused before any connection is made.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1LimitsTest {
  /**
   * 128 MiB of zeros gzipped, about 128 KiB on the wire: twice a sane default cap (64 MiB), yet small enough
   * that a client without one holds it (and its growing copies) inside the test JVM's 768 MiB heap, so a
   * missing cap fails this case rather than the whole run with an OutOfMemoryError. A real bomb inflates to
   * gigabytes; the cap is what matters, not the size.
   */
  private static final long BOMB_SIZE = 128L << 20;
  private static byte[] bomb;

  private static synchronized byte[] bomb() throws Exception {
    if (bomb == null) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] zeros = new byte[1 << 20];
      try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
        for (long n = 0; n < BOMB_SIZE; n += zeros.length) {
          gz.write(zeros);
        }
      }
      bomb = out.toByteArray();
    }
    return bomb;
  }

  private static HostilePeer.Script gzipBomb() throws Exception {
    byte[] body = bomb();
    return c -> {
      c.readHead();
      c.write("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: " + body.length + "\r\n\r\n");
      c.write(body);
      c.awaitClientClose(Peers.HOLD);
    };
  }

  @Test
  void aBufferedGzipBombFailsAtTheDefaultLimit() throws Exception {
    try (HostilePeer peer = new HostilePeer(gzipBomb()); Client client = Peers.http1()) {
      Outcome.protocolError("exceeds the limit", "maxBodySize").check(() -> client.send(Request.get(peer.url("/"))));
      PoolCheck.settled(client); // the compressed body was framed correctly: its connection may be kept
    }
  }

  @Test
  void aStreamedGzipBombIsNotLimited() throws Exception {
    try (HostilePeer peer = new HostilePeer(gzipBomb()); Client client = Peers.http1()) {
      long read = assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
        try (StreamingResponse r = client.stream(Request.builder("GET", peer.url("/")).build());
            InputStream in = r.body()) {
          byte[] buf = new byte[1 << 16];
          long total = 0;
          for (int n; total < BOMB_SIZE && (n = in.read(buf)) >= 0; ) { // all of it: past any buffered cap
            total += n;
          }
          return total;
        }
      });
      assertEquals(BOMB_SIZE, read, read + " bytes");
      PoolCheck.settled(client);
    }
  }

  @Test
  void aRedirectToAnImpossiblePortIsAnInvalidUrl() throws Exception {
    try (HostilePeer peer = new HostilePeer(Peers.answer("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:99999/\r\n"
            + "Content-Length: 0\r\n\r\n"));
        Client client = Client.builder().timeout(Peers.TIMEOUT).followRedirects(true).build()) {
      ClientStats before = client.stats();
      InvalidUrlException e = assertTimeoutPreemptively(Outcome.DEADLINE,
          () -> assertThrows(InvalidUrlException.class, () -> client.get(peer.url("/"))));
      assertTrue(e.getMessage().contains("99999"), e.getMessage());
      PoolCheck.settled(client);
      assertEquals(1, client.stats().connectionsOpened() - before.connectionsOpened(), "no connection to port 99999");
      assertTrue(client.stats().origins().keySet().stream().noneMatch(o -> o.contains("99999")),
          client.stats().toString());
    }
  }
}
