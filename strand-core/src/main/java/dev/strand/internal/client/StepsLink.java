package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.concurrent.CompletableFuture;

/**
 * A group of {@link HopStep}s in front of a link that is not the transport (the network interceptors, a WebSocket's
 * opening); next to the transport, {@link TransportLink} runs them in its own stage.
 */
final class StepsLink implements Link {
  private final HopSteps steps;
  private final Link next;

  private StepsLink(HopSteps steps, Link next) {
    this.steps = steps;
    this.next = next;
  }

  /** {@code steps} in front of {@code next}; {@code next} itself when there are none. */
  static Link of(HopSteps steps, Link next) {
    return steps.isEmpty() ? next : new StepsLink(steps, next);
  }

  @Override
  public CompletableFuture<StreamingResponse> proceed(Call call, Request request) {
    Request sent;
    try {
      sent = steps.outbound(call, request);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return next.proceed(call, sent).thenApply(r -> steps.inbound(call, sent, r));
  }
}
