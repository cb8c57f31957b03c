package dev.strand.http3.internal;

import dev.strand.HttpException;
import dev.strand.PoolTimeoutException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.ExchangeDriver;
import dev.strand.internal.exchange.StreamExchange;
import dev.strand.internal.http2.Http2Requests;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Exception;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersValidationException;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.util.ReferenceCountUtil;

/**
 * The HTTP/3 framing of one exchange, on one request stream: the request as a HEADERS frame and DATA
 * frames then the stream's FIN, the response frames turned into calls on core's {@link ExchangeDriver},
 * which holds the exchange's state (phases and timeouts, the upload, delivery, failure) as it does for
 * HTTP/1.1 and HTTP/2. The stream's pipeline ends in {@link #inbound()} and runs with auto-read off: a
 * consumer that falls behind stops the reads, so the stream's QUIC flow-control window closes and the
 * server waits; other streams of the connection are not held up. The response ends with the server's FIN.
 *
 * <p>A stream the server resets fails with a {@link ProtocolException} naming the HTTP/3 error code,
 * and the connection stays in use; one it rejected (H3_REQUEST_REJECTED) before answering is sent
 * again, whatever its method.
 */
final class Http3StreamHandler extends StreamExchange {
  private static final long H3_REQUEST_REJECTED = 0x10b;
  private static final int H3_REQUEST_CANCELLED = 0x10c;

  private final Http3Connection connection;
  private final Inbound inbound = new Inbound();
  /** The stream, once opened. Event-loop confined. */
  private QuicStreamChannel stream;

  Http3StreamHandler(Http3Connection connection, Exchange exchange) {
    super(exchange, Version.HTTP_3, connection.eventLoop(), connection.timer);
    this.connection = connection;
  }

  /** The handler at the end of the stream's pipeline, which hands its frames and events to this exchange. */
  ChannelHandler inbound() {
    return inbound;
  }

  // ---- starting ----

  void start(QuicStreamChannel ch) {
    stream = ch;
    if (driver.isDone()) { // ended while the stream was being opened
      ch.close();
      return;
    }
    ch.pipeline().addFirst("strand-h3-frame-boundaries", new FrameBoundaries());
    Request request = driver.request();
    boolean empty = driver.hasNoBody();
    DefaultHttp3HeadersFrame head = new DefaultHttp3HeadersFrame();
    Http3Headers h = head.headers();
    h.method(request.method()).scheme("https").authority(Http2Requests.authority(request, driver.exchange().origin()))
        .path(Http2Requests.target(request.url()));
    Http2Requests.addFields(request, h);
    if (driver.requestLength() >= 0) {
      h.setLong("content-length", driver.requestLength());
    }
    if (empty) {
      ch.pipeline().addFirst(HeadersWithFin.INSTANCE);
    }
    ch.writeAndFlush(head).addListener(f -> {
      if (!f.isSuccess()) {
        // The HEADERS never left: the server saw nothing of it.
        failUnstarted(f.cause());
      } else if (empty) {
        driver.written();
      }
    });
    if (!empty) {
      driver.sendBody();
    }
    driver.arm();
    ch.read();
  }

  /** The server granted no stream within {@code waited}: the request was never sent, and nothing else waits on it. */
  void noCredit(String server, java.time.Duration waited) {
    if (!driver.isDone()) {
      driver.fail(new PoolTimeoutException("no stream to " + server + " became free within "
          + ErrorMapper.seconds(waited.toNanos()) + ": the server allows no new request stream (QUIC stream credit) ("
          + driver.request() + ")", driver.request()), true);
    }
  }

  // ---- the driver's framing ----

  @Override
  public Channel channel() {
    return stream;
  }

  @Override
  public void read() {
    stream.read();
  }

