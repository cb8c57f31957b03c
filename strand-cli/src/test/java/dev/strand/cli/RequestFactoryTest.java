package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Request;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestFactoryTest {
  @TempDir Path dir;

  @Test
  void addsSchemeParamsAndHeaders() throws Exception {
    Request r = build("-X", "QUERY", "--url-query", "q=a b", "-H", "X-A:  1 ", "127.0.0.1:9/s?x=1");
    assertEquals("QUERY", r.method());
    assertEquals("http://127.0.0.1:9/s?x=1&q=a+b", r.url().toString());
    assertEquals("1", r.headers().first("X-A"));
    assertNull(r.body());
  }

  @Test
  void dataPartsJoinWithAmpersandAsAForm() throws Exception {
    Path f = Files.writeString(dir.resolve("d.txt"), "c=3");
    Request r = build("-d", "a=1", "-d", "@" + f, "http://h/");
    assertEquals("a=1&c=3", text(r));
    assertEquals("application/x-www-form-urlencoded", r.body().contentType());
  }

  @Test
  void oneBinaryDataFileIsStreamedFromDisk() throws Exception {
    Path f = Files.write(dir.resolve("big.bin"), new byte[100_000]);
    Request r = build("--data-binary", "@" + f, "http://h/");
    assertNull(r.body().bufferedBytes(), "not read into memory");
    assertEquals(100_000, r.body().contentLength());
  }

  @Test
  void jsonSetsAcceptUnlessGiven() throws Exception {
    Request r = build("--json", "{\"a\":1}", "http://h/");
    assertEquals("application/json", r.body().contentType());
    assertEquals("application/json", r.headers().first("Accept"));
    assertEquals("text/plain", build("--json", "{}", "-H", "Accept: text/plain", "http://h/").headers().first("Accept"));
  }

  @Test
  void formBuildsMultipartWithFileAttributes() throws Exception {
    Path f = Files.writeString(dir.resolve("photo.jpg"), "JPEG");
    Request r = build("-F", "title=hi", "-F", "p=@" + f + ";type=image/jpeg;filename=x.jpg", "http://h/");
    String body = text(r);
    assertTrue(r.body().contentType().startsWith("multipart/form-data; boundary="));
    assertTrue(body.contains("name=\"title\"\r\n\r\nhi\r\n"), body);
    assertTrue(body.contains("name=\"p\"; filename=\"x.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEG\r\n"), body);
    assertEquals(body.length(), r.body().contentLength());
  }

  @Test
  void unreadableFilesAreExit26AndBadMethodsExit2() {
    CliException missing = assertThrows(CliException.class, () -> build("-d", "@" + dir.resolve("nope"), "http://h/"));
    assertEquals(26, missing.exitCode());
    assertTrue(missing.getMessage().contains("no such file"), missing.getMessage());
    assertEquals(26, assertThrows(CliException.class, () -> build("-F", "f=@" + dir, "http://h/")).exitCode());
    assertEquals(2, assertThrows(CliException.class, () -> build("-X", "GE T", "http://h/")).exitCode());
    assertEquals(2, assertThrows(CliException.class, () -> build("-H", "Bad Name: v", "http://h/")).exitCode());
  }

  private static Request build(String... args) throws Exception {
    return RequestFactory.build(ArgParser.parse(args));
  }

  private static String text(Request r) throws IOException {
    try (InputStream in = r.body().openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
