package dev.strand.internal.http2;

import dev.strand.spi.StreamingResponses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.NettyTransport;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import dev.strand.testkit.LinkShaper;
import dev.strand.testkit.NettyLeakDetectorExtension;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The receive windows over a link with a round trip: widened to what the link carries, within their bounds. */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http2WindowsTest {
  private static final int BODY = 24 * 1024 * 1024;

  @Test
  void aDownloadOverALongRoundTripWidensTheStreamWindow() throws Exception {
    try (ScriptedH2Server server = new ScriptedH2Server(0, true, BODY);
        LinkShaper link = LinkShaper.builder(new InetSocketAddress("127.0.0.1", server.port()))
            .rtt(Duration.ofMillis(40)).build();
        NettyTransport t = Http2LifecycleTest.h2c()) {
      Request get = Request.builder("GET", "http://127.0.0.1:" + link.port() + "/big")
          .timeout(Timeout.of(Duration.ofSeconds(30))).build();
      StreamingResponse r = t.send(get).get(30, TimeUnit.SECONDS);
      assertEquals(BODY, StreamingResponses.body(r).readAll(BODY).get(60, TimeUnit.SECONDS).length);
      assertEquals((long) Http2Connection.STREAM_WINDOW, server.clientStreamWindows.get(0), "the window it starts with");
      assertTrue(server.clientStreamWindows.size() > 1, "1 MiB a round trip filled the window: it was widened "
          + server.clientStreamWindows);
      System.out.println("stream windows the client asked for: " + server.clientStreamWindows);
      long widest = server.clientStreamWindows.stream().mapToLong(Long::longValue).max().orElseThrow();
      assertTrue(widest > Http2Connection.STREAM_WINDOW && widest <= WindowTuner.MAX_STREAM_WINDOW,
          "widened within the bound: " + server.clientStreamWindows);
    }
  }
}
