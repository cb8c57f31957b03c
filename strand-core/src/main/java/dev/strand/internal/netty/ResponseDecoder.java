package dev.strand.internal.netty;

import dev.strand.Headers;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.util.Iterator;
import java.util.Map;

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

  /** The header fields of a decoded response, checked by {@link Headers.Builder#add}. */
  static Headers headers(HttpResponse response) {
    Headers.Builder b = Headers.builder();
    Iterator<Map.Entry<CharSequence, CharSequence>> it = response.headers().iteratorCharSequence();
    while (it.hasNext()) {
      Map.Entry<CharSequence, CharSequence> e = it.next();
      b.add(e.getKey().toString(), e.getValue().toString());
    }
    return b.build();
  }

  @Override
  protected boolean isContentAlwaysEmpty(HttpMessage msg) {
    if (headRequest && msg instanceof HttpResponse r && r.status().code() >= 200) {
      return true;
    }
    return super.isContentAlwaysEmpty(msg);
  }
}
