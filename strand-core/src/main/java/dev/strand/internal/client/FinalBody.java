package dev.strand.internal.client;

import dev.strand.internal.body.ForwardingBody;
import dev.strand.spi.ResponseBody;

/**
 * The body of a streamed call's final response, which ends the call: reading it to the end, failing or
 * closing it stops the call's deadline and tells the listener {@code callEnd} ({@link Call#end()}).
 * Reading it past the deadline fails with the call's {@link dev.strand.CallTimeoutException} (the
 * deadline closed the body underneath, which a reader would otherwise see as an early end).
 */
final class FinalBody extends ForwardingBody {
  private final Call call;

  FinalBody(ResponseBody body, Call call) {
    super(body);
    this.call = call;
  }

  @Override
  protected void read(byte[] piece) {
    throwIfExpired();
  }

  @Override
  protected void ended() {
    throwIfExpired();
    call.end();
  }

  @Override
  protected RuntimeException failed(RuntimeException failure) {
    call.end();
    return call.expired() != null ? call.expired() : failure;
  }

  @Override
  protected void closed() {
    call.end();
  }

  private void throwIfExpired() {
    if (call.expired() != null) {
      throw call.expired();
    }
  }
}
