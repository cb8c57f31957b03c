package dev.strand.http3.internal;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.netty.BodyOwner;
import dev.strand.internal.netty.DeadlineTimer;
import dev.strand.internal.netty.ErrorMapper;
import dev.strand.internal.netty.Exchange;
import dev.strand.internal.netty.ExchangePhases;
import dev.strand.internal.netty.Http2Requests;
import dev.strand.internal.netty.NettyResponseBody;
import dev.strand.internal.netty.RequestBodyWriter;
import dev.strand.spi.StreamingResponses;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Exception;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.util.ReferenceCountUtil;
import java.util.Iterator;
import java.util.Map;

/**
 * One exchange on one HTTP/3 request stream: the request as a HEADERS frame and DATA frames then the
 * stream's FIN, the response frames turned into a {@link StreamingResponse} whose body is core's
 * {@link NettyResponseBody}, timed by core's {@link ExchangePhases}, the body written by core's
 * {@link RequestBodyWriter}. The stream runs with auto-read off: a consumer that falls behind stops
 * the reads, so the stream's QUIC flow-control window closes and the server waits; other streams of
 * the connection are not held up. The response ends with the server's FIN.
 *
 * <p>A stream the server resets fails with a {@link ProtocolException} naming the HTTP/3 error code,
 * and the connection stays in use; one it rejected (H3_REQUEST_REJECTED) before answering is sent
 * again, whatever its method.
 */
