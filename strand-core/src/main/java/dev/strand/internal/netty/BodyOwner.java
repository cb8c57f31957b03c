package dev.strand.internal.netty;

/** Where a {@link NettyResponseBody} asks for more bytes or gives up: an HTTP/1.1 connection or an HTTP/2 stream. */
public interface BodyOwner {
  /** The consumer took enough of {@code b}: read on (any thread). */
  void resumeReading(NettyResponseBody b);

  /** {@code b} was closed before its end, or is too large: stop reading it (any thread). */
  void discard(NettyResponseBody b);
}
