package dev.strand.http3.internal;

import dev.strand.ConnectException;
import dev.strand.ConnectTimeoutException;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.TlsException;
import dev.strand.Timeout;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.exchange.DeadlineTimer;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.netty.NettyEngine;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.tls.TlsErrors;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3GoAwayFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicClosedChannelException;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslEngine;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamLimitChangedEvent;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;

/**
 * One QUIC connection, on a UDP socket of its own, carrying up to the server's initial limit of
 * bidirectional streams as exchanges at once, each on a request stream ({@link Http3StreamHandler}).
 * It reaches the pool once the QUIC handshake is done, so its capacity is the server's word, never a
 * guess. The connect timeout bounds the handshake.
 *
 * <p>QUIC hands out stream credit as the server's streams close; an exchange the pool gave a slot to
 * while the credit is still on its way waits here for {@link QuicStreamLimitChangedEvent}. After a
 * GOAWAY (or when the pool closes it) the connection takes no new streams and closes once its active
 * ones are done. A connection the server closed fails its streams with a message naming its error code.
 *
 * <p>State is confined to the channel's event loop, except the volatile fields the pool reads.
 */
final class Http3Connection extends NettyConnection {
  /** Upper bound on the capacity, however many streams the server allows. */
  static final int MAX_STREAMS = 1000;
  /** Per-stream receive window, as HTTP/2's. */
  static final int STREAM_WINDOW = 1024 * 1024;
  /** Connection receive window. */
  static final int CONNECTION_WINDOW = 16 * 1024 * 1024;
  /** QUIC's own idle timeout: an idle connection closes after it (the pool's keep-alive is usually shorter). */
  static final Duration IDLE = Duration.ofSeconds(30);

  final NettyEngine engine;
  final Origin quic;
  private final Channel datagram;
  /** The read and write timeouts of all its streams. */
  final DeadlineTimer timer;
  private volatile QuicChannel channel;
  private volatile QuicSslEngine sslEngine;
  private volatile int capacity = QuicConnector.DEFAULT_STREAMS;
  private volatile boolean goingAway;

  // Event-loop confined.
  private final Map<Exchange, Http3StreamHandler> streams = new HashMap<>();
  /** Exchanges waiting for stream credit. */
  private final ArrayDeque<Http3StreamHandler> waitingForCredit = new ArrayDeque<>();
  private boolean announced;
  private boolean closeWhenIdle;
  private HttpException connectionError;
  private ScheduledFuture<?> connectTimer;
  private SSLSession sslSession;

  private Http3Connection(NettyEngine engine, Origin quic, Channel datagram) {
    this.engine = engine;
    this.quic = quic;
    this.datagram = datagram;
    this.timer = new DeadlineTimer(datagram.eventLoop(), this::expireStreams);
  }

  /**
   * Binds a UDP socket and starts the QUIC handshake with {@code address}; the engine hears of the
   * outcome (any thread).
   */
  static void open(NettyEngine engine, Origin quic, QuicSslContext ctx, InetSocketAddress address, Duration limit,
      Request request) {
    Http3Connection[] self = new Http3Connection[1];
    ChannelHandler codec = Http3.newQuicClientCodecBuilder()
        .sslEngineProvider(q -> {
          QuicSslEngine e = ctx.newEngine(q.alloc(), quic.socketHost(), quic.port());
          self[0].sslEngine = e;
          return e;
        })
        .maxIdleTimeout(IDLE.toMillis(), TimeUnit.MILLISECONDS)
        .initialMaxData(CONNECTION_WINDOW)
        .initialMaxStreamDataBidirectionalLocal(STREAM_WINDOW)
        .build();
    new Bootstrap().group(engine.eventLoops()).channel(engine.datagramChannelType()).handler(codec)
        .bind(new InetSocketAddress(0)).addListener((ChannelFuture bound) -> {
          if (!bound.isSuccess()) {
            engine.http3Failed(quic, new ConnectException("cannot open a UDP socket for QUIC to " + quic.socketHost()
                + ":" + quic.port() + ": " + bound.cause() + QuicConnector.suffix(request), request, bound.cause()));
            return;
          }
          // Closed before the loops stop, as every other channel of the engine, so no call waits on a dead loop.
          engine.loops().opened(bound.channel());
          Http3Connection c = new Http3Connection(engine, quic, bound.channel());
          self[0] = c;
          c.handshake(address, limit, request);
        });
  }

