package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.testkit.LinkShaper;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A request through the testkit's link shaper takes the link's round trip, no less and not much more. */
@ExtendWith(NettyLeakDetectorExtension.class)
class LinkShaperRequestTest {
  @Test
  void aRequestOnAnOpenConnectionTakesOneRoundTrip() {
    try (TestServer server = TestServer.builder().build();
         LinkShaper link = LinkShaper.builder(new InetSocketAddress(server.host(), server.port()))
             .rtt(Duration.ofMillis(60)).build();
         Client client = Client.builder().version(VersionPolicy.HTTP_1_1).build()) {
      String url = "http://127.0.0.1:" + link.port() + "/small";
      long t0 = System.nanoTime();
      assertEquals(200, client.get(url).status());
      double first = (System.nanoTime() - t0) / 1e6;
      // The kernel completes the TCP handshake with the relay at once: only bytes are delayed.
      assertTrue(first >= 60, "the first request: one round trip at least, took " + first + " ms");
      double best = Double.MAX_VALUE;
      for (int i = 0; i < 3; i++) {
        long t = System.nanoTime();
        assertEquals(200, client.get(url).status());
        best = Math.min(best, (System.nanoTime() - t) / 1e6);
      }
      assertTrue(best >= 60 && best < 60 + 30, "a request on the open connection took " + best + " ms");
    }
  }
}
