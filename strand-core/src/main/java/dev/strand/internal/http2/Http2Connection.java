package dev.strand.internal.http2;

import dev.strand.ConnectException;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.TransportException;
import dev.strand.internal.exchange.DeadlineTimer;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Origin;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2SettingsFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.handler.codec.http2.UniformStreamByteDistributor;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;

/**
 * One HTTP/2 connection carrying up to the server's SETTINGS_MAX_CONCURRENT_STREAMS exchanges at
 * once, each on a stream of Netty's frame codec ({@link Http2StreamExchange}). Its pool capacity is
 * that limit; it reaches the pool only after the server's first SETTINGS, so the capacity is never a
 * guess.
 *
 * <p>Streams are not channels: the connection's last handler routes each stream frame to its
 * exchange by the codec's stream object, and tells each exchange that had frames in a read when the
 * read ends, so a read of many streams' frames costs one pass of the pipeline, not one per stream.
 *
 * <p>After a GOAWAY (or when the pool closes it) the connection takes no new streams and closes
 * once its active streams are done; streams the server did not process are sent again elsewhere.
 * An idle connection is probed with a PING after {@link #PING_IDLE} of silence and closed if the
 * next interval passes without any frame.
 *
 * <p>State is confined to the channel's event loop, except the two volatile fields the pool reads.
 */
public final class Http2Connection extends NettyConnection {
  @Override
  public dev.strand.Version version() {
    return dev.strand.Version.HTTP_2;
  }

  /** Streams assumed when the server's SETTINGS name no limit (RFC 9113 recommends at least 100). */
  public static final int DEFAULT_STREAMS = 100;
  /** Upper bound on the capacity, however many streams the server allows. */
  static final int MAX_STREAMS = 1000;
  /**
   * Per-stream receive window to start with: 1 MiB fills 400 Mbit/s at a 20 ms round trip; {@link WindowTuner}
   * raises it on links whose bandwidth-delay product is larger.
   */
  static final int STREAM_WINDOW = 1024 * 1024;
  /** Connection receive window to start with. */
  static final int CONNECTION_WINDOW = 16 * 1024 * 1024;
  /** The payload of the PINGs that measure a round trip for {@link WindowTuner} ("STRNDBDP"). */
  private static final long BDP_PING = 0x5354524E44424450L;
  /** Idle time after which a PING checks the connection is alive. */
  static volatile Duration PING_IDLE = Duration.ofSeconds(30);

  final Channel channel;
  private final ConnectionPool<NettyConnection> pool;
  final Origin origin;
  final SSLSession sslSession;
  private volatile int capacity = 1;
  private volatile boolean goingAway;

  // Event-loop confined.
  private final Map<Exchange, Http2StreamExchange> streams = new IdentityHashMap<>();
  /** The started ones by their codec stream (which has no equals of its own: identity). */
  private final Map<Http2FrameStream, Http2StreamExchange> byStream = new IdentityHashMap<>();
  /** Exchanges that had frames in the read going on: each hears of the read's end once. */
  private final List<Http2StreamExchange> touched = new ArrayList<>();
  private final Handler handler = new Handler();
  private Http2FrameCodec codec;
  private boolean announced;
  private boolean closeWhenIdle;
  private boolean pingOutstanding;
  private HttpException connectionError;
  private ScheduledFuture<?> settingsTimer;
  /** The read and write timeouts of all its streams. */
  final DeadlineTimer timer;
  private final WindowTuner windows = new WindowTuner(STREAM_WINDOW, CONNECTION_WINDOW);

  private Http2Connection(Channel channel, ConnectionPool<NettyConnection> pool, Origin origin) {
    this.channel = channel;
    this.pool = pool;
    this.origin = origin;
    this.sslSession = tlsSession(channel); // installed after the TLS handshake (ALPN), if any
    this.timer = new DeadlineTimer(channel.eventLoop(), this::expireStreams);
  }

