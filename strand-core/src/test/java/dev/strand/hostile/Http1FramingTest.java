package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.okOrProtocolError;
import static dev.strand.hostile.Outcome.protocolError;
import static dev.strand.hostile.Outcome.transportError;

import dev.strand.testkit.NettyLeakDetectorExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How an HTTP/1.1 response body is delimited (RFC 9112 6): Content-Length, chunked (sizes, extensions,
 * trailers) or the connection's end. A body whose framing cannot be trusted is a ProtocolException, never
 * bytes handed over as if they were the body.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http1FramingTest {
  private static final String OK = "HTTP/1.1 200 OK\r\n";
  private static final String CHUNKED = OK + "Transfer-Encoding: chunked\r\n\r\n";

  static Stream<Arguments> heldOpen() {
    return Stream.of(
        Arguments.of("Content-Length and chunked", OK + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "2\r\nhi\r\n0\r\n\r\n", protocolError("Content-Length")),
        Arguments.of("two different Content-Lengths", OK + "Content-Length: 2\r\nContent-Length: 3\r\n\r\nhi",
            protocolError("Content-Length")),
        Arguments.of("a Content-Length that is not a number", OK + "Content-Length: two\r\n\r\nhi",
            protocolError("Content-Length")),
        Arguments.of("a negative Content-Length", OK + "Content-Length: -2\r\n\r\nhi", protocolError("Content-Length")),
        Arguments.of("a Content-Length with a sign", OK + "Content-Length: +2\r\n\r\nhi", protocolError("Content-Length")),
        Arguments.of("a Content-Length past Long.MAX_VALUE", OK + "Content-Length: 99999999999999999999\r\n\r\nhi",
            protocolError("Content-Length")),
        Arguments.of("Transfer-Encoding: gzip, chunked", OK + "Transfer-Encoding: gzip, chunked\r\n\r\n"
            + chunk(gzip("hello")) + "0\r\n\r\n", okOrProtocolError(200, "hello", "Transfer-Encoding")),
        Arguments.of("Transfer-Encoding: chunked, gzip (not last)", OK + "Transfer-Encoding: chunked, gzip\r\n"
            + "Content-Length: 2\r\n\r\nhi", protocolError("Transfer-Encoding")),
        Arguments.of("Transfer-Encoding: Chunked (case)", OK + "Transfer-Encoding: Chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
            ok(200, "hi")),
        Arguments.of("a chunk size that is not hex", CHUNKED + "zz\r\nhi\r\n0\r\n\r\n", protocolError("chunk")),
        Arguments.of("a negative chunk size", CHUNKED + "-2\r\nhi\r\n0\r\n\r\n", protocolError("chunk")),
        Arguments.of("a chunk size past Long.MAX_VALUE", CHUNKED + "fffffffffffffffffff\r\nhi\r\n0\r\n\r\n",
            protocolError("chunk")),
        Arguments.of("chunk data longer than its size", CHUNKED + "2\r\nhello\r\n0\r\n\r\n", protocolError("chunk")),
        Arguments.of("chunk extensions", CHUNKED + "2;name=value;flag\r\nhi\r\n0;last\r\n\r\n", ok(200, "hi")),
        Arguments.of("a chunk extension over 64 KiB", CHUNKED + "2;x=" + "e".repeat(70_000) + "\r\nhi\r\n0\r\n\r\n",
            protocolError("too long")),
        Arguments.of("trailers", CHUNKED + "2\r\nhi\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n", ok(200, "hi")),
        Arguments.of("a trailer section over 64 KiB", CHUNKED + "2\r\nhi\r\n0\r\nX-Big: " + "t".repeat(70_000)
            + "\r\n\r\n", protocolError("maxHeaderSize")),
        Arguments.of("a trailer line without a colon", CHUNKED + "2\r\nhi\r\n0\r\nnot a trailer\r\n\r\n",
            protocolError("trailer")),
        Arguments.of("many tiny chunks", CHUNKED + "1\r\nh\r\n".repeat(5000) + "0\r\n\r\n", ok(200, "h".repeat(5000))));
  }

  /** The peer keeps the connection open after these, so only the framing can end the body. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("heldOpen")
  void heldOpen(String name, String response, Outcome outcome) throws Exception {
    Peers.check(Peers.answer(response), outcome);
  }

  static Stream<Arguments> closeDelimited() {
    return Stream.of(
        Arguments.of("no length: the body ends with the connection", OK + "\r\nall of it", ok(200, "all of it")),
        Arguments.of("HTTP/1.0 without a length", "HTTP/1.0 200 OK\r\n\r\nall of it", ok(200, "all of it")),
        Arguments.of("Transfer-Encoding: gzip alone, ended by close", OK + "Transfer-Encoding: gzip\r\n\r\n"
            + gzip("hello"), okOrProtocolError(200, "hello", "Transfer-Encoding")));
  }

  /** The peer closes (FIN) after these: a body without a length ends there, and the connection is not kept. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("closeDelimited")
  void closeDelimited(String name, String response, Outcome outcome) throws Exception {
    Peers.check(Peers.answerAndClose(response), outcome);
  }

  /** A close-delimited body cut by a reset cannot be told from a complete one by length: only the reset says so. */
  @org.junit.jupiter.api.Test
  void aCloseDelimitedBodyEndedByAReset() throws Exception {
    Peers.check(c -> {
      c.readHead();
      c.write(OK + "\r\npart of it");
      Thread.sleep(100); // the bytes arrive before the reset, which would otherwise discard them
      c.reset();
    }, transportError("reset"));
  }

  static String chunk(String data) {
    return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
  }

  /** {@code text} gzipped, as a Latin-1 string so it can be written among the head's characters. */
  static String gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }
}
