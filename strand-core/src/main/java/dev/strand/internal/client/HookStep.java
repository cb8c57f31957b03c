package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the user's hooks around each hop: request hooks just before the transport, response hooks
 * on the head before the body (so they see the response as it came off the wire, still encoded).
 * A hook that throws fails the call with its exception; the response is closed first ({@link HopSteps}),
 * so its connection is released.
 */
final class HookStep implements HopStep {
  private final List<Consumer<Request>> requestHooks;
  private final List<Consumer<ResponseHead>> responseHooks;

  HookStep(List<Consumer<Request>> requestHooks, List<Consumer<ResponseHead>> responseHooks) {
    this.requestHooks = requestHooks;
    this.responseHooks = responseHooks;
  }

  @Override
  public Request outbound(Call call, Request request) {
    for (int i = 0; i < requestHooks.size(); i++) {
      Consumer<Request> hook = requestHooks.get(i);
      try {
        hook.accept(request);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) { // checked, thrown sneakily
        throw failure("request", i, hook, e, request);
      }
    }
    return request;
  }

  @Override
  public StreamingResponse inbound(Call call, Request sent, StreamingResponse response) {
    for (int i = 0; i < responseHooks.size(); i++) {
      Consumer<ResponseHead> hook = responseHooks.get(i);
      try {
        hook.accept(response);
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) { // checked, thrown sneakily
        throw failure("response", i, hook, e, sent);
      }
    }
    return response;
  }

  private static TransportException failure(String kind, int index, Object hook, Exception e, Request request) {
    return new TransportException(kind + " hook #" + (index + 1) + " (" + hook + ") failed: " + e, request, e);
  }
}
