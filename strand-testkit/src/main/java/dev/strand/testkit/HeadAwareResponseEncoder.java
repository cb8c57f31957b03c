package dev.strand.testkit;

import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * {@link HttpResponseEncoder} that also drops the body of responses to HEAD, so endpoints can build the same
 * response for GET and HEAD. HttpServerCodec does this with a queue fed by its decoder, but that queue would
 * drift when pre-encoded responses bypass the encoder; here the connection sets the flag for each request.
 */
final class HeadAwareResponseEncoder extends HttpResponseEncoder {

    /** True while the response being written answers a HEAD request. Touched only on the event loop. */
    boolean head;

    @Override
    protected boolean isContentAlwaysEmpty(HttpResponse msg) {
        return head || super.isContentAlwaysEmpty(msg);
    }
}