  @Override
  public Object slice(byte[] bytes, int offset, int length, boolean last) {
    return new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(bytes, offset, length));
  }

  @Override
  public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
    return new DefaultHttp3DataFrame(alloc.buffer(length).writeBytes(bytes, 0, length));
  }

  /** The stream's FIN ends the body, sent once the last piece is written ({@link #endRequest}). */
  @Override
  public Object endOfBody() {
    return null;
  }

  @Override
  public void endRequest(ExchangeDriver d) {
    if (stream.isOutputShutdown()) { // the FIN went with the HEADERS
      d.requestWritten();
      return;
    }
    stream.shutdownOutput().addListener(f -> {
      if (f.isSuccess()) {
        d.requestWritten();
      }
    });
  }

  /** The server answered before taking the whole request: stop sending (RFC 9114 section 4.1). */
  @Override
  public boolean answeredEarly(ExchangeDriver d) {
    stream.shutdownOutput(H3_REQUEST_CANCELLED, stream.newPromise());
    return true;
  }

  @Override
  public void completed(ExchangeDriver d) {
    connection.streamDone(d.exchange(), true);
    stream.close();
  }

  /** Resets both directions of the stream; the connection goes on unless {@code connectionOk} is false. */
  @Override
  public void abandoned(ExchangeDriver d, boolean connectionOk) {
    QuicStreamChannel s = stream;
    if (s != null && s.isActive()) {
      s.shutdown(H3_REQUEST_CANCELLED, s.newPromise()).addListener(f -> s.close());
    }
    connection.streamDone(d.exchange(), connectionOk);
  }

  // ---- response ----

  private void onFrame(Object msg) {
    try {
      if (driver.isDone()) {
        return;
      }
      driver.progress();
      if (msg instanceof Http3HeadersFrame h) {
        onHeaders(h.headers().status(), h.headers(), connection.sslSession());
      } else if (msg instanceof Http3DataFrame d) {
        onData(d.content());
      } // unknown frame types are ignored (RFC 9114 section 9); the server's FIN ends the response
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onEvent(Object evt) {
    if (evt instanceof ChannelInputShutdownEvent && !driver.isDone()) {
      // The server's FIN: the response is complete, if it started.
      if (driver.body() == null) {
        driver.fail(ErrorMapper.noResponse(driver.request()), true);
      } else {
        driver.responseEnded();
      }
    }
    ReferenceCountUtil.release(evt);
  }

  private void onClosed() {
    if (!driver.isDone()) {
      streamClosed(connection.connectionError(), connection.isOpen());
    }
  }

  private void onError(Throwable cause) {
    Request request = driver.request();
    if (cause instanceof QuicStreamResetException reset) {
      long code = reset.applicationProtocolCode();
      if (code == H3_REQUEST_REJECTED && !driver.responseStarted()) {
        driver.resendUnprocessed(new ProtocolException("HTTP/3 request rejected by the server (" + request + ")",
            request), false);
        return;
      }
      driver.fail(new ProtocolException("HTTP/3 stream reset by the server: " + Http3Errors.name(code)
          + (driver.responseStarted() ? " after the response head" : "") + " (" + request + ")", request), true);
    } else if (cause instanceof Http3HeadersValidationException invalid) {
      driver.fail(new ProtocolException("HTTP/3 response head is malformed: " + invalid.getMessage() + " ("
          + request + ")", request, cause), true);
    } else if (cause instanceof Http3Exception h3) {
      driver.fail(new ProtocolException("HTTP/3 stream error " + h3.errorCode() + ": " + cause.getMessage() + " ("
          + request + ")", request, cause), true);
    } else {
      driver.fail(cause instanceof HttpException e ? ErrorMapper.io(e, request) : new TransportException(
          "HTTP/3 stream error: " + cause + " (" + request + ")", request, cause), true);
    }
  }

  /** The end of the stream's pipeline. */
  private final class Inbound extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      onFrame(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      readComplete();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      onEvent(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      onClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      onError(cause);
    }
  }

  /**
   * Sends a bodiless request's HEADERS and the stream's FIN as one STREAM frame. A separate
   * {@code shutdownOutput()} makes QUIC send the FIN in a packet of its own: two datagrams per GET
   * instead of one. It sits next to the stream, before the HTTP/3 codec, where the HEADERS frame is
   * already bytes, and only on streams whose request has no body, so their one write is the last.
   */
  @ChannelHandler.Sharable
  private static final class HeadersWithFin extends ChannelOutboundHandlerAdapter {
    static final HeadersWithFin INSTANCE = new HeadersWithFin();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      ctx.write(msg instanceof ByteBuf bytes ? new DefaultQuicStreamFrame(bytes, true) : msg, promise);
    }
  }
}
