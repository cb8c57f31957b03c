package dev.strand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which charset Response.text() uses, lenient and strict decoding, and the client's default. */
class ResponseCharsetTest {
  private static final byte[] LATIN1_CAFE = {'c', 'a', 'f', (byte) 0xE9}; // "café" in ISO-8859-1

  private static Response body(String contentType, byte[] bytes) {
    Response.Builder b = Response.builder(200).body(bytes);
    return (contentType == null ? b : b.header("Content-Type", contentType)).build();
  }

  private static byte[] concat(int[] prefix, byte[] rest) {
    byte[] out = new byte[prefix.length + rest.length];
    for (int i = 0; i < prefix.length; i++) {
      out[i] = (byte) prefix[i];
    }
    System.arraycopy(rest, 0, out, prefix.length, rest.length);
    return out;
  }

  @Test
  void declaredCharsetWins() {
    Response r = body("text/plain; charset=\"ISO-8859-1\"", LATIN1_CAFE);
    assertEquals("café", r.text());
    assertEquals(StandardCharsets.ISO_8859_1, r.charset());
  }

  @Test
  void byteOrderMarksNameTheCharsetAndAreNotText() {
    assertEquals("hé", body("text/plain", concat(new int[] {0xEF, 0xBB, 0xBF}, "hé".getBytes(StandardCharsets.UTF_8))).text());
    assertEquals("hé", body(null, concat(new int[] {0xFE, 0xFF}, "hé".getBytes(StandardCharsets.UTF_16BE))).text());
    Response le = body("text/plain", concat(new int[] {0xFF, 0xFE}, "hé".getBytes(StandardCharsets.UTF_16LE)));
    assertEquals("hé", le.text());
    assertEquals(StandardCharsets.UTF_16LE, le.charset());
    assertEquals("hé", body("text/plain; charset=utf-8",
        concat(new int[] {0xEF, 0xBB, 0xBF}, "hé".getBytes(StandardCharsets.UTF_8))).textStrict());
  }

  @Test
  void jsonIsUtf8WhateverTheDefault() {
    byte[] json = "{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8);
    Response r = body("application/problem+json", json).toBuilder().defaultCharset(StandardCharsets.ISO_8859_1).build();
    assertEquals("{\"a\":\"é\"}", r.text());
  }

  @Test
  void theDefaultAppliesWhenNothingNamesACharset() {
    assertEquals("caf\uFFFD", body("text/plain", LATIN1_CAFE).text(), "UTF-8 unless set; lenient");
    MockTransport mock = MockTransport.of(req -> body("text/plain", LATIN1_CAFE));
    try (Client client = Client.builder().transport(mock).defaultCharset(StandardCharsets.ISO_8859_1).build()) {
      Response r = client.get("http://h/");
      assertEquals("café", r.text());
      assertEquals("café", r.textStrict());
    }
  }

  @Test
  void anUnknownDeclaredCharsetFallsThroughLenientlyAndFailsStrictly() {
    Response r = body("text/plain; charset=no-such-charset", "ok".getBytes(StandardCharsets.UTF_8));
    assertEquals("ok", r.text());
    ProtocolException e = assertThrows(ProtocolException.class, r::textStrict);
    assertTrue(e.getMessage().contains("no-such-charset"), e.getMessage());
  }

  @Test
  void strictNamesTheCharsetAndTheOffset() {
    Response r = body("text/plain; charset=utf-8", LATIN1_CAFE);
    assertEquals("caf\uFFFD", r.text());
    ProtocolException e = assertThrows(ProtocolException.class, r::textStrict);
    assertTrue(e.getMessage().contains("offset 3") && e.getMessage().contains("UTF-8"), e.getMessage());
  }

  @Test
  void anExplicitCharsetOverridesTheResponse() {
    Response r = body("text/plain; charset=utf-8", LATIN1_CAFE);
    assertEquals("café", r.text(StandardCharsets.ISO_8859_1));
  }

  @Test
  void emptyBodiesAreEmptyText() {
    assertEquals("", Response.builder(204).header("Content-Encoding", "gzip").build().text());
  }
}
