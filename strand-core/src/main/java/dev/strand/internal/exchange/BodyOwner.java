package dev.strand.internal.exchange;

/** Where a {@link NettyResponseBody} asks for more bytes or gives up: its exchange's {@link ExchangeDriver}. */
public interface BodyOwner {
  /** The consumer took enough of {@code b}: read on (any thread). */
  void resumeReading(NettyResponseBody b);

  /** {@code b} was closed before its end, or is too large: stop reading it (any thread). */
  void discard(NettyResponseBody b);

  /** Whether the calling thread is the one that delivers the bytes, so waiting for them would never end. */
  boolean inEventLoop();
}
