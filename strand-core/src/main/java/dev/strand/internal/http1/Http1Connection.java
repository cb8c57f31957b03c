package dev.strand.internal.http1;

import dev.strand.Headers;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.Version;
import dev.strand.internal.exchange.DeadlineTimer;
import dev.strand.internal.exchange.ErrorMapper;
import dev.strand.internal.exchange.Exchange;
import dev.strand.internal.exchange.ExchangeDriver;
import dev.strand.internal.exchange.NettyConnection;
import dev.strand.internal.exchange.NettyResponseBody;
import dev.strand.internal.exchange.RequestFraming;
import dev.strand.internal.pool.ConnectionPool;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;

/**
 * One HTTP/1.1 connection carrying one exchange at a time, each driven by an {@link ExchangeDriver}:
 * this class is only the HTTP/1.1 framing of it (the head encoded by {@link RequestWriter}, bodies
 * raw or chunked, {@code Expect: 100-continue}, keep-alive, and bytes no request asked for). All its
 * state is confined to the channel's event loop; other threads reach it only through {@code eventLoop().execute}.
 *
 * <p>The channel runs with auto-read off. A read is kept pending while an exchange wants bytes and
 * while the connection is idle (so a peer's FIN is seen at once and the connection leaves the pool);
 * it is withheld while the consumer of a streamed body is behind, which is the backpressure.
 * Timeouts: one {@link DeadlineTimer} per connection, asking the current exchange's driver.
 */
public final class Http1Connection extends NettyConnection implements ExchangeDriver.Framing {
  private static final long CONTINUE_FALLBACK_NANOS = TimeUnit.SECONDS.toNanos(1);
  /**
   * How long a connection whose response ended before its upload reported its end waits for that report.
   * The report is usually a task right behind the read (the last bytes were on the wire); an upload still
   * running after this was answered early, and the connection goes rather than carry its rest.
   */
  private static final long UPLOAD_END_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  private static final ByteBuf LAST_CHUNK =
      Unpooled.unreleasableBuffer(Unpooled.copiedBuffer("0\r\n\r\n", StandardCharsets.US_ASCII)).asReadOnly();

  final Channel channel;
  private final ConnectionPool<NettyConnection> pool;
  private final ResponseDecoder decoder;
  private final RequestWriter.Target target;
  private final int maxHeaderSize;
  private final DeadlineTimer timer;

  // Event-loop confined.
  private ExchangeDriver driver;
  /**
   * Whether the current body goes in chunks. Also read by the upload's thread; it changes only for the
   * next exchange, which starts after this one's upload ended or on a connection that is not reused.
   */
  private boolean chunked;
  private boolean bytesSeen;
  private boolean keepAlive;
  private boolean forceClose;
  private boolean skipInformational;
  /** The response is complete and one more read is under way before the exchange ends (see settleThenComplete). */
  private boolean settling;
  /** The server switched protocols: the exchange's upgrade has the connection, which leaves the pool. */
  private boolean switching;
  private ScheduledFuture<?> continueTimer;

  /** The TLS session of the channel, or {@code null} in cleartext; the same for every response. */
  private final SSLSession sslSession;

  /** @param forwardingProxy the HTTP proxy this channel talks to (absolute-form requests), or {@code null} */
  private Http1Connection(Channel channel, ConnectionPool<NettyConnection> pool, ResponseDecoder decoder, Origin origin,
      ProxyServer forwardingProxy, int maxHeaderSize) {
    this.channel = channel;
    this.pool = pool;
    this.decoder = decoder;
    this.maxHeaderSize = maxHeaderSize;
    this.target = RequestWriter.Target.of(origin, forwardingProxy);
    this.sslSession = tlsSession(channel); // built after the TLS handshake, if any
    this.timer = new DeadlineTimer(channel.eventLoop(), this::expire);
  }

  /**
   * Makes {@code ch} an HTTP/1.1 connection: adds the response decoder and handler at the end of its pipeline.
   *
   * @param forwardingProxy the HTTP proxy the channel is connected to, which gets absolute-form
   *     requests, or {@code null} when connected to the origin (directly or through a tunnel)
   */
  public static Http1Connection install(Channel ch, ConnectionPool<NettyConnection> pool, Origin origin,
      ProxyServer forwardingProxy, int maxHeaderSize) {
    ResponseDecoder decoder = new ResponseDecoder(maxHeaderSize);
    Http1Connection connection = new Http1Connection(ch, pool, decoder, origin, forwardingProxy, maxHeaderSize);
    ch.pipeline().addLast("http-decoder", decoder).addLast("strand", new Http1ResponseHandler(connection));
    return connection;
  }

