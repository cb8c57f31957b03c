package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import java.util.List;

/**
 * Adjacent {@link HopStep}s, outermost first, run as one: their outbound sides in that order, their inbound sides
 * in the reverse, as nested links would.
 */
final class HopSteps {
  static final HopSteps NONE = new HopSteps(List.of());

  private final HopStep[] steps;

  HopSteps(List<HopStep> outermostFirst) {
    this.steps = outermostFirst.toArray(HopStep[]::new);
  }

  boolean isEmpty() {
    return steps.length == 0;
  }

  Request outbound(Call call, Request request) {
    Request sent = request;
    for (HopStep step : steps) {
      sent = step.outbound(call, sent);
    }
    return sent;
  }

  StreamingResponse inbound(Call call, Request sent, StreamingResponse response) {
    StreamingResponse r = response;
    for (int i = steps.length - 1; i >= 0; i--) {
      try {
        r = steps[i].inbound(call, sent, r);
      } catch (RuntimeException | Error e) {
        r.close();
        throw e;
      }
    }
    return r;
  }
}