final class Http3StreamHandler extends ChannelInboundHandlerAdapter
    implements BodyOwner, RequestBodyWriter.Framing, RequestBodyWriter.Listener {
  /** As HTTP/1.1 and HTTP/2: at most this many interim (1xx) responses before the final one. */
  static final int MAX_INTERIM_RESPONSES = 100;
  private static final long H3_REQUEST_REJECTED = 0x10b;
  private static final int H3_REQUEST_CANCELLED = 0x10c;

  private final Http3Connection connection;
  private final Exchange exchange;
  private final ExchangePhases phases = new ExchangePhases();

  // Event-loop confined.
  private QuicStreamChannel stream;
  private NettyResponseBody body;
  private StreamingResponse undelivered;
  private int interimResponses;
  private boolean done;

  Http3StreamHandler(Http3Connection connection, Exchange exchange) {
    this.connection = connection;
    this.exchange = exchange;
    phases.begin(exchange); // the connection's timer sees the stream from now on
  }

  boolean isDone() {
    return done;
  }

  // ---- starting ----

  void start(QuicStreamChannel ch) {
    stream = ch;
    if (done) {
      ch.close();
      return;
    }
    Request request = exchange.request();
    RequestBody requestBody = request.body();
    long length = Http2Requests.bodyLength(request);
    byte[] buffered = requestBody == null ? null : requestBody.bufferedBytes();
    boolean empty = length <= 0 && length != -1 || (buffered != null && buffered.length == 0);
    DefaultHttp3HeadersFrame head = new DefaultHttp3HeadersFrame();
    Http3Headers h = head.headers();
    h.method(request.method()).scheme("https").authority(Http2Requests.authority(request, exchange.origin()))
        .path(Http2Requests.target(request.url()));
    Http2Requests.addFields(request, h);
    if (length >= 0) {
      h.setLong("content-length", length);
    }
    ch.writeAndFlush(head).addListener(f -> {
      if (!f.isSuccess()) {
        // The HEADERS never left: the server saw nothing of it.
        retryUnprocessed(ErrorMapper.io(f.cause(), request), true);
      } else if (empty) {
        written();
      }
    });
    if (buffered != null && !empty) {
      RequestBodyWriter.writeBuffered(this, buffered, this);
    } else if (!empty) {
      RequestBodyWriter.pump(this, request, length, this);
    }
    armTimer();
    ch.read();
  }

  /** The stream could not be opened: nothing reached the server. */
  void failUnstarted(Throwable cause) {
    retryUnprocessed(ErrorMapper.io(cause, exchange.request()), true);
  }

  void abort() {
    fail(new TransportException("cancelled (" + exchange.request() + ")", exchange.request()), true);
  }

  // ---- request body: RequestBodyWriter's framing and listener ----

  @Override
  public Channel channel() {
    return stream;
  }

  @Override
  public Object slice(byte[] bytes, int offset, int length, boolean last) {
    return new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(bytes, offset, length));
  }

  @Override
  public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
    return new DefaultHttp3DataFrame(alloc.buffer(length).writeBytes(bytes, 0, length));
  }

  /** The stream's FIN ends the body, sent once the last piece is written ({@link #written}). */
  @Override
  public Object endOfBody() {
    return null;
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
    if (done) {
      return;
    }
    stream.shutdownOutput().addListener(f -> {
      if (f.isSuccess() && !done) {
        phases.requestDone = true;
        phases.progress();
        armTimer();
      }
    });
  }

  // ---- response ----

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (done) {
        return;
      }
      phases.progress();
      if (msg instanceof Http3HeadersFrame h) {
        onHeaders(h);
      } else if (msg instanceof Http3DataFrame d) {
        onData(d);
      } // unknown frame types are ignored (RFC 9114 section 9)
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onHeaders(Http3HeadersFrame frame) {
    Request request = exchange.request();
    if (phases.responseStarted) {
      Headers trailers = convert(frame.headers());
      if (trailers != null && body != null) {
        body.trailers(trailers);
      }
      return;
    }
    int code = statusCode(frame.headers().status());
    if (code < 0 || code == 101) { // no 101 in HTTP/3 either (RFC 9114 section 4.5)
      fail(new ProtocolException("malformed HTTP/3 response: :status is \"" + frame.headers().status() + "\" ("
          + request + ")", request), true);
      return;
    }
    if (code < 200) {
      if (++interimResponses > MAX_INTERIM_RESPONSES) {
        fail(ErrorMapper.tooManyInterim(request, MAX_INTERIM_RESPONSES), true);
      }
      return;
    }
    Headers headers = convert(frame.headers());
    if (headers == null) {
      return;
    }
    phases.responseStarted = true;
    long length = exchange.isHead() || code == 204 || code == 304 ? 0 : contentLength(headers);
    body = new NettyResponseBody(this, request, length);
    undelivered = StreamingResponses.of(request, code, null, headers, Version.HTTP_3, body, connection.sslSession());
  }

  private void onData(Http3DataFrame frame) {
    if (body == null) {
      fail(new ProtocolException("HTTP/3 DATA before the response HEADERS (" + exchange.request() + ")",
          exchange.request()), true);
      return;
    }
    ByteBuf content = frame.content();
    if (content.isReadable() && !exchange.isHead()) {
      int next = body.onContent(content);
      if (next == NettyResponseBody.PAUSE) {
        phases.paused = true;
      } else if (next == NettyResponseBody.DISCARD) {
        fail(body.stopReason(), true);
      }
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

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    if (evt instanceof ChannelInputShutdownEvent) {
      inputClosed();
    }
    ReferenceCountUtil.release(evt);
  }

  /** The server's FIN: the response is complete, if it started and has all its bytes. */
  private void inputClosed() {
    if (done) {
      return;
    }
    Request request = exchange.request();
    if (body == null) {
      fail(ErrorMapper.noResponse(request), true);
      return;
    }
    long expected = body.contentLength();
    if (expected >= 0 && body.received() != expected && !exchange.isHead()) {
      fail(ErrorMapper.truncated(request, body.received(), expected), true);
      return;
    }
    StreamingResponse r = undelivered;
    undelivered = null;
    done = true;
    phases.end();
    if (!phases.requestDone) {
      // The server answered before taking the whole request: stop sending (RFC 9114 section 4.1).
      stream.shutdownOutput(H3_REQUEST_CANCELLED, stream.newPromise());
    }
    // The slot goes back before the body completes: a caller woken by the end finds it free.
    connection.streamDone(exchange, true);
    stream.close();
    if (!body.onEnd()) {
      if (r != null && !exchange.isDone()) {
        exchange.fail(body.stopReason());
      }
      return;
    }
    if (r != null) {
      exchange.deliver(r);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (done) {
      return;
    }
    Request request = exchange.request();
    HttpException cause = connection.connectionError();
    HttpException e = cause != null ? ErrorMapper.io(cause, request)
        : phases.responseStarted ? ErrorMapper.truncated(request, body.received(), body.contentLength())
        : ErrorMapper.noResponse(request);
    fail(e, connection.isOpen());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Request request = exchange.request();
    if (cause instanceof QuicStreamResetException reset) {
      long code = reset.applicationProtocolCode();
      if (code == H3_REQUEST_REJECTED && !phases.responseStarted) {
        retryUnprocessed(new ProtocolException("HTTP/3 request rejected by the server (" + request + ")", request), false);
        return;
      }
      fail(new ProtocolException("HTTP/3 stream reset by the server: " + Http3Errors.name(code)
          + (phases.responseStarted ? " after the response head" : "") + " (" + request + ")", request), true);
    } else if (cause instanceof Http3Exception h3) {
      fail(new ProtocolException("HTTP/3 stream error " + h3.errorCode() + ": " + cause.getMessage() + " (" + request
          + ")", request, cause), true);
    } else {
      fail(cause instanceof HttpException e ? ErrorMapper.io(e, request) : new TransportException("HTTP/3 stream error: "
          + cause + " (" + request + ")", request, cause), true);
    }
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
        fail(body.stopReason(), true);
      }
    });
  }

  // ---- ending ----

  /** Fails the exchange; only this stream is reset, the connection goes on unless {@code connectionOk} is false. */
  private void fail(HttpException e, boolean connectionOk) {
    if (done) {
      return;
    }
    done = true;
    phases.end();
    NettyResponseBody b = body;
    undelivered = null;
    cancelStream();
    connection.streamDone(exchange, connectionOk);
    if (b != null) {
      b.onError(e);
    }
    exchange.fail(e);
  }

  /** @param fresh whether the retry needs another connection (not after a rejected request: the connection is fine) */
  private void retryUnprocessed(HttpException e, boolean fresh) {
    if (done) {
      return;
    }
    done = true;
    phases.end();
    cancelStream();
    connection.streamDone(exchange, true);
    if (!exchange.retryUnprocessed(fresh)) {
      exchange.fail(e);
    }
  }

  /** Resets both directions of the stream with H3_REQUEST_CANCELLED, which drops what it still holds. */
  private void cancelStream() {
    QuicStreamChannel s = stream;
    if (s != null && s.isActive()) {
      s.shutdown(H3_REQUEST_CANCELLED, s.newPromise()).addListener(f -> s.close());
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

  /** Regular header fields (pseudo-headers dropped), checked; {@code null} after failing the exchange. */
  private Headers convert(Http3Headers fields) {
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
      fail(new ProtocolException("malformed response header: " + e.getMessage() + " (" + exchange.request() + ")",
          exchange.request(), e), true);
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
