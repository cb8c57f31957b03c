package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;

/**
 * The per-hop work of a link that only looks at or replaces the request on its way out, and the response head on
 * its way back: cookies, decompression, the user's hooks. Adjacent steps run as one link ({@link HopSteps}), in
 * one future stage between them, where a link each cost a stage each: a future, its completion and a lambda for
 * every request in flight, and one more hand-over per response.
 */
interface HopStep {
  /**
   * The request to send on, {@code request} itself when this step changes nothing. A step that throws fails the
   * hop with its exception, before anything is sent.
   */
  Request outbound(Call call, Request request);

  /**
   * The response to pass back, {@code response} itself when this step changes nothing. {@code sent} is the request
   * as the group of steps sent it on: steps add headers, they never change a request's method or URL. A step that
   * throws fails the hop; the group closes the response first, so its connection is released.
   */
  StreamingResponse inbound(Call call, Request sent, StreamingResponse response);
}
