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
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamFrame;

/**
 * The HTTP/2 framing of one exchange, on one stream of its {@link Http2Connection}: the request as
 * HEADERS and DATA frames written on the connection's channel, the response frames the connection
 * routes here by stream turned into calls on its {@link ExchangeDriver}, which holds the exchange's
 * state and ends it by giving the stream's slot back to the pool. A stream is a frame-codec stream,
 * not a channel: no pipeline, no queue of its own.
 *
 * <p>Flow control: the bytes of each DATA frame are handed to the response body at once and given
 * back to the server (WINDOW_UPDATE) only when the driver reads on. A consumer that falls behind
 * stops the reads, so the stream's window closes and the server waits; other streams of the
 * connection are not held up.
 *
 * <p>A reset stream fails with a {@link ProtocolException} naming the error code; the connection
 * stays in use. A stream the server did not process (refused, or above a GOAWAY's last-stream-id)
 * is sent again on another connection, whatever its method.
 */
final class Http2StreamExchange extends StreamExchange {
  private final Http2Connection connection;
  /** Event-loop confined, as is everything below. */
  private Http2FrameStream stream;
  private boolean headersSent;
  /** Bytes of DATA frames received and not yet given back to the server's window. */
  private int unconsumed;
  /** Whether it is in the connection's list of exchanges that had frames in the current read. */
  boolean touched;

  Http2StreamExchange(Http2Connection connection, Exchange exchange) {
    super(exchange, Version.HTTP_2, connection.eventLoop(), connection.timer);
    this.connection = connection;
  }

  /** The codec's stream, or null before {@link #start}. */
  Http2FrameStream stream() {
    return stream;
  }

  // ---- starting ----

  /** Sends the request on {@code s}, a new stream of the codec, which takes its id with the HEADERS. */
  void start(Http2FrameStream s) {
    if (driver.isDone()) {
      return; // ended before its stream opened: nothing was sent
    }
    stream = s;
    Request request = driver.request();
    boolean empty = driver.hasNoBody();
    Http2Headers headers = Http2Requests.headers(request, driver.exchange().origin(), driver.requestLength());
    connection.opened(this);
    connection.channel.writeAndFlush(new DefaultHttp2HeadersFrame(headers, empty).stream(s)).addListener(f -> {
      if (f.isSuccess()) {
        headersSent = true;
        Exchange x = driver.exchange();
        if (x.events != null) {
          x.events.requestHeadersSent(s.id());
        }
      } else {
        // The HEADERS never left (stream limit, GOAWAY, closed): the server saw nothing of it.
        connection.eventLoop().execute(() -> failUnstarted(f.cause()));
      }
    });
    if (empty) {
      driver.requestWrittenWithHead(false);
    } else {
      driver.sendBody();
    }
    driver.arm();
  }

  // ---- the driver's framing ----

  /** The connection's channel: the body's frames go there, each naming this stream. */
  @Override
  public Channel channel() {
    return connection.channel;
  }

  /** Reads on: the bytes taken since the last read go back to the server's window for this stream. */
  @Override
  public void read() {
    if (unconsumed > 0 && stream.state() != Http2Stream.State.CLOSED) {
      connection.consumed(stream, unconsumed);
    }
    unconsumed = 0;
  }

  @Override
  public Object slice(byte[] body, int offset, int length, boolean last) {
    return new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body, offset, length), last).stream(stream);
  }

  @Override
  public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
    return new DefaultHttp2DataFrame(alloc.buffer(length).writeBytes(bytes, 0, length), false).stream(stream);
  }

  @Override
  public Object endOfBody() {
    return new DefaultHttp2DataFrame(Unpooled.EMPTY_BUFFER, true).stream(stream);
  }

  /** The server answered before taking the whole request: stop sending (RFC 9113 8.1). */
  @Override
  public boolean answeredEarly(ExchangeDriver d) {
    resetStream(Http2Error.NO_ERROR);
    return true;
  }

  @Override
  public void completed(ExchangeDriver d) {
    connection.streamDone(this, true);
  }

  /** Only this stream is reset; the connection goes on unless {@code connectionOk} is false. */
  @Override
  public void abandoned(ExchangeDriver d, boolean connectionOk) {
    resetStream(Http2Error.CANCEL);
    connection.streamDone(this, connectionOk);
  }

  Exchange exchange() {
    return driver.exchange();
  }

  // ---- response: the connection's handler calls these on the event loop ----

  /** A HEADERS, DATA or RST_STREAM frame of this stream; the caller releases it. */
  void frame(Http2StreamFrame frame) {
    if (frame instanceof Http2DataFrame d) {
      unconsumed += d.initialFlowControlledBytes();
    }
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
    if (frame instanceof Http2HeadersFrame h) {
      if (onHeaders(h.headers().status(), h.headers(), connection.sslSession) && h.isEndStream()) {
        driver.responseEnded();
      }
    } else if (frame instanceof Http2DataFrame d) {
      if (onData(d.content()) && d.isEndStream()) {
        driver.responseEnded();
      }
    } else if (frame instanceof Http2ResetFrame reset) {
      reset(reset.errorCode());
    }
  }

  private void reset(long code) {
    Request request = driver.request();
    if (code == Http2Error.REFUSED_STREAM.code() && !driver.responseStarted()) {
      driver.resendUnprocessed(new ProtocolException("HTTP/2 stream refused by the server (" + request + ")",
          request), false);
      return;
    }
    Http2Error error = Http2Error.valueOf(code);
    driver.fail(new ProtocolException("HTTP/2 stream reset by the server: " + (error == null ? "unknown error"
        : error.name()) + " (error code " + code + ")" + (driver.responseStarted() ? " after the response head" : "")
        + " (" + request + ")", request), true);
  }

  /** The server's GOAWAY named a last stream below this one: it did not process it. */
  void unprocessed() {
    if (!driver.isDone() && !driver.responseStarted()) {
      Request request = driver.request();
      driver.resendUnprocessed(new ProtocolException("HTTP/2 GOAWAY: the server did not process the request ("
          + request + ")", request), true);
    }
  }

  /**
   * The stream closed (both ends done, a reset, a GOAWAY that left it unprocessed, or the connection
   * closing) before the exchange ended.
   */
  void closed() {
    if (driver.isDone()) {
      return;
    }
    if (!driver.responseStarted() && (!headersSent || connection.aboveGoAway(stream))) {
      unprocessed();
      return;
    }
    streamClosed(connection.connectionError(), connection.channel.isActive());
  }

  /** A stream error the codec found in the server's frames; failing the exchange resets the stream. */
  void failed(Throwable cause) {
    if (driver.isDone()) {
      return;
    }
    Request request = driver.request();
    driver.fail(cause instanceof HttpException e ? ErrorMapper.io(e, request)
        : new ProtocolException("HTTP/2 stream error: " + cause.getMessage() + " (" + request + ")", request, cause),
        true);
  }

  /** Resets the stream if it is still open; frames the server still sends for it are dropped by the codec. */
  private void resetStream(Http2Error error) {
    if (stream != null) {
      connection.reset(stream, error);
    }
  }
}
