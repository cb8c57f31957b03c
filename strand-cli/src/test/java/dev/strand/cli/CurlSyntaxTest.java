package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small languages of curl's options: -K files, --limit-rate, -J's Content-Disposition, form encoding, -T's URL. */
class CurlSyntaxTest {
  @Test
  void configFilesReadAsCurlDoes() throws Exception {
    String text = """
        # a comment
        url = "http://h/a b"
        --header "X-A: 1 \\"quoted\\""
        silent
          max-time: 3
        -o out.bin
        """;
    assertArrayEquals(new String[] {"--url", "http://h/a b", "--header", "X-A: 1 \"quoted\"", "--silent",
        "--max-time", "3", "-o", "out.bin"}, ConfigFile.arguments(text, "f", ArgParser::takesValue));
    UsageException open = assertThrows(UsageException.class,
        () -> ConfigFile.arguments("url = \"http://h", "f", ArgParser::takesValue));
    assertTrue(open.getMessage().contains("line 1: a quoted value is not closed"), open.getMessage());
    Options o = ArgParser.parse(new String[] {"--url", "http://h/1", "http://h/2", "-o", "one", "-O"});
    assertEquals(List.of("http://h/1", "http://h/2"), o.urls);
    assertEquals("one", o.forUrl(0).output);
    assertTrue(o.forUrl(1).remoteName);
  }

  @Test
  void ratesAreBytesPerSecondWithCurlsUnits() throws Exception {
    assertEquals(100 * 1024, ArgParser.rate("100K"));
    assertEquals(2L << 20, ArgParser.rate("2M"));
    assertEquals(10, ArgParser.rate("600/m"));
    assertEquals(1, ArgParser.rate("1/h"), "never below one byte a second");
    assertThrows(UsageException.class, () -> ArgParser.rate("fast"));
    assertThrows(UsageException.class, () -> ArgParser.rate("0"));
  }

  @Test
  void contentDispositionGivesABaseNameOnly() {
    assertEquals("report.pdf", RemoteName.fileName("attachment; filename=\"report.pdf\""));
    assertEquals("résumé.txt", RemoteName.fileName("attachment; filename=x.txt; filename*=UTF-8''r%C3%A9sum%C3%A9.txt"));
    assertEquals("passwd", RemoteName.fileName("attachment; filename=\"../../etc/passwd\""));
    assertNull(RemoteName.fileName("attachment; filename=\"..\""));
    assertNull(RemoteName.fileName("inline"));
  }

  @Test
  void formEncodingAsCurls() {
    assertEquals("a+b%26c%3D%C3%A9-._~", DataParts.encode("a b&c=é-._~".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void uploadsNameTheUrlAfterTheFileWhenItEndsInASlash() {
    assertEquals("http://h/dir/a%20b.txt", RequestFactory.withFileName("http://h/dir/", "/tmp/a b.txt"));
    assertEquals("http://h/a.txt?x=1", RequestFactory.withFileName("http://h?x=1", "a.txt"));
    assertEquals("http://h/keep", RequestFactory.withFileName("http://h/keep", "a.txt"));
    assertEquals("http://h/p?a=1&b=2#f", RequestFactory.withQuery("http://h/p?a=1#f", "b=2"));
  }

  @Test
  void retryAfterInSecondsOrAsADate() {
    assertEquals(java.time.Duration.ofSeconds(7), Transfer.retryAfter(" 7 "));
    assertNull(Transfer.retryAfter("soon"));
    assertTrue(Transfer.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT").isZero(), "a date in the past is now");
  }
}
