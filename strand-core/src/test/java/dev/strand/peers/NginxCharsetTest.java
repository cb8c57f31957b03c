package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ProtocolException;
import dev.strand.Response;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.NginxDocroot;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Response text in ISO-8859-1 from a real nginx, with and without a charset in Content-Type (both
 * gzip-compressed on the wire). Skipped without {@code STRAND_NGINX_URL}, except on CI.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
@Tag("peer")
class NginxCharsetTest {
  private static String base;

  @BeforeAll
  static void peer() {
    base = Peers.env("STRAND_NGINX_URL");
  }

  @Test
  void aDeclaredCharsetIsUsed() {
    try (Client client = Client.builder().baseUrl(base).build()) {
      Response r = client.get("/latin1-declared.txt");
      assertEquals("text/plain; charset=iso-8859-1", r.headers().first("Content-Type"));
      assertEquals(NginxDocroot.LATIN1_TEXT, r.textStrict());
    }
  }

  @Test
  void withoutOneTheClientsDefaultIsUsed() {
    try (Client client = Client.builder().baseUrl(base).build()) {
      Response r = client.get("/latin1.txt");
      assertEquals("text/plain", r.headers().first("Content-Type"));
      assertTrue(r.text().startsWith("Caf\uFFFD "), "UTF-8 by default, lenient: " + r.text());
      ProtocolException e = assertThrows(ProtocolException.class, r::textStrict);
      assertTrue(e.getMessage().contains("offset 3"), e.getMessage());
    }
    try (Client client = Client.builder().baseUrl(base).defaultCharset(StandardCharsets.ISO_8859_1).build()) {
      assertEquals(NginxDocroot.LATIN1_TEXT, client.get("/latin1.txt").textStrict());
    }
  }
}