  @Override
  public EventLoop eventLoop() {
    return channel.eventLoop();
  }

  @Override
  public boolean isOpen() {
    return channel.isActive();
  }

  @Override
  public void close() {
    channel.close();
  }

  @Override
  public Version version() {
    return Version.HTTP_1_1;
  }

  // ---- starting an exchange ----

  /** Starts {@code x} on this connection (event loop). */
  @Override
  public void begin(Exchange x) {
    if (x.isDone()) {
      // Cancelled while the hand-off was in flight: nothing was written, the connection is as good as before.
      pool.release(this, channel.isActive());
      return;
    }
    if (!channel.isActive() || decoder.sawStrayBytes) {
      // Closed, or confused by bytes nobody asked for, while idle: nothing was written, so any
      // method may go to a fresh connection.
      channel.close();
      pool.release(this, false);
      if (!x.retryUnprocessed()) {
        x.fail(ErrorMapper.noResponse(x.request));
      }
      return;
    }
    ExchangeDriver d = new ExchangeDriver(x, this);
    driver = d;
    chunked = d.requestFraming() == RequestFraming.STREAMED;
    bytesSeen = false;
    keepAlive = true;
    skipInformational = false;
    decoder.expectResponse(x.head, x.isUpgrade());
    boolean expect = x.request.expectContinue() && !d.hasNoBody();
    boolean inline = RequestWriter.inlinesBody(x.request, expect);
    forceClose = RequestWriter.asksToClose(x.request);
    ByteBuf head = RequestWriter.encode(channel.alloc(), x.request, target, d.requestFraming(), d.requestLength(),
        expect, inline);
    if (d.hasNoBody() || inline) {
      channel.writeAndFlush(head, channel.voidPromise());
      headersSent(x);
      d.requestWrittenWithHead(inline);
    } else if (expect) {
      channel.writeAndFlush(head, channel.voidPromise());
      headersSent(x);
      d.awaitContinue();
      continueTimer = channel.eventLoop().schedule(() -> {
        if (driver == d && d.awaitingContinue()) {
          d.continued();
          d.sendBody();
        }
      }, CONTINUE_FALLBACK_NANOS, TimeUnit.NANOSECONDS);
    } else {
      channel.write(head, channel.voidPromise());
      headersSent(x);
      d.sendBody();
    }
    d.arm();
    channel.read();
  }

  private static void headersSent(Exchange x) {
    if (x.events != null) {
      x.events.requestHeadersSent(0);
    }
  }

  // ---- the request body's framing: raw bytes after a Content-Length, or chunks ----

  @Override
  public Channel channel() {
    return channel;
  }

  @Override
  public Object slice(byte[] body, int offset, int length, boolean last) {
    return Unpooled.wrappedBuffer(body, offset, length); // a body in memory has a Content-Length
  }

  @Override
  public Object piece(ByteBufAllocator alloc, byte[] bytes, int length) {
    ByteBuf out = alloc.buffer(length + 12);
    if (chunked) {
      RequestWriter.writeChunkHeader(out, length);
    }
    out.writeBytes(bytes, 0, length);
    if (chunked) {
      out.writeByte('\r').writeByte('\n');
    }
    return out;
  }

  @Override
  public Object endOfBody() {
    return chunked ? LAST_CHUNK.duplicate() : null;
  }

  // ---- reading the response (called by Http1ResponseHandler) ----

  void onRead(Object msg) {
    if (settling) {
      // The response is complete; anything now is stray (the decoder has marked the connection) and dropped.
      ReferenceCountUtil.release(msg);
      return;
    }
    ExchangeDriver d = driver;
    if (d == null || msg == ResponseDecoder.STRAY_BYTES) {
      // Bytes no request asked for (the decoder dropped them): the peer is confused, and the
      // connection can no longer be trusted to frame a response.
      ReferenceCountUtil.release(msg);
      if (d != null) {
        d.fail(ErrorMapper.strayBytes(d.request()), false);
      }
      channel.close();
      return;
    }
    bytesSeen = true;
    if (msg instanceof HttpResponse r) {
      onHead(d, r);
    }
    if (msg instanceof HttpContent c) {
      try {
        if (!d.isDone()) {
          onContent(d, c);
        }
      } finally {
        c.release();
      }
    }
  }

