package dev.strand.cli;

import dev.strand.EventStream;
import dev.strand.ServerSentEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code --sse}: writes each server-sent event as it arrives, in the stream's own field syntax
 * ({@code event:}, {@code id:}, {@code retry:}, one {@code data:} line per data line) with a blank
 * line after each event, and flushes it, so a pipe sees every event as soon as it is parsed.
 */
final class EventPrinter {
  private EventPrinter() {}

  /** Prints every event of {@code events} to {@code out}; returns how many were printed. */
  static long printAll(EventStream events, OutputStream out) throws IOException {
    long count = 0;
    for (ServerSentEvent e : events) {
      out.write(format(e).getBytes(StandardCharsets.UTF_8));
      out.flush();
      count++;
    }
    return count;
  }

  /** One event as text: {@code event:} always, {@code id:} when one is in effect, {@code retry:} when sent. */
  static String format(ServerSentEvent e) {
    StringBuilder sb = new StringBuilder();
    sb.append("event: ").append(e.event()).append('\n');
    if (!e.id().isEmpty()) {
      sb.append("id: ").append(e.id()).append('\n');
    }
    if (e.retry() != null) {
      sb.append("retry: ").append(e.retry().toMillis()).append('\n');
    }
    for (String line : e.data().split("\n", -1)) {
      sb.append("data: ").append(line).append('\n');
    }
    return sb.append('\n').toString();
  }
}
