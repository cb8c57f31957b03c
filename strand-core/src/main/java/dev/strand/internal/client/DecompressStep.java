package dev.strand.internal.client;

import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.internal.coding.ContentEncodings;

/** Wraps each response body in a decoding view of its Content-Encoding. */
final class DecompressStep implements HopStep {
  @Override
  public Request outbound(Call call, Request request) {
    return request;
  }

  @Override
  public StreamingResponse inbound(Call call, Request sent, StreamingResponse response) {
    return ContentEncodings.decode(response, sent);
  }
}
