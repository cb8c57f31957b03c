package dev.strand.internal.client;

import dev.strand.internal.body.ForwardingBody;
import dev.strand.internal.events.CallEvents;
import dev.strand.spi.ResponseBody;

/**
 * A body as the transport delivered it, counted for the event listener: at its end the listener hears
 * {@code responseBodyReceived} with the bytes off the wire and {@code connectionReleased}; closed early,
 * or failing, only the latter.
 */
final class ObservedBody extends ForwardingBody {
  private final CallEvents events;
  private long bytes;
  private boolean finished;

  ObservedBody(ResponseBody body, CallEvents events) {
    super(body);
    this.events = events;
  }

  @Override
  protected synchronized void read(byte[] piece) {
    bytes += piece.length;
  }

  @Override
  protected void ended() {
    long total;
    synchronized (this) {
      total = bytes;
    }
    finish(total);
  }

  @Override
  protected RuntimeException failed(RuntimeException failure) {
    finish(-1);
    return failure;
  }

  @Override
  protected void closed() {
    finish(-1);
  }

  /** Once: the body ended with {@code total} bytes, or stopped early ({@code -1}). */
  private void finish(long total) {
    synchronized (this) {
      if (finished) {
        return;
      }
      finished = true;
    }
    if (total >= 0) {
      events.responseBodyReceived(total);
    }
    events.connectionReleased();
  }
}