  private void handshake(InetSocketAddress address, Duration limit, Request request) {
    if (limit != null) {
      connectTimer = datagram.eventLoop().schedule(() -> failSetup(new ConnectTimeoutException("QUIC handshake with "
          + quic.socketHost() + ":" + quic.port() + " timed out after " + ErrorMapper.seconds(limit.toNanos())
          + QuicConnector.suffix(request), request)), limit.toNanos(), TimeUnit.NANOSECONDS);
    }
    QuicChannel.newBootstrap(datagram)
        .handler(new ChannelInitializer<QuicChannel>() {
          @Override
          protected void initChannel(QuicChannel ch) {
            ch.pipeline()
                .addLast("h3", new Http3ClientConnectionHandler(new ControlFrames(), null, null, null, true))
                .addLast("strand-h3", new Handler());
          }
        })
        .streamOption(ChannelOption.AUTO_READ, false)
        .remoteAddress(address)
        .connect()
        .addListener((Future<QuicChannel> f) -> {
          if (f.isSuccess()) {
            settle(f.getNow());
          } else {
            failSetup(setupFailure(f.cause(), request));
          }
        });
  }

  private void settle(QuicChannel ch) {
    if (announced) {
      ch.close();
      return;
    }
    announced = true;
    channel = ch;
    engine.loops().opened(ch);
    if (connectTimer != null) {
      connectTimer.cancel(false);
    }
    long streams = ch.peerTransportParameters() == null ? QuicConnector.DEFAULT_STREAMS
        : ch.peerTransportParameters().initialMaxStreamsBidi();
    capacity = (int) Math.max(1, Math.min(streams, MAX_STREAMS));
    sslSession = ch.sslEngine() == null ? null : ch.sslEngine().getSession();
    engine.http3Connected(quic, this);
  }

  private void failSetup(HttpException e) {
    if (announced) {
      return;
    }
    announced = true;
    goingAway = true;
    engine.http3Failed(quic, e);
    closeChannels();
  }

  /** Why the handshake failed: this client's certificate verdict first, then TLS, then the rest. */
  private HttpException setupFailure(Throwable cause, Request request) {
    String host = quic.socketHost();
    QuicSslEngine ssl = sslEngine;
    TlsException own = ssl == null ? null : TlsErrors.ownRejection(ssl, host, quic.port(), engine.tlsSettings(), request);
    if (own != null) {
      return own;
    }
    if (connectionError == null && cause instanceof QuicClosedChannelException closedBy && closedBy.event() != null) {
      connectionError = closed(closedBy.event()); // the close event may come only with the failed connect
    }
    if (connectionError instanceof TlsException t) {
      return t;
    }
    if (TlsErrors.isTlsFailure(cause)) {
      return TlsErrors.translate(cause, host, quic.port(), engine.tlsSettings(), request);
    }
    String why = connectionError != null ? connectionError.getMessage()
        : cause instanceof QuicClosedChannelException ? "the connection closed before the handshake completed, "
            + "with no word from the server (its close, if it sent one, never arrived)"
        : cause.getMessage() != null ? cause.getMessage() : cause.toString();
    return new ConnectException("cannot connect to " + host + ":" + quic.port() + " over QUIC: " + why
        + QuicConnector.suffix(request), request, cause);
  }

  @Override
  public Version version() {
    return Version.HTTP_3;
  }

