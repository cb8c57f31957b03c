package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.protocolError;
import static dev.strand.hostile.Outcome.readTimeout;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Interim (1xx) responses before the final one (RFC 9110 15.2): skipped, however many, as long as a final
 * response follows; a 101 nobody asked for, or an endless stream of 1xx, is a ProtocolException.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1InformationalTest {
  private static final String FINAL = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";

  static Stream<Arguments> interims() {
    return Stream.of(
        Arguments.of("100 Continue", "HTTP/1.1 100 Continue\r\n\r\n" + FINAL, ok(200, "hi")),
        Arguments.of("103 Early Hints with fields", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n"
            + "Link: </b.js>; rel=preload\r\n\r\n" + FINAL, ok(200, "hi")),
        Arguments.of("five different interims", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 150 Unknown\r\n\r\nHTTP/1.1 199 Last\r\n\r\n" + FINAL,
            ok(200, "hi")),
        Arguments.of("a hundred 100s", "HTTP/1.1 100 Continue\r\n\r\n".repeat(100) + FINAL, ok(200, "hi")),
        Arguments.of("an unsolicited 101 to a plain GET", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n"
            + "Connection: Upgrade\r\n\r\n" + FINAL, protocolError("101")),
        Arguments.of("a 100 with a body (1xx have none)", "HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n"
            + "hello" + FINAL, protocolError("version")),
        Arguments.of("a 100, then silence", "HTTP/1.1 100 Continue\r\n\r\n", readTimeout()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("interims")
  void interim(String name, String response, Outcome outcome) throws Exception {
    Peers.check(Peers.answer(response), outcome);
  }

  @Test
  void aHundredThenTheConnectionClosed() throws Exception {
    Peers.check(Peers.answerAndClose("HTTP/1.1 100 Continue\r\n\r\n"), protocolError("without a response"));
  }

  /** Interims without end keep the read timeout from firing: only a cap on them ends the exchange. */
  @Test
  void anEndlessFloodOf100s() throws Exception {
    byte[] hundreds = "HTTP/1.1 100 Continue\r\n\r\n".repeat(1000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    Peers.check(c -> {
      c.readHead();
      for (long sent = 0; sent < 1L << 30; sent += hundreds.length) { // 1 GiB at most, should the client never stop
        c.write(hundreds);
      }
    }, protocolError("1xx"));
  }
}