  /** Turns {@code ch} into an HTTP/2 connection; it reports to the pool when the server's SETTINGS arrive. */
  public static void install(Channel ch, ConnectionPool<NettyConnection> pool, Origin origin, Duration connectLimit,
      int maxHeaderSize) {
    Http2Connection c = new Http2Connection(ch, pool, origin);
    Http2FrameCodec codec = new CodecBuilder()
        .initialSettings(Http2Settings.defaultSettings()
            .pushEnabled(false)
            .initialWindowSize(STREAM_WINDOW)
            .maxHeaderListSize(maxHeaderSize))
        .gracefulShutdownTimeoutMillis(0)
        .build();
    codec.connection().addListener(c.new ConnectionErrors());
    c.codec = codec;
    long pingMillis = Math.max(1, PING_IDLE.toMillis());
    ch.pipeline()
        // Each stream flushes its HEADERS; one write to the socket per event-loop turn carries them all.
        .addLast("h2-flush", new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES,
            true))
        .addLast("h2-idle", new IdleStateHandler(pingMillis, 0, 0, TimeUnit.MILLISECONDS))
        .addLast("h2-bdp", c.new RoundTripSampler())
        .addLast("h2", codec)
        .addLast("strand-h2", c.handler);
    ch.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - 65_535));
    ch.config().setAutoRead(true); // streams apply backpressure through flow control, not the socket
    if (connectLimit != null) {
      c.settingsTimer = ch.eventLoop().schedule(() -> c.failSetup(new ConnectException("no HTTP/2 SETTINGS from "
          + origin.socketHost() + ":" + origin.port() + " within the connect timeout", null)),
          connectLimit.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * Netty's client frame codec, with the window shared evenly among the streams that have DATA to send
   * ({@link UniformStreamByteDistributor}) in place of its default, which keeps a priority tree: RFC 9113
   * deprecates stream priorities, Strand sends none, and the tree's state is about 110 bytes a stream
   * against the even share's 32.
   */
  private static final class CodecBuilder extends Http2FrameCodecBuilder {
    CodecBuilder() {
      DefaultHttp2Connection connection = new DefaultHttp2Connection(false);
      connection.remote().flowController(
          new DefaultHttp2RemoteFlowController(connection, new UniformStreamByteDistributor(connection)));
      connection(connection);
    }

    @Override
    public boolean isServer() {
      return false;
    }
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  /** The server's address, for connection coalescing. */
  public java.net.InetSocketAddress remoteAddress() {
    return (java.net.InetSocketAddress) channel.remoteAddress();
  }

  /** The TLS session (for the certificates a coalesced origin must be covered by), or {@code null} for h2c. */
  public SSLSession tlsSession() {
    return sslSession;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public boolean isOpen() {
    return !goingAway && channel.isActive();
  }

  /** Stops taking streams and closes (sending GOAWAY) once the active ones are done. Any thread. */
  @Override
  public void close() {
    goingAway = true;
    channel.eventLoop().execute(() -> {
      if (streams.isEmpty()) {
        channel.close();
      } else {
        closeWhenIdle = true;
      }
    });
  }

  // ---- streams ----

  @Override
  public void begin(Exchange x) {
    if (x.isDone()) {
      pool.release(this, true);
      return;
    }
    if (!isOpen()) {
      pool.release(this, false);
      if (!x.retryUnprocessed()) {
        x.fail(connectionError != null ? ErrorMapper.io(connectionError, x.request) : ErrorMapper.noResponse(x.request));
      }
      return;
    }
    Http2StreamExchange h = new Http2StreamExchange(this, x);
    streams.put(x, h);
    // Started in a later task: a hand-off arrives while the finished stream is still counted active
    // by the codec, and a HEADERS frame now would exceed the server's stream limit.
    channel.eventLoop().execute(() -> h.start(handler.newStream()));
  }

  @Override
  public void abort(Exchange x) {
    channel.eventLoop().execute(() -> {
      Http2StreamExchange h = streams.get(x);
      if (h != null) {
        h.abort();
      }
    });
  }

  /** {@code h} is about to write its HEADERS: from now on the frames of its stream are its own. */
  void opened(Http2StreamExchange h) {
    byStream.put(h.stream(), h);
  }

  /** Gives {@code bytes} of {@code stream}'s DATA back to the server's windows; flushed at the read's end. */
  void consumed(Http2FrameStream stream, int bytes) {
    channel.write(new DefaultHttp2WindowUpdateFrame(bytes).stream(stream));
    if (handler.reading) {
      handler.flushAtEnd = true;
    } else {
      channel.flush();
    }
  }

  /** Resets {@code stream} if it is open (not before its HEADERS left, nor after it closed). */
  void reset(Http2FrameStream stream, Http2Error error) {
    Http2Stream.State state = stream.state();
    if (state != Http2Stream.State.IDLE && state != Http2Stream.State.CLOSED && channel.isActive()) {
      channel.writeAndFlush(new DefaultHttp2ResetFrame(error).stream(stream));
    }
  }

  /** Whether the server's GOAWAY says {@code stream}, whose HEADERS were sent, was never processed. */
  boolean aboveGoAway(Http2FrameStream stream) {
    var c = codec.connection();
    return c.goAwayReceived() && stream.id() > c.local().lastStreamKnownByPeer();
  }

  /** The stream of {@code h} is over: its slot goes back to the pool (event loop). */
  void streamDone(Http2StreamExchange h, boolean connectionOk) {
    if (streams.remove(h.exchange()) == null) {
      return;
    }
    if (h.stream() != null) {
      byStream.remove(h.stream());
    }
    pool.release(this, connectionOk && isOpen());
    if (streams.isEmpty() && (closeWhenIdle || (goingAway && channel.isActive()))) {
      channel.close();
    }
  }

  /** Fails the streams that are overdue; the earliest deadline of the others (the timer's check). */
  private long expireStreams(long now) {
    long next = DeadlineTimer.NONE;
    // A copy: a stream that fails leaves the map. Made once per timeout period, not per request.
    for (Http2StreamExchange h : streams.values().toArray(new Http2StreamExchange[0])) {
      long due = h.expire(now);
      if (due != DeadlineTimer.NONE && (next == DeadlineTimer.NONE || due - next < 0)) {
        next = due;
      }
    }
    return next;
  }

  /** Why the whole connection failed, if it did. */
  HttpException connectionError() {
    return connectionError;
  }

  private void failSetup(HttpException e) {
    if (announced) {
      return;
    }
    announced = true;
    goingAway = true;
    pool.connectFailed(origin, e);
    channel.close();
  }

  /** Before the codec: counts the bytes read, and starts a {@link WindowTuner} sample when none runs. */
  private final class RoundTripSampler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (announced && msg instanceof io.netty.buffer.ByteBuf b && windows.onRead(b.readableBytes(), System.nanoTime())) {
        channel.writeAndFlush(new DefaultHttp2PingFrame(BDP_PING)); // from the tail: the codec writes it
      }
      ctx.fireChannelRead(msg);
    }
  }

  /** A sample's PING came back: widen the windows if the link carried more than they let through. */
  private void sampled() {
    int streamWindow = windows.onPingAck(System.nanoTime());
    if (streamWindow == 0) {
      return;
    }
    // Applied to every stream, open and new, once the server acknowledges it (RFC 9113 6.9.2).
    channel.write(new DefaultHttp2SettingsFrame(new Http2Settings().initialWindowSize(streamWindow)));
    int increment = windows.connectionIncrement();
    if (increment > 0) {
      channel.write(new DefaultHttp2WindowUpdateFrame(increment));
    }
    channel.flush();
  }

  /** The last handler of the connection's pipeline: the streams' frames to their exchanges, and the connection's own. */
  private final class Handler extends Http2ChannelDuplexHandler {
    /** Inside a read: window updates wait for its end, to go out in one flush. */
    boolean reading;
    /**
     * Whether the read's end must flush. Only then: the codec flushes at every read's end already, and a
     * flush with nothing written still costs the flush consolidator a task on the event loop.
     */
    boolean flushAtEnd;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        pingOutstanding = false;
        reading = true;
        if (msg instanceof Http2StreamFrame f && f.stream() != null) {
          streamFrame(ctx, f);
        } else if (msg instanceof Http2PingFrame p && p.ack() && p.content() == BDP_PING) {
          sampled();
        } else if (msg instanceof Http2SettingsFrame s) {
          Long max = s.settings().maxConcurrentStreams();
          capacity = max == null ? DEFAULT_STREAMS : (int) Math.max(1, Math.min(max, MAX_STREAMS));
          if (!announced) {
            announced = true;
            if (settingsTimer != null) {
              settingsTimer.cancel(false);
            }
            pool.connected(origin, Http2Connection.this);
          }
        } else if (msg instanceof Http2GoAwayFrame g) {
          goingAway = true;
          // Streams above its last-stream-id were never processed: sent again elsewhere, whatever the error.
          for (Http2StreamExchange h : byStream.values().toArray(new Http2StreamExchange[0])) {
            if (h.stream().id() > g.lastStreamId()) {
              h.unprocessed();
            }
          }
          if (g.errorCode() != Http2Error.NO_ERROR.code()) {
            // An error GOAWAY ends the connection: the streams it processed fail now, naming it, rather
            // than wait for answers a broken connection will not bring (or for their read timeouts).
            if (connectionError == null) {
              connectionError = new ProtocolException("HTTP/2 GOAWAY from the server: "
                  + ErrorMapper.h2Error(g.errorCode()) + ErrorMapper.goAwayText(g.content()), null);
            }
            ctx.close();
          } else if (streams.isEmpty()) {
            ctx.close();
          }
        }
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    private void streamFrame(ChannelHandlerContext ctx, Http2StreamFrame f) {
      Http2StreamExchange h = byStream.get(f.stream());
      if (h != null) {
        h.frame(f);
        if (!h.touched) {
          h.touched = true;
          touched.add(h);
        }
      } else if (f instanceof Http2HeadersFrame && f.stream().id() % 2 == 0) {
        serverOpened(ctx, f.stream().id());
      } else if (f instanceof Http2DataFrame d && d.initialFlowControlledBytes() > 0) {
        // A stream whose exchange has ended: its bytes still count against the server's windows.
        consumed(f.stream(), d.initialFlowControlledBytes());
      }
    }

    /**
     * A stream the server opened: with push disabled it may open none (RFC 9113 sections 5.1.1 and 8.4),
     * so a HEADERS on an even, idle stream is a connection error of type PROTOCOL_ERROR.
     */
    private void serverOpened(ChannelHandlerContext ctx, int id) {
      if (connectionError == null) {
        connectionError = new ProtocolException("HTTP/2 server sent HEADERS on stream " + id
            + ", which it may not open (push is disabled): PROTOCOL_ERROR", null);
      }
      goingAway = true;
      ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.PROTOCOL_ERROR)).addListener(f -> channel.close());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      reading = false;
      if (!touched.isEmpty()) {
        for (Http2StreamExchange h : touched) {
          h.touched = false;
          h.readComplete();
        }
        touched.clear();
      }
      if (flushAtEnd) {
        flushAtEnd = false;
        ctx.flush();
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
      if (evt instanceof Http2FrameStreamEvent e) {
        if (e.type() == Http2FrameStreamEvent.Type.State && e.stream().state() == Http2Stream.State.CLOSED) {
          Http2StreamExchange h = byStream.remove(e.stream());
          if (h != null) {
            h.closed();
          }
        }
        return;
      }
      if (evt instanceof IdleStateEvent && announced && streams.isEmpty()) {
        if (pingOutstanding) {
          goingAway = true; // no frame for a whole interval after the PING: dead
          ctx.close();
        } else {
          pingOutstanding = true;
          ctx.writeAndFlush(new DefaultHttp2PingFrame(System.nanoTime()));
        }
        return;
      }
      ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      goingAway = true;
      // The codec closed its streams already; these never got as far as a stream.
      for (Http2StreamExchange h : streams.values().toArray(new Http2StreamExchange[0])) {
        h.closed();
      }
      if (!announced) {
        failSetup(connectionError != null ? connectionError : new ConnectException("connection to "
            + origin.socketHost() + ":" + origin.port() + " closed before HTTP/2 was set up", null));
      } else if (streams.isEmpty()) {
        pool.closed(Http2Connection.this);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (cause instanceof Http2FrameStreamException e) {
        Http2StreamExchange h = byStream.get(e.stream());
        if (h != null) {
          h.failed(e.getCause() != null ? e.getCause() : e); // which resets the stream
        } else {
          reset(e.stream(), Http2Error.CANCEL);
        }
        return; // the connection goes on
      }
      if (connectionError == null) {
        connectionError = cause instanceof HttpException e ? e : connectionFailure(cause);
      }
      goingAway = true;
      ctx.close();
    }
  }

  /**
   * Netty's own verdicts on the server (too many queued control frames: ENHANCE_YOUR_CALM; a frame
   * it cannot accept): it sends a GOAWAY with the error and closes, without telling the pipeline. The
   * GOAWAY is where the reason can be read, so the streams it ends can name it.
   */
  private final class ConnectionErrors extends Http2ConnectionAdapter {
    @Override
    public void onGoAwaySent(int lastStreamId, long errorCode, io.netty.buffer.ByteBuf debugData) {
      if (errorCode != Http2Error.NO_ERROR.code() && connectionError == null) {
        connectionError = new ProtocolException("HTTP/2 connection error " + ErrorMapper.h2Error(errorCode)
            + ErrorMapper.goAwayText(debugData), null);
      }
    }
  }

  /**
   * A frame the server should not have sent (Netty's {@link Http2Exception}) is the server breaking the
   * protocol, so a {@link ProtocolException} naming the HTTP/2 error code; anything else is the transport.
   */
  private static TransportException connectionFailure(Throwable cause) {
    if (cause instanceof Http2Exception h2) {
      return new ProtocolException("HTTP/2 connection error " + h2.error() + ": " + cause.getMessage(), null, cause);
    }
    return new TransportException((cause instanceof IOException ? "I/O error: " : "HTTP/2 connection error: ")
        + cause.getMessage(), null, cause);
  }
}
