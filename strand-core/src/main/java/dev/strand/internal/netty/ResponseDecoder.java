package dev.strand.internal.netty;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;

/**
 * Netty's response decoder, told directly whether the current request is a HEAD: we encode requests
 * ourselves (one buffer, no intermediate objects), so the method queue of {@code HttpClientCodec}
 * is not there to tell it. Header validation is left to {@link dev.strand.Headers}, which checks
 * every field anyway.
 */
final class ResponseDecoder extends HttpResponseDecoder {
  /** Set on the event loop before each request is written. */
  boolean headRequest;

  ResponseDecoder(int maxHeaderSize) {
    super(new HttpDecoderConfig()
        .setMaxHeaderSize(maxHeaderSize)
        .setMaxInitialLineLength(8192)
        .setMaxChunkSize(64 * 1024)
        .setHeadersFactory(DefaultHttpHeadersFactory.headersFactory().withValidation(false)));
  }

  @Override
  protected boolean isContentAlwaysEmpty(HttpMessage msg) {
    if (headRequest && msg instanceof HttpResponse r && r.status().code() >= 200) {
      return true;
    }
    return super.isContentAlwaysEmpty(msg);
  }
}
