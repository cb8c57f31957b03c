package dev.strand;

import java.time.Duration;
import java.util.Objects;

/**
 * One event of a {@code text/event-stream}, as {@link EventStream#next()} delivers it, with the
 * fields the WHATWG HTML standard gives a dispatched {@code MessageEvent}.
 *
 * @param event the event type: the block's {@code event:} field, or {@code "message"} when it had none
 * @param data the block's {@code data:} lines joined with {@code "\n"} (no trailing newline)
 * @param id the last event ID in effect when this event was dispatched: the most recent {@code id:}
 *     field of the stream so far, not necessarily of this block; {@code ""} when no ID was ever set
 *     (or an {@code id:} with an empty value reset it). Never {@code null}.
 * @param retry the reconnection time from a valid {@code retry:} field in this event's own block,
 *     or {@code null} if it had none
 */
public record ServerSentEvent(String event, String data, String id, Duration retry) {
  private static final int DATA_SHOWN = 200;

  /** An event as the stream gave it (for tests and mocks; the stream makes these). */
  public ServerSentEvent {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(id, "id");
  }

  /** For logs: type, id, retry and the data (newlines escaped, long data cut). */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("ServerSentEvent{event=").append(event);
    if (!id.isEmpty()) {
      sb.append(", id=").append(id);
    }
    if (retry != null) {
      sb.append(", retry=").append(retry.toMillis()).append("ms");
    }
    String shown = data.length() <= DATA_SHOWN ? data : data.substring(0, DATA_SHOWN);
    sb.append(", data=\"").append(shown.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\""));
    if (shown.length() < data.length()) {
      sb.append("\"... (").append(data.length()).append(" chars)}");
    } else {
      sb.append("\"}");
    }
    return sb.toString();
  }

  /**
   * The data parsed as JSON into {@code type}, by the {@link JsonCodec} on the class path.
   *
   * @throws ProtocolException if the data is not valid JSON for {@code type}
   */
  public <T> T json(Class<T> type) {
    return dev.strand.internal.json.JsonCodecs.read(data.getBytes(java.nio.charset.StandardCharsets.UTF_8), type, null);
  }
}
