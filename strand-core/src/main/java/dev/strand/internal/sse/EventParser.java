package dev.strand.internal.sse;

import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.ServerSentEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The WHATWG HTML "event stream interpretation" as a push parser: {@link #feed} takes the body's
 * bytes as they arrive, split anywhere; {@link #poll} hands out the events they completed.
 *
 * <p>Lines are split on bytes (CR, LF and CRLF never occur inside a UTF-8 sequence) and each line is
 * decoded only once complete, so a character split across chunks needs no decoder state; malformed
 * UTF-8 becomes U+FFFD, as the spec's decoder does.
 *
 * <p>Memory is bounded by {@code maxEventSize}: the bytes held for the line being read plus the data
 * lines of the event being built. Comment lines and other fields are dropped once read, so a
 * keep-alive comment every few seconds never adds up.
 */
public final class EventParser {
  private static final byte CR = '\r';
  private static final byte LF = '\n';
  private static final String DEFAULT_TYPE = "message";

  private final int maxEventSize;
  private final Request request;
  private final ArrayDeque<ServerSentEvent> ready = new ArrayDeque<>();

  private byte[] line = new byte[256];
  private int lineLength;
  private boolean afterCr;
  private boolean firstLine = true;

  private final StringBuilder data = new StringBuilder();
  private long dataBytes;
  private String eventType = "";
  private String idBuffer = "";
  private Duration blockRetry;

  private String lastEventId = "";
  private Duration retry;

  /**
   * @param maxEventSize most bytes one line, or the data lines of one event, may take
   * @param request named in the {@link ProtocolException} for an event over the limit
   */
  public EventParser(int maxEventSize, Request request) {
    if (maxEventSize < 1) {
      throw new IllegalArgumentException("maxEventSize must be >= 1: " + maxEventSize);
    }
    this.maxEventSize = maxEventSize;
    this.request = request;
  }

  /**
   * Forgets the partial line and event of a connection that broke off, as a new connection starts
   * from nothing; the last event ID, the reconnection time and the events already complete are kept.
   */
  public void reset() {
    lineLength = 0;
    afterCr = false;
    firstLine = true;
    data.setLength(0);
    dataBytes = 0;
    eventType = "";
    idBuffer = lastEventId;
    blockRetry = null;
  }

  /**
   * Parses {@code bytes}; events they complete become available through {@link #poll}.
   *
   * @throws ProtocolException if the event being built grows past {@code maxEventSize}
   */
  public void feed(byte[] bytes) {
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      byte b = bytes[i];
      if (b != CR && b != LF) {
        continue;
      }
      boolean lfOfCrlf = b == LF && afterCr && i == start && lineLength == 0;
      afterCr = b == CR;
      if (lfOfCrlf) {
        start = i + 1;
        continue;
      }
      append(bytes, start, i - start);
      endLine();
      start = i + 1;
    }
    if (start < bytes.length) {
      afterCr = false;
      append(bytes, start, bytes.length - start);
    }
  }

  /** The next complete event, or {@code null} if the bytes fed so far complete no further event. */
  public ServerSentEvent poll() {
    return ready.poll();
  }

  /**
   * The stream's last event ID: the {@code id} in effect at the last blank line (events without
   * data included), or {@code ""} if none was set.
   */
  public String lastEventId() {
    return lastEventId;
  }

  /** The last valid {@code retry} the stream sent (it takes effect at once), or {@code null}. */
  public Duration retry() {
    return retry;
  }

  private void append(byte[] bytes, int from, int length) {
    if (length == 0) {
      return;
    }
    int needed = lineLength + length;
    if (needed + dataBytes > maxEventSize) {
      throw new ProtocolException("server-sent event larger than the limit of " + maxEventSize
          + " bytes (Client.Builder.maxEventSize) from " + request, request);
    }
    if (needed > line.length) {
      line = Arrays.copyOf(line, Math.min(maxEventSize, Math.max(needed, line.length * 2)));
    }
    System.arraycopy(bytes, from, line, lineLength, length);
    lineLength = needed;
  }

  private void endLine() {
    int length = lineLength;
    lineLength = 0;
    String text = new String(line, 0, length, StandardCharsets.UTF_8);
    if (firstLine) {
      firstLine = false;
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
    }
    if (text.isEmpty()) {
      dispatch();
      return;
    }
    int colon = text.indexOf(':');
    if (colon == 0) {
      return; // a comment
    }
    String field = colon < 0 ? text : text.substring(0, colon);
    int valueStart = colon < 0 ? text.length() : colon + 1;
    if (valueStart < text.length() && text.charAt(valueStart) == ' ') {
      valueStart++;
    }
    String value = text.substring(valueStart);
    switch (field) {
      case "event" -> eventType = value;
      case "data" -> {
        data.append(value).append('\n');
        dataBytes += length;
      }
      case "id" -> {
        if (value.indexOf('\0') < 0) {
          idBuffer = value;
        }
      }
      case "retry" -> retryField(value);
      default -> { } // unknown fields are ignored
    }
  }

  private void retryField(String value) {
    // Only ASCII digits; more than 18 of them could overflow a long, and no one waits 30 million years.
    if (value.isEmpty() || value.length() > 18) {
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return;
      }
    }
    retry = Duration.ofMillis(Long.parseLong(value));
    blockRetry = retry;
  }

  private void dispatch() {
    lastEventId = idBuffer;
    Duration thisRetry = blockRetry;
    blockRetry = null;
    String type = eventType;
    eventType = "";
    if (data.isEmpty()) {
      return;
    }
    data.setLength(data.length() - 1); // the "\n" after the last data line
    ready.add(new ServerSentEvent(type.isEmpty() ? DEFAULT_TYPE : type, data.toString(), lastEventId, thisRetry));
    data.setLength(0);
    dataBytes = 0;
  }
}