  private void onHead(ExchangeDriver d, HttpResponse r) {
    Request request = d.request();
    if (r.decoderResult().isFailure()) {
      d.fail(ErrorMapper.malformed(r.decoderResult().cause(), request, maxHeaderSize, false), false);
      return;
    }
    int code = r.status().code();
    if (code >= 100 && code < 200 && code != 101) {
      if (!d.interim()) {
        return;
      }
      skipInformational = true;
      if (code == 100 && d.awaitingContinue()) {
        d.continued();
        cancelContinueTimer();
        d.sendBody();
      }
      return;
    }
    if (code == 101 && !request.headers().contains("Upgrade")) {
      d.fail(new ProtocolException("unsolicited 101 Switching Protocols: the request did not ask to upgrade ("
          + request + ")", request), false);
      return;
    }
    String unsupported = unsupportedTransferCoding(r);
    if (unsupported != null) {
      d.fail(new ProtocolException("unsupported transfer coding '" + unsupported + "' (Transfer-Encoding: "
          + String.join(", ", r.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING)) + "); only chunked is understood ("
          + request + ")", request), false);
      return;
    }
    Headers headers;
    try {
      headers = ResponseDecoder.headers(r);
    } catch (IllegalArgumentException e) {
      d.fail(new ProtocolException("malformed response header: " + e.getMessage() + " (" + request + ")", request, e),
          false);
      return;
    }
    if (d.awaitingContinue()) {
      // A final answer instead of 100: the announced body is never sent, so the connection cannot be reused.
      cancelContinueTimer();
      forceClose = true;
    }
    keepAlive = HttpUtil.isKeepAlive(r) && code != 101;
    Version version = r.protocolVersion() == HttpVersion.HTTP_1_0 ? Version.HTTP_1_0 : Version.HTTP_1_1;
    if (code == 101 && d.exchange().isUpgrade()) {
      switching = true;
      d.switchProtocols(r.status().reasonPhrase(), headers, version, sslSession);
      return;
    }
    d.respond(code, r.status().reasonPhrase(), headers, version, HttpUtil.getContentLength(r, -1L), sslSession);
  }

  /**
   * The first transfer coding other than {@code chunked}, or null. We send no {@code TE} header, so a
   * server may not use any (RFC 9112 section 7.4); the bytes would be coded data, never the body.
   */
  private static String unsupportedTransferCoding(HttpResponse r) {
    if (!r.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
      return null; // the usual case, without the list getAll makes
    }
    for (String field : r.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
      for (String coding : field.split(",")) {
        String c = coding.strip();
        if (!c.isEmpty() && !c.equalsIgnoreCase("chunked")) {
          return c;
        }
      }
    }
    return null;
  }

  private void onContent(ExchangeDriver d, HttpContent c) {
    if (c.decoderResult().isFailure()) {
      d.fail(ErrorMapper.malformed(c.decoderResult().cause(), d.request(), maxHeaderSize, true), false);
      return;
    }
    boolean last = c instanceof LastHttpContent;
    if (skipInformational) {
      skipInformational = !last;
      return;
    }
    if (d.body() == null || !d.content(c.content())) {
      return;
    }
    if (last) {
      HttpHeaders trailers = ((LastHttpContent) c).trailingHeaders();
      if (!trailers.isEmpty()) {
        d.trailers(NettyResponseBody.trailers(trailers));
      }
      d.responseEnded();
    }
  }

  /**
   * The response is complete but the upload has not reported its end. That report is usually a task right
   * behind this read, so the response waits for it ({@code written()} then completes the exchange with the
   * connection reusable, and the caller finds it released) at most {@link #UPLOAD_END_GRACE_NANOS}; after
   * that the server answered before taking the whole request, so the upload stops and the connection is not
   * reused. Bytes that come meanwhile are stray: the decoder marks them, and the connection is closed.
   */
  @Override
  public boolean answeredEarly(ExchangeDriver d) {
    channel.eventLoop().schedule(() -> {
      if (driver == d && !d.requestDone()) {
        forceClose = true;
        d.giveUpUpload();
      }
    }, UPLOAD_END_GRACE_NANOS, TimeUnit.NANOSECONDS);
    return false;
  }

  /**
   * If the response ended exactly where a full socket read did, bytes sent beyond it may still wait
   * in the kernel, unseen; the next request on this connection would take them for its answer. Then
   * one more read comes first: the event loop schedules it for a read that filled its buffer, and the
   * completion goes twice through the task queue to run after it. Whatever it brings is stray (the
   * decoder expects nothing now), so the connection is closed rather than reused.
   */
  @Override
  public void responseComplete(ExchangeDriver d) {
    if (!keepAlive || forceClose || !lastReadFilledBuffer()) {
      d.complete();
      return;
    }
    settling = true;
    channel.read();
    channel.eventLoop().execute(() -> channel.eventLoop().execute(() -> {
      settling = false;
      d.complete();
    }));
  }

  /**
   * Whether the last socket read filled its buffer, so that more bytes may wait in the kernel, unseen
   * by the decoder.
   */
  private boolean lastReadFilledBuffer() {
    RecvByteBufAllocator.Handle read = channel.unsafe().recvBufAllocHandle();
    return read.lastBytesRead() > 0 && read.lastBytesRead() == read.attemptedBytesRead();
  }

  void onReadComplete() {
    ExchangeDriver d = driver;
    if (d == null) {
      if (channel.isActive()) {
        channel.read();
      }
      return;
    }
    d.readComplete();
  }

  @Override
  public void read() {
    channel.read();
  }

  void onInactive() {
    ExchangeDriver d = driver;
    if (d == null) {
      pool.closed(this);
      return;
    }
    if (settling) {
      return; // the response is whole; the settled completion finds the channel closed and does not reuse it
    }
    if (!d.responseStarted()) {
      d.failOrRetryStale(ErrorMapper.noResponse(d.request()), mayBeStale());
    } else {
      NettyResponseBody b = d.body();
      d.fail(ErrorMapper.truncated(d.request(), b.received(), b.contentLength()), false);
    }
  }

  void onException(Throwable cause) {
    ExchangeDriver d = driver;
    if (d != null && !settling) {
      d.failOrRetryStale(ErrorMapper.io(cause, d.request()), cause instanceof IOException && mayBeStale());
    }
    channel.close();
  }

  /** A failure before any response byte on a reused connection: the server may have closed it while idle. */
  private boolean mayBeStale() {
    return !bytesSeen && isReused();
  }

  /** The caller cancelled {@code x}'s future (any thread). */
  @Override
  public void abort(Exchange x) {
    channel.eventLoop().execute(() -> {
      ExchangeDriver d = driver;
      if (d != null && d.exchange() == x) {
        d.abort();
      }
    });
  }

  // ---- ending an exchange ----

  /** The exchange is over and the connection clean: back to the pool (or closed), or to the protocol it switched to. */
  @Override
  public void completed(ExchangeDriver d) {
    driver = null;
    cancelContinueTimer();
    if (switching) {
      handOver();
      return;
    }
    boolean reusable = keepAlive && !forceClose && channel.isActive() && !decoder.sawStrayBytes;
    if (!reusable) {
      channel.close();
    }
    pool.release(this, reusable);
  }

  /**
   * Lets go of a connection the server switched to the protocol its exchange asked for, whose handlers
   * now follow ours: out of the pool, and HTTP/1.1's handlers out of the pipeline. The decoder goes in a
   * task of its own, as Netty's handshakers do: the bytes behind the 101 that it hands on then reach the
   * new protocol after the caller has the response.
   */
  private void handOver() {
    pool.detach(this);
    channel.pipeline().remove(Http1ResponseHandler.class);
    channel.eventLoop().execute(() -> {
      if (channel.pipeline().context(decoder) != null) { // else the channel closed and took it
        channel.pipeline().remove(decoder);
      }
    });
  }

  /** The exchange failed (or goes to another connection): this connection is closed, whatever the protocol state. */
  @Override
  public void abandoned(ExchangeDriver d, boolean connectionOk) {
    driver = null;
    cancelContinueTimer();
    channel.close();
    pool.release(this, false);
  }

  private void cancelContinueTimer() {
    if (continueTimer != null) {
      continueTimer.cancel(false);
      continueTimer = null;
    }
  }

  // ---- timeouts ----

  @Override
  public DeadlineTimer timer() {
    return timer;
  }

  /** The timer's check: the current exchange fails if overdue; else its next deadline. */
  private long expire(long now) {
    ExchangeDriver d = driver;
    return d == null ? DeadlineTimer.NONE : d.expire(now);
  }
}
