package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.bench.clients.Wire;
import dev.strand.testkit.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code --link}: each listener behind a shaper in a JVM of its own, gone when the links close. */
@Timeout(120)
class ShapedLinksTest {

  @Test
  void aListenerIsReachedThroughItsLinkWhichAddsTheRoundTripAndStopsWithTheLinks() throws Exception {
    try (TestServer server = TestServer.start(); HttpClient jdk = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5)).build()) {
      URI shaped;
      try (ShapedLinks links = new ShapedLinks("rtt=60ms")) {
        shaped = links.through(server.baseUri(), Wire.H1);
        assertNotEquals(server.baseUri().getPort(), shaped.getPort());
        assertEquals(shaped, links.through(server.baseUri(), Wire.H1), "one link per listener");
        assertNull(links.through(server.baseUri(), Wire.H3), "UDP is not shaped");

        HttpRequest get = HttpRequest.newBuilder(shaped.resolve("/small")).timeout(Duration.ofSeconds(10)).build();
        assertEquals(200, jdk.send(get, BodyHandlers.ofString()).statusCode()); // a connection, then a round trip
        long start = System.nanoTime();
        assertEquals(200, jdk.send(get, BodyHandlers.ofString()).statusCode());
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 60, "a request on a kept-alive connection took " + ms + " ms, under the 60 ms round trip");
      }
      HttpRequest after = HttpRequest.newBuilder(shaped.resolve("/small")).timeout(Duration.ofSeconds(10)).build();
      assertThrows(IOException.class, () -> jdk.send(after, BodyHandlers.ofString()), "the link's process is gone");
    }
  }

  @Test
  void noSpecMeansTheServerItself() {
    try (ShapedLinks links = new ShapedLinks(null)) {
      URI server = URI.create("http://127.0.0.1:8080/");
      assertSame(server, links.through(server, Wire.H1));
    }
  }
}
