package dev.strand.internal.netty;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.spi.StreamingResponses;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.Iterator;
import java.util.Map;

/**
 * One exchange on one HTTP/2 stream: writes the request as HEADERS and DATA frames, turns the
 * response frames into a {@link StreamingResponse} whose body is a {@link NettyResponseBody}, and
 * ends by giving the stream's slot back to the pool. The child channel runs with auto-read off: a
 * consumer that falls behind stops the reads, so the stream's flow-control window closes and the
 * server waits; other streams of the connection are not held up.
 *
 * <p>A reset stream fails with a {@link ProtocolException} naming the error code; the connection
 * stays in use. A stream the server did not process (refused, or above a GOAWAY's last-stream-id)
 * is sent again on another connection, whatever its method.
 */
final class Http2StreamHandler extends ChannelInboundHandlerAdapter
    implements BodyOwner, RequestBodyWriter.Framing, RequestBodyWriter.Listener {
  private final Http2Connection connection;
  private final Exchange exchange;
  private final ExchangePhases phases = new ExchangePhases();

  // Event-loop confined.
  private Http2StreamChannel stream;
  private NettyResponseBody body;
  private StreamingResponse undelivered;
  private int interimResponses;
  private boolean done;
  private boolean headersSent;

  Http2StreamHandler(Http2Connection connection, Exchange exchange) {
    this.connection = connection;
    this.exchange = exchange;
    phases.begin(exchange); // the connection's timer sees the stream from now on
  }

  // ---- starting ----

  void start(Http2StreamChannel ch) {
    stream = ch;
    if (done) {
      ch.close();
      return;
    }
    ch.config().setAutoRead(false);
    ch.pipeline().addLast(this);
    Request request = exchange.request;
    RequestBody requestBody = request.body();
    long length = RequestWriter.framedLength(request);
    byte[] buffered = requestBody == null ? null : requestBody.bufferedBytes();
    boolean empty = length <= 0 && length != -1 || (buffered != null && buffered.length == 0);
    Http2Headers headers = Http2Requests.headers(request, connection.origin, length);
    ch.writeAndFlush(new DefaultHttp2HeadersFrame(headers, empty)).addListener(f -> {
      if (f.isSuccess()) {
        headersSent = true;
        if (exchange.events != null) {
          exchange.events.requestHeadersSent(ch.stream().id());
        }
      } else {
        // The HEADERS never left (stream limit, GOAWAY, closed): the server saw nothing of it.
        ch.eventLoop().execute(() -> retryUnprocessed(ErrorMapper.io(f.cause(), request)));
      }
    });
    if (empty) {
      phases.requestDone = true;
    } else if (buffered != null) {
      RequestBodyWriter.writeBuffered(this, buffered, this);
    } else {
      RequestBodyWriter.pump(this, request, length, this);
    }
    armTimer();
    ch.read();
  }

  /** The child stream could not even be opened: nothing reached the server. */
  void failUnstarted(Throwable cause) {
    retryUnprocessed(ErrorMapper.io(cause, exchange.request));
  }

  void abort() {
    fail(new TransportException("cancelled (" + exchange.request + ")", exchange.request), true);
  }

  // ---- request body: RequestBodyWriter's framing and listener ----

  @Override
  public Channel channel() {
    return stream;
  }

  @Override
  public Object slice(byte[] body, int offset, int length, boolean last) {
    return new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body, offset, length), last);
  }

  @Override
  public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
    return new DefaultHttp2DataFrame(alloc.buffer(length).writeBytes(bytes, 0, length), false);
  }

  @Override
  public Object endOfBody() {
    return new DefaultHttp2DataFrame(Unpooled.EMPTY_BUFFER, true);
  }

  @Override
  public void progress() {
    phases.progress();
  }

  @Override
  public void failed(HttpException e) {
    connection.eventLoop().execute(() -> fail(e, true));
  }

  @Override
  public void written() {
    if (!connection.eventLoop().inEventLoop()) {
      connection.eventLoop().execute(this::written);
      return;
    }
    if (!done) {
      phases.requestDone = true;
      if (exchange.events != null) {
        exchange.events.requestBodySent(RequestWriter.framedLength(exchange.request));
      }
      phases.progress();
      armTimer();
    }
  }

  // ---- response ----

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (done) {
        return;
      }
      phases.progress();
      HttpException broken = connection.connectionError();
      if (broken != null) {
        // Frames that came in the same read as the server's protocol violation: not to be trusted.
        fail(ErrorMapper.io(broken, exchange.request), false);
        return;
      }
      if (msg instanceof Http2HeadersFrame h) {
        onHeaders(h);
      } else if (msg instanceof Http2DataFrame d) {
        onData(d);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onHeaders(Http2HeadersFrame frame) {
    Request request = exchange.request;
    if (phases.responseStarted) {
      Headers trailers = convert(frame.headers());
      if (trailers == null) {
        return;
      }
      body.trailers(trailers);
      if (frame.isEndStream()) {
        end();
      }
      return;
    }
    int code = statusCode(frame.headers().status());
    if (code < 0 || code == 101) { // 101 does not exist in HTTP/2 (RFC 9113 section 8.6)
      fail(new ProtocolException("malformed HTTP/2 response: :status is \"" + frame.headers().status() + "\" ("
          + request + ")", request), true);
      return;
    }
    if (code >= 100 && code < 200) {
      if (++interimResponses > Http1Connection.MAX_INTERIM_RESPONSES) {
        fail(ErrorMapper.tooManyInterim(request, Http1Connection.MAX_INTERIM_RESPONSES), true);
      }
      return; // interim response; the final one follows on the same stream
    }
    Headers headers = convert(frame.headers());
    if (headers == null) {
      return;
    }
    phases.responseStarted = true;
    long length = exchange.head || code == 204 || code == 304 ? 0 : contentLength(headers);
    body = new NettyResponseBody(this, request, length);
    undelivered = StreamingResponses.of(request, code, null, headers, Version.HTTP_2, body, connection.sslSession);
    if (frame.isEndStream()) {
      end();
    }
  }

  private void onData(Http2DataFrame frame) {
    if (body == null) {
      fail(new ProtocolException("HTTP/2 DATA before the response HEADERS (" + exchange.request + ")",
          exchange.request), true);
      return;
    }
    ByteBuf content = frame.content();
    if (content.isReadable() && !exchange.head) {
      int next = body.onContent(content);
      if (next == NettyResponseBody.PAUSE) {
        phases.paused = true;
      } else if (next == NettyResponseBody.DISCARD) {
        discardNow();
        return;
      }
    }
    if (frame.isEndStream()) {
      end();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    StreamingResponse r = undelivered;
    if (r != null && !done) {
      undelivered = null;
      exchange.deliver(r);
    }
    if (!done && !phases.paused) {
      armTimer();
      ctx.read();
    }
  }

  private void end() {
    long expected = body.contentLength();
    if (expected >= 0 && body.received() != expected && !exchange.head) {
      fail(ErrorMapper.truncated(exchange.request, body.received(), expected), true);
      return;
    }
    StreamingResponse r = undelivered;
    undelivered = null;
    if (!phases.requestDone) {
      // The server answered before taking the whole request: stop sending (RFC 9113 8.1).
      phases.requestDone = true;
      resetStream(Http2Error.NO_ERROR);
    }
    done = true;
    // The slot goes back before the body completes: a caller woken by the end finds it free.
    connection.streamDone(exchange, true);
    if (!body.onEnd()) {
      // Closed (or failed) by its consumer meanwhile: it already knows.
      if (r != null && !exchange.future.isDone()) {
        exchange.fail(body.stopReason());
      }
      return;
    }
    if (r != null) {
      exchange.deliver(r);
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    try {
      if (evt instanceof Http2ResetFrame reset && !done) {
        long code = reset.errorCode();
        if (code == Http2Error.REFUSED_STREAM.code() && !phases.responseStarted) {
          retryUnprocessed(new ProtocolException("HTTP/2 stream refused by the server (" + exchange.request + ")",
              exchange.request), false);
          return;
        }
        Http2Error error = Http2Error.valueOf(code);
        fail(new ProtocolException("HTTP/2 stream reset by the server: " + (error == null ? "unknown error" : error.name())
            + " (error code " + code + ")" + (phases.responseStarted ? " after the response head" : "") + " ("
            + exchange.request + ")", exchange.request), true);
      } else if (evt instanceof Http2GoAwayFrame && !done && !phases.responseStarted) {
        retryUnprocessed(new ProtocolException("HTTP/2 GOAWAY: the server did not process the request ("
            + exchange.request + ")", exchange.request));
      }
    } finally {
      ReferenceCountUtil.release(evt);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (done) {
      return;
    }
    Request request = exchange.request;
    if (!phases.responseStarted && (!headersSent || aboveGoAway())) {
      retryUnprocessed(new ProtocolException("HTTP/2 GOAWAY: the server did not process the request (" + request
          + ")", request));
      return;
    }
    HttpException cause = connection.connectionError();
    HttpException e = cause != null ? ErrorMapper.io(cause, request)
        : phases.responseStarted ? ErrorMapper.truncated(request, body.received(), body.contentLength())
        : ErrorMapper.noResponse(request);
    fail(e, connection.channel.isActive());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(cause instanceof HttpException e ? ErrorMapper.io(e, exchange.request)
        : new ProtocolException("HTTP/2 stream error: " + cause.getMessage() + " (" + exchange.request + ")",
            exchange.request, cause), true);
  }

  /** Whether the server's GOAWAY says this stream was never processed. */
  private boolean aboveGoAway() {
    Http2FrameCodec codec = connection.channel.pipeline().get(Http2FrameCodec.class);
    if (codec == null || stream == null) {
      return false;
    }
    var c = codec.connection();
    int id = stream.stream().id();
    return c.goAwayReceived() && (id < 0 || id > c.local().lastStreamKnownByPeer());
  }

  // ---- consumer side (any thread) ----

  @Override
  public void resumeReading(NettyResponseBody b) {
    connection.eventLoop().execute(() -> {
      if (body == b && phases.paused && !done) {
        phases.paused = false;
        phases.progress();
        armTimer();
        stream.read();
      }
    });
  }

  @Override
  public void discard(NettyResponseBody b) {
    connection.eventLoop().execute(() -> {
      if (body == b && !done) {
        discardNow();
      }
    });
  }

  private void discardNow() {
    fail(body.stopReason(), true);
  }

  // ---- ending ----

  /** Fails the exchange; only this stream is reset, the connection goes on unless {@code connectionOk} is false. */
  private void fail(HttpException e, boolean connectionOk) {
    if (done) {
      return;
    }
    done = true;
    NettyResponseBody b = body;
    undelivered = null;
    resetStream(Http2Error.CANCEL);
    connection.streamDone(exchange, connectionOk);
    if (b != null) {
      b.onError(e);
    }
    exchange.fail(e);
  }

  private void retryUnprocessed(HttpException e) {
    retryUnprocessed(e, true);
  }

  /** @param fresh whether the retry needs another connection (not after a refused stream, the connection being fine) */
  private void retryUnprocessed(HttpException e, boolean fresh) {
    if (done) {
      return;
    }
    done = true;
    resetStream(Http2Error.CANCEL);
    connection.streamDone(exchange, true);
    if (!exchange.retryUnprocessed(fresh)) {
      exchange.fail(e);
    }
  }

  /** Resets the stream if it is still open, and closes the child channel, which drops the frames it still holds. */
  private void resetStream(Http2Error error) {
    Http2StreamChannel s = stream;
    if (s != null && s.isActive()) {
      if (s.stream().id() > 0 && error != Http2Error.CANCEL) {
        s.writeAndFlush(new DefaultHttp2ResetFrame(error)).addListener(f -> s.close());
      } else {
        s.close(); // sends RST_STREAM(CANCEL) for a stream that is open
      }
    }
  }

  // ---- timeouts: checked by the connection's DeadlineTimer ----

  private void armTimer() {
    connection.timer.armBy(done ? DeadlineTimer.NONE : phases.deadline());
  }

  /** Fails this stream if its current phase has made no progress within its limit; else its deadline. */
  long expire(long now) {
    if (done) {
      return DeadlineTimer.NONE;
    }
    HttpException overdue = phases.overdue(now);
    if (overdue == null) {
      return phases.deadline();
    }
    fail(overdue, true);
    return DeadlineTimer.NONE;
  }

  // ---- helpers ----

  /** Regular header fields (pseudo-headers dropped), checked; {@code null} after failing the exchange. */
  /** The code of a {@code :status} of three digits from 100 to 999, or -1. */
  private static int statusCode(CharSequence status) {
    if (status == null || status.length() != 3 || status.charAt(0) < '1' || status.charAt(0) > '9') {
      return -1;
    }
    int code = 0;
    for (int i = 0; i < 3; i++) {
      char c = status.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      code = code * 10 + (c - '0');
    }
    return code;
  }

  private Headers convert(Http2Headers fields) {
    Headers.Builder b = Headers.builder();
    try {
      Iterator<Map.Entry<CharSequence, CharSequence>> it = fields.iterator();
      while (it.hasNext()) {
        Map.Entry<CharSequence, CharSequence> e = it.next();
        CharSequence name = e.getKey();
        if (name.length() > 0 && name.charAt(0) == ':') {
          continue;
        }
        b.add(name.toString(), e.getValue().toString());
      }
    } catch (IllegalArgumentException e) {
      fail(new ProtocolException("malformed response header: " + e.getMessage() + " (" + exchange.request + ")",
          exchange.request, e), true);
      return null;
    }
    return b.build();
  }

  private static long contentLength(Headers headers) {
    String v = headers.first("content-length");
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
