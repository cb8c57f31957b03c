package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.protocolError;
import static dev.strand.hostile.Outcome.readTimeout;
import static dev.strand.hostile.Outcome.transportError;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A response cut short at every phase: by the peer closing (FIN), resetting (RST), or falling silent.
 * A close is a ProtocolException saying how far the response got, a reset a TransportException, silence a
 * ReadTimeoutException after the 1 s read timeout; the connection is gone in every case.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1TruncationTest {
  private static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n";
  private static final String CHUNKED = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

  /** Each prefix of a response, ended by a close; then the same prefix ended by silence. */
  static Stream<Arguments> prefixes() {
    return Stream.of(
        Arguments.of("before any byte", "", "closed"),
        Arguments.of("inside the status line", "HTTP/1.1 20", "closed"),
        Arguments.of("after the status line", "HTTP/1.1 200 OK\r\n", "closed"),
        Arguments.of("inside a header", "HTTP/1.1 200 OK\r\nContent-Le", "closed"),
        Arguments.of("before the blank line", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n", "closed"),
        Arguments.of("before the body", HEAD, "received 0 of 10"),
        Arguments.of("inside the body", HEAD + "0123", "received 4 of 10"),
        Arguments.of("inside a chunk size", CHUNKED + "1", "before the end of the response body"),
        Arguments.of("inside chunk data", CHUNKED + "a\r\n0123", "before the end of the response body"),
        Arguments.of("before the last chunk", CHUNKED + "2\r\nhi\r\n", "before the end of the response body"));
  }

  @ParameterizedTest(name = "closed {0}")
  @MethodSource("prefixes")
  void closed(String phase, String prefix, String why) throws Exception {
    Peers.check(prefix.isEmpty() ? c -> c.readHead() : Peers.answerAndClose(prefix), protocolError(why));
  }

  @ParameterizedTest(name = "silent {0}")
  @MethodSource("prefixes")
  void silent(String phase, String prefix, String why) throws Exception {
    Peers.check(Peers.answer(prefix), readTimeout());
  }

  @Test
  void aResetInsideTheBody() throws Exception {
    Peers.check(c -> {
      c.readHead();
      c.write(HEAD + "0123");
      Thread.sleep(100); // the bytes arrive first: the reset must fail a body already under way
      c.reset();
    }, transportError("reset"));
  }

  @Test
  void aResetBeforeAnyByte() throws Exception {
    Peers.check(c -> {
      c.readHead();
      c.reset();
    }, transportError("reset"));
  }

  /** The read timeout bounds silence, not the whole response: 20 bytes 80 ms apart take 1.6 s and pass. */
  @Test
  void aSlowButSteadyResponseIsNotATimeout() throws Exception {
    String body = "0123456789abcdefghij";
    Peers.check(c -> {
      c.readHead();
      c.write("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n");
      c.writeSlices(body.getBytes(StandardCharsets.US_ASCII), 1, Duration.ofMillis(80));
      c.awaitClientClose(Peers.HOLD);
    }, ok(200, body));
  }
}
