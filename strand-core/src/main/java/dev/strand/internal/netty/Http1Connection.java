package dev.strand.internal.netty;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.pool.Origin;
import dev.strand.internal.proxy.ProxyServer;
import dev.strand.spi.StreamingResponses;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
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
 * One HTTP/1.1 connection carrying one {@link Exchange} at a time. All its state is confined to the
 * channel's event loop; other threads reach it only through {@code eventLoop().execute}.
 *
 * <p>The channel runs with auto-read off. A read is kept pending while an exchange wants bytes and
 * while the connection is idle (so a peer's FIN is seen at once and the connection leaves the pool);
 * it is withheld while the consumer of a streamed body is behind, which is the backpressure.
 *
 * <p>Timeouts: one {@link DeadlineTimer} per connection. Each read or write completion just stamps
 * the exchange's {@link ExchangePhases}; the timer, when it fires, compares that stamp with the current phase's limit
 * and re-arms itself for the remainder.
 */
final class Http1Connection extends NettyConnection implements BodyOwner {
  private static final long CONTINUE_FALLBACK_NANOS = TimeUnit.SECONDS.toNanos(1);
  /**
   * How long a connection whose response ended before its upload reported its end waits for that report.
   * The report is usually a task right behind the read (the last bytes were on the wire); an upload still
   * running after this was answered early, and the connection goes rather than carry its rest.
   */
  private static final long UPLOAD_END_GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /**
   * Interim (1xx) responses accepted before the final one. Each resets the read timeout, so a server
   * sending them forever would hold the call forever; real servers send one or two (100, 103), a
   * slow one a 102 now and then.
   */
  static final int MAX_INTERIM_RESPONSES = 100;

  final Channel channel;
  private final NettyEngine engine;
  private final ResponseDecoder decoder;
  private final RequestWriter.Target target;
  private final int maxHeaderSize;
  private final boolean[] flags = new boolean[2];
  private final DeadlineTimer timer;
  private final ExchangePhases phases = new ExchangePhases();

  // Event-loop confined.
  private Exchange exchange;
  private NettyResponseBody body;
  private StreamingResponse undelivered;
  private long requestLength;
  private boolean bytesSeen;
  private boolean keepAlive;
  private boolean forceClose;
  private boolean skipInformational;
  private int interimResponses;
  /** The response is complete and one more read is under way before the exchange ends (see settleThenComplete). */
  private boolean settling;
  private ScheduledFuture<?> continueTimer;
  /** The completion of an exchange whose response ended before its upload reported its end ({@link #awaitUploadEnd}). */
  private Runnable answeredBeforeUploadEnd;

  /** The TLS session of the channel, or {@code null} in cleartext; the same for every response. */
  private final SSLSession sslSession;

  /** @param forwardingProxy the HTTP proxy this channel talks to (absolute-form requests), or {@code null} */
  Http1Connection(Channel channel, NettyEngine engine, ResponseDecoder decoder, Origin origin,
      ProxyServer forwardingProxy, int maxHeaderSize) {
    this.channel = channel;
    this.engine = engine;
    this.decoder = decoder;
    this.maxHeaderSize = maxHeaderSize;
    this.target = RequestWriter.Target.of(origin, forwardingProxy);
    this.sslSession = TlsSetup.session(channel); // built after the TLS handshake, if any
    this.timer = new DeadlineTimer(channel.eventLoop(), this::expire);
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

  // ---- starting an exchange ----

  @Override
  public dev.strand.Version version() {
    return dev.strand.Version.HTTP_1_1;
  }

  /** Starts {@code x} on this connection (event loop). */
  @Override
  public void begin(Exchange x) {
    if (x.future.isDone()) {
      // Cancelled while the hand-off was in flight: nothing was written, the connection is as good as before.
      engine.pool.release(this, channel.isActive());
      return;
    }
    if (!channel.isActive() || decoder.sawStrayBytes) {
      // Closed, or confused by bytes nobody asked for, while idle: nothing was written, so any
      // method may go to a fresh connection.
      channel.close();
      engine.pool.release(this, false);
      if (!x.retryUnprocessed()) {
        x.fail(ErrorMapper.noResponse(x.request));
      }
      return;
    }
    exchange = x;
    body = null;
    undelivered = null;
    phases.begin(x);
    bytesSeen = false;
    keepAlive = true;
    forceClose = false;
    skipInformational = false;
    interimResponses = 0;
    decoder.expectResponse(x.head);
    long length = RequestWriter.framedLength(x.request);
    requestLength = length;
    boolean expect = x.request.expectContinue() && length != 0 && length != -2;
    ByteBuf head = RequestWriter.encode(channel.alloc(), x.request, target, length, expect, flags);
    forceClose = flags[RequestWriter.CLOSE];
    if (length == -2 || length == 0 || flags[RequestWriter.INLINED]) {
      channel.writeAndFlush(head, channel.voidPromise());
      phases.requestDone = true;
      if (x.events != null) {
        x.events.requestHeadersSent(0);
        if (flags[RequestWriter.INLINED]) {
          x.events.requestBodySent(length);
        }
      }
    } else if (expect) {
      channel.writeAndFlush(head, channel.voidPromise());
      if (x.events != null) {
        x.events.requestHeadersSent(0);
      }
      phases.awaitingContinue = true;
      continueTimer = channel.eventLoop().schedule(() -> {
        if (exchange == x && phases.awaitingContinue) {
          phases.awaitingContinue = false;
          sendBody(x);
        }
      }, CONTINUE_FALLBACK_NANOS, TimeUnit.NANOSECONDS);
    } else {
      channel.write(head, channel.voidPromise());
      if (x.events != null) {
        x.events.requestHeadersSent(0);
      }
      sendBody(x);
    }
    armTimer();
    channel.read();
  }

  private void sendBody(Exchange x) {
    phases.progress();
    Upload upload = new Upload(x, requestLength < 0);
    byte[] buffered = x.request.body().bufferedBytes();
    if (buffered != null) {
      RequestBodyWriter.writeBuffered(upload, buffered, upload);
    } else {
      channel.flush();
      RequestBodyWriter.pump(upload, x.request, requestLength, upload);
    }
    armTimer();
  }

  /**
   * The body of one exchange on its way out: HTTP/1.1 framing (raw bytes after a Content-Length, or
   * chunks), and what the writer reports, which counts only while that exchange is still the current one.
   */
  private final class Upload implements RequestBodyWriter.Framing, RequestBodyWriter.Listener {
    private static final ByteBuf LAST_CHUNK =
        Unpooled.unreleasableBuffer(Unpooled.copiedBuffer("0\r\n\r\n", StandardCharsets.US_ASCII)).asReadOnly();
    private final Exchange x;
    private final boolean chunked;

    Upload(Exchange x, boolean chunked) {
      this.x = x;
      this.chunked = chunked;
    }

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

    @Override
    public void progress() {
      if (exchange == x) {
        phases.progress();
      }
    }

    @Override
    public void written() {
      if (!channel.eventLoop().inEventLoop()) {
        channel.eventLoop().execute(this::written);
        return;
      }
      if (exchange != x || phases.requestDone) {
        return;
      }
      phases.requestDone = true;
      if (x.events != null) {
        x.events.requestBodySent(requestLength);
      }
      phases.progress();
      armTimer();
      if (phases.responseDone) {
        completeAnswered();
      }
    }

    @Override
    public void failed(HttpException e) {
      channel.eventLoop().execute(() -> {
        if (exchange == x) {
          fail(e, false);
        }
      });
    }
  }

  // ---- reading the response (called by Http1ResponseHandler) ----

  void onRead(Object msg) {
    if (settling) {
      // The response is complete; anything now is stray (the decoder has marked the connection) and dropped.
      ReferenceCountUtil.release(msg);
      return;
    }
    if (exchange == null || msg == ResponseDecoder.STRAY_BYTES) {
      // Bytes no request asked for (the decoder dropped them): the peer is confused, and the
      // connection can no longer be trusted to frame a response.
      ReferenceCountUtil.release(msg);
      if (exchange != null) {
        fail(ErrorMapper.strayBytes(exchange.request), false);
      }
      channel.close();
      return;
    }
    bytesSeen = true;
    if (msg instanceof HttpResponse r) {
      onHead(r);
    }
    if (msg instanceof HttpContent c) {
      try {
        if (exchange != null) {
          onContent(c);
        }
      } finally {
        c.release();
      }
    }
  }

  private void onHead(HttpResponse r) {
    Exchange x = exchange;
    if (r.decoderResult().isFailure()) {
      fail(ErrorMapper.malformed(r.decoderResult().cause(), x.request, maxHeaderSize, false), false);
      return;
    }
    int code = r.status().code();
    if (code >= 100 && code < 200 && code != 101) {
      if (++interimResponses > MAX_INTERIM_RESPONSES) {
        fail(ErrorMapper.tooManyInterim(x.request, MAX_INTERIM_RESPONSES), false);
        return;
      }
      skipInformational = true;
      if (code == 100 && phases.awaitingContinue) {
        phases.awaitingContinue = false;
        cancelContinueTimer();
        sendBody(x);
      }
      return;
    }
    if (code == 101 && !x.request.headers().contains("Upgrade")) {
      fail(new ProtocolException("unsolicited 101 Switching Protocols: the request did not ask to upgrade ("
          + x.request + ")", x.request), false);
      return;
    }
    String unsupported = unsupportedTransferCoding(r);
    if (unsupported != null) {
      fail(new ProtocolException("unsupported transfer coding '" + unsupported + "' (Transfer-Encoding: "
          + String.join(", ", r.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING)) + "); only chunked is understood ("
          + x.request + ")", x.request), false);
      return;
    }
    phases.responseStarted = true;
    if (phases.awaitingContinue) {
      // A final answer instead of 100: the announced body is never sent, so the connection cannot be reused.
      phases.awaitingContinue = false;
      cancelContinueTimer();
      phases.requestDone = true;
      forceClose = true;
    }
    keepAlive = HttpUtil.isKeepAlive(r) && code != 101;
    Headers headers;
    try {
      headers = ResponseDecoder.headers(r);
    } catch (IllegalArgumentException e) {
      fail(new ProtocolException("malformed response header: " + e.getMessage() + " (" + x.request + ")", x.request, e),
          false);
      return;
    }
    Version version = r.protocolVersion() == HttpVersion.HTTP_1_0 ? Version.HTTP_1_0 : Version.HTTP_1_1;
    long length = x.head || code == 204 || code == 304 || code == 101 ? 0 : HttpUtil.getContentLength(r, -1L);
    body = new NettyResponseBody(this, x.request, length);
    undelivered = StreamingResponses.of(x.request, code, r.status().reasonPhrase(), headers, version, body, sslSession);
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

  private void onContent(HttpContent c) {
    Exchange x = exchange;
    if (c.decoderResult().isFailure()) {
      fail(ErrorMapper.malformed(c.decoderResult().cause(), x.request, maxHeaderSize, true), false);
      return;
    }
    boolean last = c instanceof LastHttpContent;
    if (skipInformational) {
      skipInformational = !last;
      return;
    }
    if (body == null) {
      return;
    }
    ByteBuf content = c.content();
    if (content.isReadable()) {
      int next = body.onContent(content);
      if (next == NettyResponseBody.PAUSE) {
        phases.paused = true;
      } else if (next == NettyResponseBody.DISCARD) {
        discardNow(x);
        return;
      }
    }
    if (last) {
      if (!((LastHttpContent) c).trailingHeaders().isEmpty()) {
        body.trailers(NettyResponseBody.trailers(((LastHttpContent) c).trailingHeaders()));
      }
      NettyResponseBody ended = body;
      if (!ended.markEnded()) {
        discardNow(x);
        return;
      }
      phases.responseDone = true;
      StreamingResponse r = undelivered;
      undelivered = null;
      if (!phases.requestDone) {
        awaitUploadEnd(x, ended, r);
        return;
      }
      if (keepAlive && !forceClose && lastReadFilledBuffer()) {
        settleThenComplete(x, ended, r);
      } else {
        complete(x, ended, r);
      }
    }
  }

  /**
   * The response is complete but the upload has not reported its end. That report is usually a task right
   * behind this read, so the response waits for it ({@code written()} then completes the exchange with the
   * connection reusable, and the caller finds it released) at most {@link #UPLOAD_END_GRACE_NANOS}; after
   * that the server answered before taking the whole request, so the upload stops and the connection is not
   * reused. Bytes that come meanwhile are stray: the decoder marks them, and the connection is closed.
   */
  private void awaitUploadEnd(Exchange x, NettyResponseBody ended, StreamingResponse r) {
    answeredBeforeUploadEnd = () -> complete(x, ended, r);
    channel.eventLoop().schedule(() -> {
      if (exchange == x && !phases.requestDone) {
        phases.requestDone = true;
        forceClose = true;
        completeAnswered();
      }
    }, UPLOAD_END_GRACE_NANOS, TimeUnit.NANOSECONDS);
  }

  /** Completes an exchange {@link #awaitUploadEnd} held back. */
  private void completeAnswered() {
    Runnable held = answeredBeforeUploadEnd;
    answeredBeforeUploadEnd = null;
    held.run();
  }

  /** The response is complete: the connection goes back to the pool first, then the caller wakes and finds it released. */
  private void complete(Exchange x, NettyResponseBody ended, StreamingResponse r) {
    finish();
    ended.wakeReaders();
    if (r != null) {
      x.deliver(r);
    }
  }

  /**
   * The response ended exactly where a full socket read did, so bytes sent beyond it may still wait
   * in the kernel, unseen; the next request on this connection would take them for its answer. One
   * more read comes first: the event loop schedules it for a read that filled its buffer, and this
   * completion goes twice through the task queue to run after it. Whatever it brings is stray (the
   * decoder expects nothing now), so the connection is closed rather than reused.
   */
  private void settleThenComplete(Exchange x, NettyResponseBody ended, StreamingResponse r) {
    settling = true;
    channel.read();
    channel.eventLoop().execute(() -> channel.eventLoop().execute(() -> {
      settling = false;
      if (exchange == x) {
        complete(x, ended, r);
      }
    }));
  }

  void onReadComplete() {
    Exchange x = exchange;
    if (x == null) {
      if (channel.isActive()) {
        channel.read();
      }
      return;
    }
    phases.progress();
    StreamingResponse r = undelivered;
    if (r != null) {
      // The head and whatever body came with it in this read: one wake-up of the caller.
      undelivered = null;
      x.deliver(r);
    }
    if (exchange != null && !phases.paused) {
      channel.read();
    }
  }

  void onInactive() {
    Exchange x = exchange;
    if (x == null) {
      engine.pool.closed(this);
      return;
    }
    if (settling) {
      return; // the response is whole; the settled completion finds the channel closed and does not reuse it
    }
    if (!phases.responseStarted) {
      fail(ErrorMapper.noResponse(x.request), true);
    } else {
      fail(ErrorMapper.truncated(x.request, body == null ? 0 : body.received(),
          body == null ? -1 : body.contentLength()), false);
    }
  }

  void onException(Throwable cause) {
    Exchange x = exchange;
    if (x != null && !settling) {
      fail(ErrorMapper.io(cause, x.request), cause instanceof IOException);
    }
    channel.close();
  }

  // ---- consumer-driven (any thread) ----

  /** The consumer took enough of {@code b}: read on. */
  @Override
  public void resumeReading(NettyResponseBody b) {
    channel.eventLoop().execute(() -> {
      if (body == b && phases.paused && exchange != null) {
        phases.paused = false;
        phases.progress();
        armTimer();
        channel.read();
      }
    });
  }

  /** {@code b} was closed before its end, or is too large: the connection goes. */
  @Override
  public void discard(NettyResponseBody b) {
    channel.eventLoop().execute(() -> {
      if (body == b && exchange != null) {
        discardNow(exchange);
      }
    });
  }

  private void discardNow(Exchange x) {
    fail(body.stopReason(), false);
  }

  /** The caller cancelled {@code x}'s future. */
  @Override
  public void abort(Exchange x) {
    channel.eventLoop().execute(() -> {
      if (exchange == x) {
        fail(new TransportException("cancelled (" + x.request + ")", x.request), false);
      }
    });
  }

  // ---- ending an exchange ----

  /** The exchange is over and the connection clean: back to the pool (or closed). */
  private void finish() {
    exchange = null;
    phases.end();
    body = null;
    cancelContinueTimer();
    boolean reusable = keepAlive && !forceClose && channel.isActive() && !decoder.sawStrayBytes;
    if (!reusable) {
      channel.close();
    }
    engine.pool.release(this, reusable);
  }

  /**
   * Whether the last socket read filled its buffer, so that more bytes may wait in the kernel, unseen
   * by the decoder. The response ended exactly at the buffer's end; anything after it was sent beyond
   * the response, and the next request on this connection could read it as its own answer.
   */
  private boolean lastReadFilledBuffer() {
    RecvByteBufAllocator.Handle read = channel.unsafe().recvBufAllocHandle();
    return read.lastBytesRead() > 0 && read.lastBytesRead() == read.attemptedBytesRead();
  }

  /** The exchange failed: the connection is closed, and a stale reuse is retried once elsewhere. */
  private void fail(HttpException e, boolean retryable) {
    Exchange x = exchange;
    if (x == null) {
      return;
    }
    boolean retry = retryable && !bytesSeen && isReused() && x.mayRetry();
    NettyResponseBody b = body;
    exchange = null;
    phases.end();
    body = null;
    undelivered = null;
    cancelContinueTimer();
    channel.close();
    engine.pool.release(this, false);
    if (b != null) {
      b.onError(e);
    }
    if (retry) {
      x.retry();
    } else {
      x.fail(e);
    }
  }

  private void cancelContinueTimer() {
    if (continueTimer != null) {
      continueTimer.cancel(false);
      continueTimer = null;
    }
  }

  // ---- timeouts ----

  private void armTimer() {
    timer.armBy(phases.deadline());
  }

  /** Fails the exchange if its current phase has made no progress within its limit (the timer's check). */
  private long expire(long now) {
    HttpException overdue = exchange == null ? null : phases.overdue(now);
    if (overdue == null) {
      return exchange == null ? DeadlineTimer.NONE : phases.deadline();
    }
    fail(overdue, false);
    return DeadlineTimer.NONE;
  }
}
