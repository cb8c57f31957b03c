package dev.strand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each RequestBody factory: content, Content-Type, length, repeatability. */
class RequestBodyTest {
  private static byte[] read(RequestBody body) throws IOException {
    try (InputStream in = body.openStream()) {
      return in.readAllBytes();
    }
  }

  private static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void bytesHaveNoContentTypeAndAreCopied() throws IOException {
    byte[] data = {1, 2, 3};
    RequestBody body = RequestBody.of(data);
    data[0] = 9;
    assertNull(body.contentType());
    assertEquals(3, body.contentLength());
    assertArrayEquals(new byte[] {1, 2, 3}, read(body));
    assertArrayEquals(new byte[] {1, 2, 3}, body.bufferedBytes());
    assertEquals("application/x-thing", RequestBody.of(data, "application/x-thing").contentType());
  }

  @Test
  void textIsUtf8() throws IOException {
    RequestBody body = RequestBody.of("héllo");
    assertEquals("text/plain; charset=utf-8", body.contentType());
    assertEquals(6, body.contentLength());
    assertEquals("héllo", utf8(read(body)));
    assertEquals("text/html", RequestBody.of("<p>", "text/html").contentType());
  }

  @Test
  void jsonTextIsSentAsIs() throws IOException {
    RequestBody body = RequestBody.json("{\"a\": 1}");
    assertEquals("application/json", body.contentType());
    assertEquals("{\"a\": 1}", utf8(read(body)));
  }

  public record Widget(int id, String name, List<String> tags) {}

  @Test
  void jsonOfSerializesWithJackson() throws IOException {
    RequestBody body = RequestBody.jsonOf(new Widget(42, "w", List.of("a", "b")));
    assertEquals("application/json", body.contentType());
    assertEquals("{\"id\":42,\"name\":\"w\",\"tags\":[\"a\",\"b\"]}", utf8(read(body)));
    assertEquals(body.contentLength(), read(body).length);
  }

  @Test
  void formIsUrlEncodedInMapOrder() throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("q", "strand client");
    fields.put("a&b", "1=2");
    fields.put("é", "~*");
    RequestBody body = RequestBody.form(fields);
    assertEquals("application/x-www-form-urlencoded", body.contentType());
    String encoded = "q=strand+client&a%26b=1%3D2&%C3%A9=%7E*";
    assertEquals(encoded, utf8(read(body)));
    assertEquals(encoded.length(), body.contentLength());
  }

  @Test
  void fileIsStreamedAndRepeatable(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("upload.bin");
    Files.write(file, new byte[] {5, 6, 7, 8});
    RequestBody body = RequestBody.ofFile(file, "application/octet-stream");
    assertEquals(4, body.contentLength());
    assertEquals("application/octet-stream", body.contentType());
    assertNull(body.bufferedBytes(), "not held in memory");
    assertTrue(body.isRepeatable());
    assertArrayEquals(read(body), read(body));
    assertNull(RequestBody.ofFile(file).contentType());
    assertThrows(java.io.UncheckedIOException.class, () -> RequestBody.ofFile(dir.resolve("missing")));
  }

  @Test
  void inputStreamIsOneShot() throws IOException {
    RequestBody body = RequestBody.ofInputStream(new ByteArrayInputStream(new byte[] {1, 2}), "x/y");
    assertEquals(-1, body.contentLength());
    assertFalse(body.isRepeatable());
    assertArrayEquals(new byte[] {1, 2}, read(body));
    IOException e = assertThrows(IOException.class, body::openStream);
    assertTrue(e.getMessage().contains("one-shot"), e.getMessage());
    assertEquals(2, RequestBody.ofInputStream(new ByteArrayInputStream(new byte[2]), 2, null).contentLength());
  }

  @Test
  void theClientSendsTheBodyItsTypeAndNoLengthHeader() {
    MockTransport mock = MockTransport.of(r -> Response.builder(200).build());
    try (Client client = Client.builder().transport(mock).build()) {
      client.put("http://h/", RequestBody.form(Map.of("k", "v")));
    }
    Request sent = mock.requests().get(0);
    assertEquals("PUT", sent.method());
    assertEquals("application/x-www-form-urlencoded", sent.headers().first("Content-Type"));
    assertNull(sent.headers().first("Content-Length"), "framing is the transport's job");
    assertArrayEquals("k=v".getBytes(StandardCharsets.US_ASCII), sent.body().bufferedBytes());
  }
}
