package dev.strand.hostile;

import static dev.strand.hostile.Outcome.ok;
import static dev.strand.hostile.Outcome.protocolError;
import static dev.strand.testkit.H2Frames.concat;
import static dev.strand.testkit.H2Frames.continuation;
import static dev.strand.testkit.H2Frames.data;
import static dev.strand.testkit.H2Frames.frame;
import static dev.strand.testkit.H2Frames.goAway;
import static dev.strand.testkit.H2Frames.headers;
import static dev.strand.testkit.H2Frames.headersWithoutEnd;
import static dev.strand.testkit.H2Frames.hpack;
import static dev.strand.testkit.H2Frames.rstStream;
import static dev.strand.testkit.H2Frames.settings;
import static dev.strand.testkit.H2Frames.settingsAck;
import static dev.strand.testkit.H2Frames.windowUpdate;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.Version;
import dev.strand.Timeout;
import dev.strand.Limits;
import dev.strand.ConnectException;
import dev.strand.PoolTimeoutException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.WriteTimeoutException;
import dev.strand.testkit.H2Frames;
import dev.strand.testkit.HostilePeer;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.PeerConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HTTP/2 servers (h2c, prior knowledge) that break RFC 9113: bad SETTINGS, flow-control abuse, resets and
 * GOAWAY with streams in flight, header blocks without end, floods of control frames, frames on streams
 * that are not open. Each is the exact outcome within its timeout, and the pool settles.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class Http2HostileTest {
  private static final byte[] HI = "hi".getBytes(StandardCharsets.US_ASCII);

  private static byte[] okResponse(int stream) {
    return concat(headers(stream, false, hpack(":status", "200", "content-length", "2")), data(stream, true, HI));
  }

  /** A peer that sends {@code serverSettings}, waits for the request, answers with {@code answer(stream)}, and holds. */
  private static HostilePeer.Script h2(byte[] serverSettings, IntFunction<byte[]> answer) {
    return c -> {
      c.readPreface();
      c.write(concat(serverSettings, settingsAck()));
      Integer stream = c.awaitRequestStream();
      if (stream != null) {
        c.write(answer.apply(stream));
        c.awaitClientClose(Peers.HOLD);
      }
    };
  }

  private static void check(HostilePeer.Script script, Outcome outcome) throws Exception {
    check(Peers.http2(), script, outcome);
  }

  private static void check(Client http2Client, HostilePeer.Script script, Outcome outcome) throws Exception {
    try (HostilePeer peer = new HostilePeer(script); Client client = http2Client) {
      outcome.check(() -> client.send(Request.builder("GET", peer.url("/")).build()));
      // A stream error leaves the connection usable (RFC 9113 5.4.2), so it may stay idle.
      PoolCheck.settled(client);
    }
  }

  static Stream<Arguments> settingsCases() {
    return Stream.of(
        Arguments.of("well-formed, as a baseline", settings(), ok(200, "hi")),
        Arguments.of("INITIAL_WINDOW_SIZE above 2^31-1", settings(H2Frames.SETTINGS_INITIAL_WINDOW_SIZE, 1L << 31),
            protocolError("INITIAL_WINDOW_SIZE")),
        Arguments.of("MAX_FRAME_SIZE below 16384", settings(H2Frames.SETTINGS_MAX_FRAME_SIZE, 100),
            protocolError("MAX_FRAME_SIZE")),
        Arguments.of("MAX_FRAME_SIZE above 2^24-1", settings(H2Frames.SETTINGS_MAX_FRAME_SIZE, 1 << 24),
            protocolError("MAX_FRAME_SIZE")),
        Arguments.of("ENABLE_PUSH of 2", settings(H2Frames.SETTINGS_ENABLE_PUSH, 2), protocolError("ENABLE_PUSH")),
        Arguments.of("a length that is not a multiple of 6", frame(H2Frames.SETTINGS, 0, 0, new byte[5]),
            protocolError("FRAME_SIZE_ERROR")),
        Arguments.of("SETTINGS on a stream", frame(H2Frames.SETTINGS, 0, 1, new byte[0]), protocolError("PROTOCOL_ERROR")),
        Arguments.of("MAX_CONCURRENT_STREAMS 0", settings(H2Frames.SETTINGS_MAX_CONCURRENT_STREAMS, 0),
            Outcome.fails(PoolTimeoutException.class, "became free")), // no stream may open: the pool's wait ends it
        Arguments.of("an unknown setting (ignored)", settings(0x99, 12345), ok(200, "hi")));
  }

  @ParameterizedTest(name = "SETTINGS: {0}")
  @MethodSource("settingsCases")
  void serverSettings(String name, byte[] serverSettings, Outcome outcome) throws Exception {
    check(h2(serverSettings, Http2HostileTest::okResponse), outcome);
  }

  static Stream<Arguments> answerCases() {
    return Stream.<Arguments>of(
        Arguments.of("connection window overflow", (IntFunction<byte[]>) s -> windowUpdate(0, 0x7fffffff),
            protocolError("FLOW_CONTROL_ERROR", "window size overflow")),
        Arguments.of("stream window overflow", (IntFunction<byte[]>) s -> windowUpdate(s, 0x7fffffff),
            protocolError("window size overflow")),
        Arguments.of("WINDOW_UPDATE of 0 on the connection", (IntFunction<byte[]>) s -> windowUpdate(0, 0),
            protocolError("PROTOCOL_ERROR")),
        Arguments.of("RST_STREAM before any response", (IntFunction<byte[]>) s -> rstStream(s, H2Frames.INTERNAL_ERROR),
            protocolError("reset", "INTERNAL_ERROR")),
        Arguments.of("RST_STREAM in the body", (IntFunction<byte[]>) s -> concat(headers(s, false,
            hpack(":status", "200", "content-length", "10")), data(s, false, HI), rstStream(s, H2Frames.CANCEL)),
            protocolError("reset", "CANCEL")),
        Arguments.of("GOAWAY with an error, the stream processed", (IntFunction<byte[]>) s -> goAway(s,
            H2Frames.INTERNAL_ERROR), protocolError("GOAWAY")),
        Arguments.of("GOAWAY NO_ERROR, then the answer", (IntFunction<byte[]>) s -> concat(goAway(s, H2Frames.NO_ERROR),
            okResponse(s)), ok(200, "hi")),
        Arguments.of("no :status", (IntFunction<byte[]>) s -> headers(s, true, hpack("content-length", "0")),
            protocolError(":status")),
        Arguments.of(":status abc", (IntFunction<byte[]>) s -> headers(s, true, hpack(":status", "abc")),
            protocolError("abc")),
        Arguments.of("a connection-specific field", (IntFunction<byte[]>) s -> headers(s, true,
            hpack(":status", "200", "connection", "keep-alive")), protocolError("connection")),
        Arguments.of("an upper-case field name", (IntFunction<byte[]>) s -> headers(s, true,
            hpack(":status", "200", "X-Upper", "1")), protocolError("X-Upper")),
        Arguments.of("content-length longer than the DATA", (IntFunction<byte[]>) s -> concat(headers(s, false,
            hpack(":status", "200", "content-length", "10")), data(s, true, HI)), protocolError("content-length")),
        Arguments.of("DATA before HEADERS", (IntFunction<byte[]>) s -> data(s, true, HI), protocolError("DATA")),
        Arguments.of("HEADERS on a stream the server opened", (IntFunction<byte[]>) s -> concat(headers(2, true,
            hpack(":status", "200")), okResponse(s)), protocolError("stream")),
        Arguments.of("PUSH_PROMISE with push disabled", (IntFunction<byte[]>) s -> frame(H2Frames.PUSH_PROMISE,
            H2Frames.FLAG_END_HEADERS, s, concat(new byte[] {0, 0, 0, 2}, hpack(":method", "GET", ":path", "/p",
            ":scheme", "http", ":authority", "x"))), protocolError("push")),
        Arguments.of("DATA on stream 0", (IntFunction<byte[]>) s -> data(0, false, HI), protocolError("PROTOCOL_ERROR")),
        Arguments.of("trailers after the body", (IntFunction<byte[]>) s -> concat(headers(s, false,
            hpack(":status", "200")), data(s, false, HI), headers(s, true, hpack("x-checksum", "abc"))), ok(200, "hi")),
        Arguments.of("a header block over the limit", (IntFunction<byte[]>) s -> inFrames(s,
            hpack(":status", "200", "x-big", "v".repeat(70_000))), protocolError("header")),
        Arguments.of("an HPACK bomb", (IntFunction<byte[]>) Http2HostileTest::hpackBomb, protocolError("header")));
  }

  @ParameterizedTest(name = "answer: {0}")
  @MethodSource("answerCases")
  void answer(String name, IntFunction<byte[]> answer, Outcome outcome) throws Exception {
    check(h2(settings(), answer), outcome);
  }

  /** A header block ending the stream, cut into a HEADERS and CONTINUATION frames of 16 KiB (the default maximum). */
  private static byte[] inFrames(int stream, byte[] block) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int size = 16_384;
    for (int i = 0; i < block.length; i += size) {
      byte[] piece = java.util.Arrays.copyOfRange(block, i, Math.min(block.length, i + size));
      boolean last = i + size >= block.length;
      out.writeBytes(i == 0 ? frame(H2Frames.HEADERS, H2Frames.FLAG_END_STREAM | (last ? H2Frames.FLAG_END_HEADERS : 0),
          stream, piece) : continuation(stream, last, piece));
    }
    return out.toByteArray();
  }

  /** One 4000-byte field in the dynamic table, then 100 one-byte references to it: 400 KB from 4 KB. */
  private static byte[] hpackBomb(int stream) {
    byte[][] parts = new byte[102][];
    parts[0] = hpack(":status", "200");
    parts[1] = H2Frames.hpackIndexing("x-bomb", "b".repeat(4000));
    for (int i = 2; i < parts.length; i++) {
      parts[i] = H2Frames.hpackIndexed(62);
    }
    return headers(stream, true, concat(parts));
  }

  /**
   * Writes {@code frame} until the client hangs up, for at most 15 s (longer than any timeout of the
   * client, so the flood outlasts the exchange and the outcome does not depend on how fast bytes go).
   */
  private static void flood(PeerConnection c, byte[] frame) throws Exception {
    byte[] burst = concat(java.util.Collections.nCopies(Math.max(1, 16_384 / frame.length), frame).toArray(byte[][]::new));
    long end = System.nanoTime() + 15_000_000_000L;
    while (System.nanoTime() - end < 0) {
      c.write(burst);
    }
  }

  static Stream<Arguments> floods() {
    return Stream.of(
        Arguments.of("CONTINUATION frames with fields", (IntFunction<byte[]>) s -> continuation(s, false,
            hpack("x-flood", "f".repeat(8000))), protocolError("header")),
        Arguments.of("empty CONTINUATION frames", (IntFunction<byte[]>) s -> continuation(s, false, new byte[0]),
            protocolError("continuation")),
        Arguments.of("PINGs", (IntFunction<byte[]>) s -> H2Frames.ping(false, 42), protocolError("ENHANCE_YOUR_CALM")),
        Arguments.of("empty SETTINGS", (IntFunction<byte[]>) s -> settings(), protocolError("ENHANCE_YOUR_CALM")));
  }

  /**
   * Frames without end after the request, none read back: a header block that never ends must stop at the
   * header-size limit (or Netty's cap on tiny CONTINUATION frames); PINGs and SETTINGS are each acknowledged,
   * and as the peer reads none of the acknowledgements, a cap on queued control frames (ENHANCE_YOUR_CALM)
   * must end them. The read timeout is long here, so that the cap, not the timeout, is what is proven.
   */
  @ParameterizedTest(name = "flood: {0}")
  @MethodSource("floods")
  void flood(String name, IntFunction<byte[]> frame, Outcome outcome) throws Exception {
    Client patient = Client.builder().timeout(Timeout.of(Duration.ofSeconds(10))).limits(Limits.ofConnections(1))
        .version(Version.HTTP_2_PRIOR_KNOWLEDGE).build();
    check(patient, c -> {
      c.readPreface();
      c.write(concat(settings(), settingsAck()));
      Integer stream = c.awaitRequestStream();
      if (stream != null) {
        if (name.contains("CONTINUATION")) {
          c.write(headersWithoutEnd(stream, hpack(":status", "200")));
        }
        flood(c, frame.apply(stream));
      }
    }, outcome);
  }

  @Test
  void noServerSettingsIsAConnectFailure() throws Exception {
    check(c -> {
      c.readPreface();
      c.awaitClientClose(Peers.HOLD);
    }, Outcome.fails(ConnectException.class, "SETTINGS"));
  }

  /** A stream window of 0 that no WINDOW_UPDATE ever opens: the upload stalls, and the write timeout ends it. */
  @Test
  void aWindowThatNeverOpensIsAWriteTimeout() throws Exception {
    try (HostilePeer peer = new HostilePeer(h2(settings(H2Frames.SETTINGS_INITIAL_WINDOW_SIZE, 0), s -> new byte[0]));
        Client client = Peers.http2()) {
      Request post = Request.builder("POST", peer.url("/")).body(RequestBody.of("a body the window never admits"))
          .timeout(Peers.TIMEOUT.withRead(java.time.Duration.ofSeconds(4))).build();
      Outcome.fails(WriteTimeoutException.class, "write timed out after 1.0 s").check(() -> client.send(post));
      PoolCheck.settled(client); // the stream is reset; the connection itself did nothing wrong
    }
  }

  /** Streams above GOAWAY's last-stream-id were not processed (RFC 9113 6.8): a GET goes again on a new connection. */
  @Test
  void aGetAboveGoAwaysLastStreamIsRetriedOnANewConnection() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readPreface();
          c.write(concat(settings(), settingsAck()));
          Integer stream = c.awaitRequestStream();
          if (stream != null) {
            c.write(c.number() == 1 ? goAway(0, H2Frames.NO_ERROR) : okResponse(stream));
            c.awaitClientClose(Peers.HOLD);
          }
        });
        Client client = Peers.http2()) {
      Peers.check(client, Request.builder("GET", peer.url("/")).build(), ok(200, "hi"));
      assertEquals(2, peer.accepted());
    }
  }

  @Test
  void aRefusedStreamIsRetried() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readPreface();
          c.write(concat(settings(), settingsAck()));
          Integer first = c.awaitRequestStream();
          if (first != null) {
            c.write(rstStream(first, H2Frames.REFUSED_STREAM));
            Integer second = c.awaitRequestStream();
            if (second != null) {
              c.write(okResponse(second));
            }
            c.awaitClientClose(Peers.HOLD);
          }
        });
        Client client = Peers.http2()) {
      Peers.check(client, Request.builder("GET", peer.url("/")).build(), ok(200, "hi"));
    }
  }

  /** DATA on a stream the server already ended: the response stands, and the next request still gets its own. */
  @Test
  void dataOnAClosedStream() throws Exception {
    try (HostilePeer peer = new HostilePeer(c -> {
          c.readPreface();
          c.write(concat(settings(), settingsAck()));
          Integer stream;
          while ((stream = c.awaitRequestStream()) != null) {
            c.write(okResponse(stream));
            c.write(data(stream, true, "late".getBytes(StandardCharsets.US_ASCII)));
          }
        });
        Client client = Peers.http2()) {
      Peers.check(client, Request.builder("GET", peer.url("/")).build(), ok(200, "hi"));
      Thread.sleep(100);
      Peers.check(client, Request.builder("GET", peer.url("/")).build(), ok(200, "hi"));
    }
  }
}