  @Override
  public EventLoop eventLoop() {
    return datagram.eventLoop();
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public boolean isOpen() {
    QuicChannel ch = channel;
    return !goingAway && ch != null && ch.isActive();
  }

  /** Stops taking streams and closes once the active ones are done. Any thread. */
  @Override
  public void close() {
    goingAway = true;
    eventLoop().execute(() -> {
      if (streams.isEmpty()) {
        closeChannels();
      } else {
        closeWhenIdle = true;
      }
    });
  }

  private void closeChannels() {
    QuicChannel ch = channel;
    if (ch != null && ch.isActive()) {
      // H3_NO_ERROR: the connection is simply no longer needed (RFC 9114 section 5.2).
      ch.close(true, 0x100, Unpooled.EMPTY_BUFFER).addListener(f -> datagram.close());
    } else {
      datagram.close();
    }
  }

  // ---- streams ----

  @Override
  public void begin(Exchange x) {
    if (x.isDone()) {
      engine.pool().release(this, true);
      return;
    }
    if (!isOpen()) {
      engine.pool().release(this, false);
      if (!x.retryUnprocessed(true)) {
        x.fail(connectionError != null ? ErrorMapper.io(connectionError, x.request()) : ErrorMapper.noResponse(x.request()));
      }
      return;
    }
    Http3StreamHandler h = new Http3StreamHandler(this, x);
    streams.put(x, h);
    if (channel.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) > 0 && waitingForCredit.isEmpty()) {
      openStream(h);
    } else {
      waitingForCredit.addLast(h);
      // A server that never grants credit (initial_max_streams_bidi 0, or no MAX_STREAMS) would hold it forever.
      Duration limit = x.request().timeout() != null ? x.request().timeout().pool() : Timeout.DEFAULT.pool();
      if (limit != null) {
        eventLoop().schedule(() -> {
          if (waitingForCredit.remove(h)) {
            h.noCredit(quic.socketHost() + ":" + quic.port(), limit);
          }
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
      }
    }
  }

  private void openStream(Http3StreamHandler h) {
    Http3.newRequestStreamBootstrap(channel, h.inbound()).option(ChannelOption.ALLOW_HALF_CLOSURE, true)
        .option(ChannelOption.AUTO_READ, false).create()
        .addListener((Future<QuicStreamChannel> f) -> {
          if (f.isSuccess()) {
            h.start(f.getNow());
          } else {
            h.failUnstarted(f.cause());
          }
        });
  }

  /** Opens the streams that waited for credit, as far as it goes. */
  private void drainWaiting() {
    Http3StreamHandler h;
    while (channel.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) > 0 && (h = waitingForCredit.pollFirst()) != null) {
      if (!h.isDone()) {
        openStream(h);
      }
    }
  }

  @Override
  public void abort(Exchange x) {
    eventLoop().execute(() -> {
      Http3StreamHandler h = streams.get(x);
      if (h != null) {
        h.abort();
      }
    });
  }

  /** The stream of {@code x} is over: its slot goes back to the pool (event loop). */
  void streamDone(Exchange x, boolean connectionOk) {
    Http3StreamHandler h = streams.remove(x);
    if (h == null) {
      return;
    }
    waitingForCredit.remove(h);
    engine.pool().release(this, connectionOk && isOpen());
    if (streams.isEmpty() && (closeWhenIdle || goingAway)) {
      closeChannels();
    }
  }

  /** Why the whole connection failed, if it did. */
  HttpException connectionError() {
    return connectionError;
  }

  SSLSession sslSession() {
    return sslSession;
  }

  /** Fails the streams that are overdue; the earliest deadline of the others (the timer's check). */
  private long expireStreams(long now) {
    long next = DeadlineTimer.NONE;
    for (Http3StreamHandler h : streams.values().toArray(new Http3StreamHandler[0])) {
      long due = h.expire(now);
      if (due != DeadlineTimer.NONE && (next == DeadlineTimer.NONE || due - next < 0)) {
        next = due;
      }
    }
    return next;
  }

  /** The QUIC connection's own events: the server's close, stream credit, the end. */
  private final class Handler extends ChannelInboundHandlerAdapter {
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof QuicConnectionCloseEvent close) {
        goingAway = true;
        if (connectionError == null) {
          connectionError = closed(close);
        }
      } else if (evt instanceof QuicStreamLimitChangedEvent) {
        if (channel != null) {
          drainWaiting();
        }
      }
      ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      goingAway = true;
      datagram.close();
      if (!announced) {
        return; // the connect future fails and says why
      }
      for (Http3StreamHandler h : waitingForCredit.toArray(new Http3StreamHandler[0])) {
        h.failUnstarted(connectionError != null ? connectionError : new TransportException("QUIC connection closed", null));
      }
      if (streams.isEmpty()) {
        engine.pool().closed(Http3Connection.this);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (connectionError == null) {
        connectionError = cause instanceof HttpException e ? e : new TransportException("QUIC connection error: "
            + (cause.getMessage() != null ? cause.getMessage() : cause.toString()), null, cause);
      }
      goingAway = true;
      ctx.close();
    }
  }

  /** Frames of the server's control stream: a GOAWAY ends the connection's use for new requests. */
  private final class ControlFrames extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof Http3GoAwayFrame) {
        goingAway = true;
      }
      ReferenceCountUtil.release(msg);
    }
  }

  /** The server's CONNECTION_CLOSE, in words. */
  private HttpException closed(QuicConnectionCloseEvent close) {
    return QuicCloses.describe(close, quic.socketHost(), quic.port(), engine.tlsSettings());
  }
}
