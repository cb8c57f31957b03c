package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.protocolError;
import static dev.strand.hostile.Peers.response;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/1.1 status lines, well and badly formed: a status code is three digits from 100 to 999
 * (RFC 9110 15), the version is HTTP/1.x; anything else is a ProtocolException naming the status line,
 * and the connection is discarded.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1StatusLineTest {
  static Stream<Arguments> statusLines() {
    return Stream.of(
        Arguments.of("HTTP/1.1 000 X", protocolError("status")),
        Arguments.of("HTTP/1.1 099 X", protocolError("status")),
        Arguments.of("HTTP/1.1 1000 X", protocolError("status")),
        Arguments.of("HTTP/1.1 2x0 X", protocolError("status")),
        Arguments.of("HTTP/1.1 -200 OK", protocolError("status")),
        Arguments.of("HTTP/1.1 20 OK", protocolError("status")),
        Arguments.of("HTTP/1.1 OK", protocolError("status")),
        Arguments.of("HTTP/2.0 200 OK", protocolError("HTTP/2.0")),
        Arguments.of("HTTP/3 200 OK", protocolError("HTTP/3")),
        Arguments.of("ICY 200 OK", protocolError("ICY")),
        Arguments.of("SSH-2.0-OpenSSH_9.6", protocolError("SSH-2.0")),
        Arguments.of("HTTP/1.1 200", ok(200, "hi")),
        Arguments.of("HTTP/1.1 200 ", ok(200, "hi")),
        Arguments.of("HTTP/1.1 599 Made Up", ok(599, "hi")),
        Arguments.of("HTTP/1.1 999 Highest", ok(999, "hi")),
        Arguments.of("HTTP/1.1 200 Reason with  many   spaces", ok(200, "hi")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("statusLines")
  void statusLine(String statusLine, Outcome outcome) throws Exception {
    Peers.check(Peers.answer(response(statusLine, "hi")), outcome);
  }

  static Stream<Arguments> notAResponse() {
    return Stream.of(
        Arguments.of("no bytes, then close", "", protocolError("without a response")),
        Arguments.of("HTTP/0.9 body with no head", "hello world\r\n\r\n", protocolError("version")),
        Arguments.of("status line over 64 KiB", "HTTP/1.1 200 " + "x".repeat(70_000) + "\r\n\r\n",
            protocolError("status line", "too long")),
        Arguments.of("bare LF line ends", "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
            protocolError("Carriage Return")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notAResponse")
  void notAResponse(String name, String bytes, Outcome outcome) throws Exception {
    Peers.check(bytes.isEmpty() ? Peers.answerAndClose(bytes) : Peers.answer(bytes), outcome);
  }
}
