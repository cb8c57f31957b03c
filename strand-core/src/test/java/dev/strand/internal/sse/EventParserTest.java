package dev.strand.internal.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.ServerSentEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The WHATWG "event stream interpretation", case by case, and split at every byte. */
class EventParserTest {
  private static final Request REQUEST = Request.get("http://127.0.0.1/sse");

  static ServerSentEvent msg(String data) {
    return new ServerSentEvent("message", data, "", null);
  }

  static ServerSentEvent ev(String type, String data, String id) {
    return new ServerSentEvent(type, data, id, null);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // The standard's own examples (HTML 9.2.6).
        Arguments.of("spec: stock ticker", "data: YHOO\ndata: +2\ndata: 10\n\n", List.of(msg("YHOO\n+2\n10"))),
        Arguments.of("spec: four blocks, id carried over",
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n",
            List.of(ev("message", "first event", "1"), ev("message", "second event", ""))),
        Arguments.of("spec: empty data and data without colon", "data\n\ndata\ndata\n\ndata:\n",
            List.of(msg(""), msg("\n"))),
        Arguments.of("spec: one leading space removed", "data:test\n\ndata: test\n\n", List.of(msg("test"), msg("test"))),
        Arguments.of("only one space removed", "data:  two\n\n", List.of(msg(" two"))),
        Arguments.of("a tab is kept", "data:\tx\n\n", List.of(msg("\tx"))),
        Arguments.of("value may contain colons", "data: a:b: c\n\n", List.of(msg("a:b: c"))),
        Arguments.of("event type", "event: add\ndata: 1\n\nevent:remove\ndata: 2\n\ndata: 3\n\n",
            List.of(ev("add", "1", ""), ev("remove", "2", ""), msg("3"))),
        Arguments.of("empty event type is message", "event:\ndata: x\n\n", List.of(msg("x"))),
        Arguments.of("event type does not outlive its block", "event: a\n\ndata: x\n\n", List.of(msg("x"))),
        Arguments.of("comments ignored", ":hello\n: keep-alive\ndata: x\n:\n\n", List.of(msg("x"))),
        Arguments.of("unknown fields ignored", "foo: bar\nData: no\nDATA: no\ndata: yes\n\n", List.of(msg("yes"))),
        Arguments.of("field without colon has an empty value", "data\nevent\n\n", List.of(msg(""))),
        Arguments.of("id persists across events", "id: 7\ndata: a\n\ndata: b\n\n", List.of(ev("message", "a", "7"),
            ev("message", "b", "7"))),
        Arguments.of("empty id resets", "id: 7\ndata: a\n\nid\ndata: b\n\n", List.of(ev("message", "a", "7"), msg("b"))),
        Arguments.of("id with NUL ignored", "id: 1\ndata: a\n\nid: 2\u0000x\ndata: b\n\n",
            List.of(ev("message", "a", "1"), ev("message", "b", "1"))),
        Arguments.of("id-only block sets the id for later events", "id: 5\n\ndata: x\n\n", List.of(ev("message", "x", "5"))),
        Arguments.of("no data, no event", "event: ping\n\nid: 1\n\n\n\n", List.of()),
        Arguments.of("incomplete event at EOF discarded", "data: a\n\ndata: b\n", List.of(msg("a"))),
        Arguments.of("incomplete line at EOF discarded", "data: a\n\ndata: b", List.of(msg("a"))),
        Arguments.of("CRLF", "data: a\r\ndata: b\r\n\r\n", List.of(msg("a\nb"))),
        Arguments.of("CR", "data: a\rdata: b\r\r", List.of(msg("a\nb"))),
        Arguments.of("mixed line ends", "data: a\rdata: b\r\ndata: c\n\r\n", List.of(msg("a\nb\nc"))),
        Arguments.of("CR CR LF is two line ends", "data: a\r\r\ndata: b\n\n", List.of(msg("a"), msg("b"))),
        Arguments.of("LF CR is two line ends", "data: a\n\rdata: b\n\n", List.of(msg("a"), msg("b"))),
        Arguments.of("leading BOM skipped", "\uFEFFdata: a\n\n", List.of(msg("a"))),
        Arguments.of("only one BOM skipped", "\uFEFF\uFEFFdata: a\n\ndata: b\n\n", List.of(msg("b"))),
        Arguments.of("BOM later is data", "data: \uFEFFa\n\n", List.of(msg("\uFEFFa"))),
        Arguments.of("non-ASCII", "event: größe\ndata: 日本語 🎉\n\n", List.of(ev("größe", "日本語 🎉", ""))),
        Arguments.of("space before colon is part of the name", "data : x\ndata: y\n\n", List.of(msg("y"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void parsesAsTheStandardSays(String name, String stream, List<ServerSentEvent> expected) {
    assertEquals(expected, parseWhole(stream.getBytes(StandardCharsets.UTF_8)));
  }

  /** Every case again, cut into two chunks at every byte, and fed a byte at a time. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void chunkBoundariesDoNotMatter(String name, String stream, List<ServerSentEvent> expected) {
    byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
    for (int cut = 0; cut <= bytes.length; cut++) {
      List<ServerSentEvent> got = parse(Arrays.copyOfRange(bytes, 0, cut), Arrays.copyOfRange(bytes, cut, bytes.length));
      assertEquals(expected, got, "cut at byte " + cut);
    }
    byte[][] single = new byte[bytes.length][];
    for (int i = 0; i < bytes.length; i++) {
      single[i] = new byte[] {bytes[i]};
    }
    assertEquals(expected, parse(single), "one byte at a time");
  }

  @Test
  void everyLineEndingGivesTheSameEventsAtEverySplit() {
    String sample = "\uFEFF: comment\nretry: 1500\nid: 41\nevent: tick\ndata: één\ndata:\ndata:  x\n\n"
        + "data: last 🎉\nid: 42\n\n";
    List<ServerSentEvent> expected = List.of(
        new ServerSentEvent("tick", "één\n\n x", "41", Duration.ofMillis(1500)),
        new ServerSentEvent("message", "last 🎉", "42", null));
    for (String eol : List.of("\n", "\r", "\r\n")) {
      byte[] bytes = sample.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
      for (int a = 0; a <= bytes.length; a++) {
        for (int b = a; b <= bytes.length; b += 3) {
          EventParser p = new EventParser(1024, REQUEST);
          List<ServerSentEvent> got = feed(p, Arrays.copyOfRange(bytes, 0, a), Arrays.copyOfRange(bytes, a, b),
              Arrays.copyOfRange(bytes, b, bytes.length));
          assertEquals(expected, got, "line end " + eol.replace("\r", "CR").replace("\n", "LF") + ", cuts " + a + "," + b);
          assertEquals("42", p.lastEventId());
          assertEquals(Duration.ofMillis(1500), p.retry());
        }
      }
    }
  }

  @Test
  void malformedUtf8BecomesReplacementCharacters() {
    byte[] bytes = {'d', 'a', 't', 'a', ':', (byte) 0xE2, (byte) 0x82, '\n', 'd', 'a', 't', 'a', ':', (byte) 0xFF, '\n', '\n'};
    assertEquals(List.of(msg("\uFFFD\n\uFFFD")), parseWhole(bytes));
  }

  @Test
  void retryTakesDigitsOnly() {
    EventParser p = new EventParser(1024, REQUEST);
    List<ServerSentEvent> got = feed(p, ("retry: 3000\ndata: a\n\nretry: 12a\ndata: b\n\nretry: -5\nretry:\nretry: 1.5\n"
        + "retry:  200\nretry: 99999999999999999999\ndata: c\n\n").getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of(new ServerSentEvent("message", "a", "", Duration.ofSeconds(3)), msg("b"), msg("c")), got);
    assertEquals(Duration.ofSeconds(3), p.retry(), "invalid values leave the reconnection time as it was");
    feed(p, "retry: 0\n\n".getBytes(StandardCharsets.UTF_8));
    assertEquals(Duration.ZERO, p.retry(), "a retry in a block without data takes effect too");
  }

  @Test
  void lastEventIdChangesOnlyAtTheEndOfABlock() {
    EventParser p = new EventParser(1024, REQUEST);
    p.feed("id: 1\ndata: a\n\nid: 2\ndata: b\n".getBytes(StandardCharsets.UTF_8));
    assertEquals("1", p.lastEventId(), "block 2 is not complete");
    assertEquals(ev("message", "a", "1"), p.poll());
    assertNull(p.poll());
    p.feed("\n".getBytes(StandardCharsets.UTF_8));
    assertEquals("2", p.lastEventId());
    assertEquals(ev("message", "b", "2"), p.poll());
  }

  @Test
  void anEventLargerThanTheLimitFails() {
    EventParser p = new EventParser(100, REQUEST);
    feed(p, ("data: " + "x".repeat(40) + "\n").getBytes(StandardCharsets.UTF_8));
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> p.feed(("data: " + "y".repeat(60) + "\n").getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("100 bytes"), e.getMessage());
    assertEquals(REQUEST, e.request());
  }

  @Test
  void aLineWithoutEndIsBoundedToo() {
    EventParser p = new EventParser(100, REQUEST);
    byte[] piece = "aaaaaaaaaa".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 10; i++) {
      p.feed(piece);
    }
    assertThrows(ProtocolException.class, () -> p.feed(piece), "101 bytes of one line");
  }

  @Test
  void commentsAndDispatchedEventsDoNotCountAgainstTheLimit() {
    EventParser p = new EventParser(64, REQUEST);
    int events = 0;
    for (int i = 0; i < 1000; i++) {
      feed(p, ": keep-alive comment that is long-ish\n".getBytes(StandardCharsets.UTF_8));
      events += feed(p, ("data: event " + i + " with some text\n\n").getBytes(StandardCharsets.UTF_8)).size();
    }
    assertEquals(1000, events);
  }

  private static List<ServerSentEvent> parseWhole(byte[] bytes) {
    return parse(bytes);
  }

  private static List<ServerSentEvent> parse(byte[]... chunks) {
    return feed(new EventParser(1024, REQUEST), chunks);
  }

  private static List<ServerSentEvent> feed(EventParser p, byte[]... chunks) {
    List<ServerSentEvent> out = new ArrayList<>();
    for (byte[] chunk : chunks) {
      p.feed(chunk);
      ServerSentEvent e;
      while ((e = p.poll()) != null) {
        out.add(e);
      }
    }
    return out;
  }
}
