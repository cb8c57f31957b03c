package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.protocolError;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/1.1 header sections (RFC 9112 5): malformed fields and oversized sections are a ProtocolException
 * and cost the connection; tolerated oddities give the response. Every response carries the body "hi".
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1HeadersTest {
  static Stream<Arguments> headerSections() {
    return Stream.of(
        Arguments.of("a line without a colon", "Not A Header\r\n", protocolError("header")),
        // RFC 9112 5.1 has servers reject this in requests but proxies repair it in responses: tolerated.
        Arguments.of("whitespace before the colon", "X-Thing : 1\r\n", ok(200, "hi")),
        Arguments.of("a space inside the name", "X Thing: 1\r\n", protocolError("header")),
        Arguments.of("an empty name", ": value\r\n", protocolError("header")),
        Arguments.of("a NUL in a value", "X-Thing: a\0b\r\n", protocolError("header")),
        Arguments.of("a header section over 64 KiB", fields(70, 1000), protocolError("maxHeaderSize")),
        Arguments.of("one value over 64 KiB", "X-Big: " + "v".repeat(70_000) + "\r\n", protocolError("maxHeaderSize")),
        Arguments.of("2000 small fields under the limit", fields(2000, 5), ok(200, "hi")),
        Arguments.of("obs-text (Latin-1) in a value", "X-Name: caf\u00e9\r\n", ok(200, "hi")),
        Arguments.of("an obs-fold continuation line", "X-Folded: one\r\n two\r\n", ok(200, "hi")),
        Arguments.of("an empty value", "X-Empty:\r\n", ok(200, "hi")),
        Arguments.of("a hundred Set-Cookie fields", repeat("Set-Cookie: k=v; Path=/\r\n", 100), ok(200, "hi")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headerSections")
  void headerSection(String name, String fields, Outcome outcome) throws Exception {
    Peers.check(Peers.answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + fields + "\r\nhi"), outcome);
  }

  private static String fields(int count, int valueLength) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < count; i++) {
      b.append("X-Filler-").append(i).append(": ").append("x".repeat(valueLength)).append("\r\n");
    }
    return b.toString();
  }

  private static String repeat(String s, int n) {
    return s.repeat(n);
  }
}
