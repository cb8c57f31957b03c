package dev.strand.internal.http2;

import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.Version;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.ExchangeDriver;
import dev.strand.internal.exchange.StreamExchange;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
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

/**
 * The HTTP/2 framing of one exchange, on one stream: the request as HEADERS and DATA frames, the
 * response frames turned into calls on its {@link ExchangeDriver}, which holds the exchange's state
 * and ends it by giving the stream's slot back to the pool. The child channel runs with auto-read
 * off: a consumer that falls behind stops the reads, so the stream's flow-control window closes and
 * the server waits; other streams of the connection are not held up.
 *
 * <p>A reset stream fails with a {@link ProtocolException} naming the error code; the connection
 * stays in use. A stream the server did not process (refused, or above a GOAWAY's last-stream-id)
 * is sent again on another connection, whatever its method.
 */
final class Http2StreamHandler extends StreamExchange<Http2StreamChannel> {
  private final Http2Connection connection;
  /** Event-loop confined. */
  private boolean headersSent;

  Http2StreamHandler(Http2Connection connection, Exchange exchange) {
    super(exchange, Version.HTTP_2, connection.eventLoop(), connection.timer);
    this.connection = connection;
  }

  // ---- starting ----

  void start(Http2StreamChannel ch) {
    if (!opened(ch)) {
      return;
    }
    ch.config().setAutoRead(false);
    ch.pipeline().addLast(this);
    Request request = driver.request();
    boolean empty = driver.hasNoBody();
    Http2Headers headers = Http2Requests.headers(request, driver.exchange().origin(), driver.requestLength());
    ch.writeAndFlush(new DefaultHttp2HeadersFrame(headers, empty)).addListener(f -> {
      if (f.isSuccess()) {
        headersSent = true;
        Exchange x = driver.exchange();
        if (x.events != null) {
          x.events.requestHeadersSent(ch.stream().id());
        }
      } else {
        // The HEADERS never left (stream limit, GOAWAY, closed): the server saw nothing of it.
        ch.eventLoop().execute(() -> failUnstarted(f.cause()));
      }
    });
    if (empty) {
      driver.requestWrittenWithHead(false);
    } else {
      driver.sendBody();
    }
    driver.arm();
    ch.read();
  }

  // ---- the driver's framing ----

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

  /** The server answered before taking the whole request: stop sending (RFC 9113 8.1). */
  @Override
  public boolean answeredEarly(ExchangeDriver d) {
    resetStream(Http2Error.NO_ERROR);
    return true;
  }

  @Override
  public void completed(ExchangeDriver d) {
    connection.streamDone(d.exchange(), true);
  }

  /** Only this stream is reset; the connection goes on unless {@code connectionOk} is false. */
  @Override
  public void abandoned(ExchangeDriver d, boolean connectionOk) {
    resetStream(Http2Error.CANCEL);
    connection.streamDone(d.exchange(), connectionOk);
  }

  // ---- response ----

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (driver.isDone()) {
        return;
      }
      driver.progress();
      HttpException broken = connection.connectionError();
      if (broken != null) {
        // Frames that came in the same read as the server's protocol violation: not to be trusted.
        driver.fail(ErrorMapper.io(broken, driver.request()), false);
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
    if (onHeaders(frame.headers().status(), frame.headers(), connection.sslSession) && frame.isEndStream()) {
      driver.responseEnded();
    }
  }

  private void onData(Http2DataFrame frame) {
    if (onData(frame.content()) && frame.isEndStream()) {
      driver.responseEnded();
    }
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
    try {
      if (driver.isDone()) {
        return;
      }
      Request request = driver.request();
      if (evt instanceof Http2ResetFrame reset) {
        long code = reset.errorCode();
        if (code == Http2Error.REFUSED_STREAM.code() && !driver.responseStarted()) {
          driver.resendUnprocessed(new ProtocolException("HTTP/2 stream refused by the server (" + request + ")",
              request), false);
          return;
        }
        Http2Error error = Http2Error.valueOf(code);
        driver.fail(new ProtocolException("HTTP/2 stream reset by the server: " + (error == null ? "unknown error"
            : error.name()) + " (error code " + code + ")" + (driver.responseStarted() ? " after the response head" : "")
            + " (" + request + ")", request), true);
      } else if (evt instanceof Http2GoAwayFrame && !driver.responseStarted()) {
        driver.resendUnprocessed(new ProtocolException("HTTP/2 GOAWAY: the server did not process the request ("
            + request + ")", request), true);
      }
    } finally {
      ReferenceCountUtil.release(evt);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (driver.isDone()) {
      return;
    }
    Request request = driver.request();
    if (!driver.responseStarted() && (!headersSent || aboveGoAway())) {
      driver.resendUnprocessed(new ProtocolException("HTTP/2 GOAWAY: the server did not process the request ("
          + request + ")", request), true);
      return;
    }
    streamClosed(connection.connectionError(), connection.channel.isActive());
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Request request = driver.request();
    driver.fail(cause instanceof HttpException e ? ErrorMapper.io(e, request)
        : new ProtocolException("HTTP/2 stream error: " + cause.getMessage() + " (" + request + ")", request, cause),
        true);
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
}
