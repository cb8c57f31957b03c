package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Transparent decompression through the client, for send and stream. */
class DecompressionTest {
  private static final byte[] JSON = ("{\"lines\": [" + "\"a line of text\", ".repeat(200) + "\"end\"]}")
      .getBytes(StandardCharsets.UTF_8);

  private static byte[] gzip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.toByteArray();
  }

  private static byte[] zlib(byte[] data) {
    Deflater d = new Deflater();
    d.setInput(data);
    d.finish();
    byte[] buf = new byte[data.length + 64];
    int n = d.deflate(buf);
    d.end();
    return java.util.Arrays.copyOf(buf, n);
  }

  private static byte[] brotli(byte[] data) throws IOException {
    com.aayushatharva.brotli4j.Brotli4jLoader.ensureAvailability(); // the client loads it only for a br body
    return com.aayushatharva.brotli4j.encoder.Encoder.compress(data);
  }

  private static MockTransport serving(String encoding, byte[] encoded) {
    return MockTransport.of(r -> Response.builder(200).header("Content-Type", "application/json")
        .header("Content-Encoding", encoding).header("Content-Length", String.valueOf(encoded.length))
        .body(encoded).build());
  }

  @Test
  void gzipIsDecodedAndItsHeadersRemoved() {
    try (Client client = Client.builder().transport(serving("gzip", gzip(JSON))).build()) {
      Response r = client.get("http://h/");
      assertArrayEquals(JSON, r.bytes());
      assertFalse(r.headers().contains("Content-Encoding"));
      assertFalse(r.headers().contains("Content-Length"));
      assertEquals("application/json", r.headers().first("Content-Type"));
    }
  }

  @Test
  void deflateIsDecoded() {
    try (Client client = Client.builder().transport(serving("deflate", zlib(JSON))).build()) {
      assertArrayEquals(JSON, client.get("http://h/").bytes());
    }
  }

  @Test
  void streamingDecodesToo() throws IOException {
    try (Client client = Client.builder().transport(serving("gzip", gzip(JSON))).build();
        StreamingResponse r = client.stream(Request.get("http://h/"));
        InputStream in = r.body()) {
      assertFalse(r.headers().contains("Content-Encoding"));
      assertArrayEquals(JSON, in.readAllBytes());
    }
  }

  @Test
  void corruptBodyFailsWithProtocolException() {
    byte[] bad = gzip(JSON);
    bad[bad.length / 2] ^= 0x7f;
    bad[bad.length / 2 + 1] ^= 0x7f;
    try (Client client = Client.builder().transport(serving("gzip", bad)).build()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("http://h/"));
      assertTrue(e.getMessage().contains("gzip"), e.getMessage());
    }
  }

  @Test
  void withDecompressOffTheBodyIsUntouched() {
    byte[] encoded = gzip(JSON);
    try (Client client = Client.builder().transport(serving("gzip", encoded)).decompress(false).build()) {
      Response r = client.get("http://h/");
      assertArrayEquals(encoded, r.bytes());
      assertEquals("gzip", r.headers().first("Content-Encoding"));
    }
  }

  @Test
  void unknownEncodingsKeepTheirBytesButAreNotText() {
    byte[] data = {1, 2, 3};
    try (Client client = Client.builder().transport(serving("compress", data)).build()) {
      Response r = client.get("http://h/");
      assertArrayEquals(data, r.bytes());
      assertEquals("compress", r.headers().first("Content-Encoding"));
      ProtocolException e = assertThrows(ProtocolException.class, r::text);
      assertTrue(e.getMessage().contains("compress is a coding this client does not decode"), e.getMessage());
      assertThrows(ProtocolException.class, r::textStrict);
      assertThrows(ProtocolException.class, () -> r.text(StandardCharsets.UTF_8));
    }
  }

  @Test
  void withDecompressOffTextRefusesTheEncodedBody() {
    try (Client client = Client.builder().transport(serving("gzip", gzip(JSON))).decompress(false).build()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("http://h/").text());
      assertTrue(e.getMessage().contains("decompression is off"), e.getMessage());
    }
  }

  @Test
  void brotliIsAdvertisedAndDecoded() throws IOException {
    byte[] encoded = brotli(JSON);
    try (Client client = Client.builder().transport(serving("br", encoded)).build()) {
      Response r = client.get("http://h/");
      String accepted = r.request().headers().first("Accept-Encoding");
      assertTrue(java.util.List.of(accepted.split(", ")).containsAll(java.util.List.of("gzip", "deflate", "br")), accepted);
      assertArrayEquals(JSON, r.bytes());
      assertFalse(r.headers().contains("Content-Encoding"));
    }
    try (Client client = Client.builder().transport(serving("br", encoded)).build();
        StreamingResponse r = client.stream(Request.get("http://h/"));
        InputStream in = r.body()) {
      assertArrayEquals(JSON, in.readAllBytes());
    }
  }

  @Test
  void gzipOverBrotliIsUnwrappedInOrder() throws IOException {
    byte[] encoded = gzip(brotli(JSON));
    try (Client client = Client.builder().transport(serving("br, gzip", encoded)).build()) {
      assertArrayEquals(JSON, client.get("http://h/").bytes());
    }
  }

  @Test
  void corruptBrotliFailsWithProtocolException() throws IOException {
    byte[] bad = brotli(JSON);
    bad = java.util.Arrays.copyOf(bad, bad.length / 2);
    try (Client client = Client.builder().transport(serving("br", bad)).build()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("http://h/"));
      assertTrue(e.getMessage().contains("br"), e.getMessage());
    }
  }

  @Test
  void maxBodySizeAppliesToDecodedBrotli() throws IOException {
    byte[] bomb = brotli(new byte[1_000_000]);
    assertTrue(bomb.length < 1000, "a million zeros compress to " + bomb.length + " bytes");
    try (Client client = Client.builder().transport(serving("br", bomb)).maxBodySize(100_000).build()) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.get("http://h/"));
      assertTrue(e.getMessage().contains("limit of 100000 bytes"), e.getMessage());
    }
  }

  @Test
  void headAndNoContentResponsesAreNotDecoded() {
    MockTransport mock = MockTransport.of(r -> Response.builder(r.method().equals("HEAD") ? 200 : 204)
        .header("Content-Encoding", "gzip").header("Content-Length", "1234").build());
    try (Client client = Client.builder().transport(mock).build()) {
      Response head = client.head("http://h/");
      assertEquals("1234", head.headers().first("Content-Length"));
      assertEquals(0, head.bytes().length);
      assertEquals(0, client.get("http://h/").bytes().length);
    }
  }

  @Test
  void maxBodySizeAppliesToTheDecodedBody() {
    byte[] zeros = gzip(new byte[100_000]);
    try (Client client = Client.builder().transport(serving("gzip", zeros)).maxBodySize(50_000).build()) {
      assertThrows(ProtocolException.class, () -> client.get("http://h/"));
    }
    try (Client client = Client.builder().transport(serving("gzip", zeros)).maxBodySize(100_000).build()) {
      assertEquals(100_000, client.get("http://h/").bytes().length);
    }
  }
}
