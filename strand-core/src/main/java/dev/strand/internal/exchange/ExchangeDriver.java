package dev.strand.internal.exchange;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.StreamingResponse;
import dev.strand.TransportException;
import dev.strand.Version;
import dev.strand.internal.loop.CallerDrivenLoop;
import dev.strand.spi.StreamingResponses;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import javax.net.ssl.SSLSession;

/**
 * One exchange on a connection, written once for HTTP/1.1, HTTP/2 and HTTP/3: which phase it is in
 * and so which timeout applies, the request body on its way out with back-pressure, the response
 * head and body on their way in, delivery to the caller, and how it ends (completed, failed, or
 * sent again). What differs between the protocols sits behind {@link Framing}, the shape of OkHttp's
 * {@code Exchange} over an {@code ExchangeCodec}: a protocol turns its wire's messages into calls on
 * its driver and supplies how body bytes are framed, how to read on, and what ending does to its
 * connection or stream.
 *
 * <p>Timeouts: while the request is written, the write timeout runs from the last piece that reached
 * the socket; then the read timeout runs from the last bytes of the response (or, for an HTTP/1.1
 * head sent with {@code Expect: 100-continue}, from the head), except while the body's consumer has
 * paused reading (back-pressure is not the server's fault) and once the response is complete.
 * Progress only stamps the time; the connection's {@link DeadlineTimer} asks {@link #expire} when due.
 *
 * <p>Confined to the connection's event loop, except the {@link BodyOwner} and
 * {@link RequestBodyWriter.Listener} methods, which hop onto it. Once it has
 * ended ({@link #isDone}) every call is a no-op, so a late callback never touches the next exchange.
 */
public final class ExchangeDriver implements BodyOwner, RequestBodyWriter.Listener {
  /**
   * Interim (1xx) responses accepted before the final one. Each resets the read timeout, so a server
   * sending them forever would hold the call forever; real servers send one or two (100, 103), a
   * slow one a 102 now and then.
   */
  public static final int MAX_INTERIM_RESPONSES = 100;

  /** What one protocol supplies: its body framing ({@link RequestBodyWriter.Framing}) and these. */
  public interface Framing extends RequestBodyWriter.Framing {
    /** The event loop the connection's state is confined to. */
    EventLoop eventLoop();

    /** The connection's timer, which calls {@link ExchangeDriver#expire} when a deadline is due. */
    DeadlineTimer timer();

    /** Reads more of the response (channels run with auto-read off). */
    void read();

    /** The body's last piece is written: calls {@link ExchangeDriver#requestWritten} once the request is whole. */
    default void endRequest(ExchangeDriver d) {
      d.requestWritten();
    }

    /**
     * The response is complete before the request was: the server answered early. True after
     * stopping the upload, to complete at once; false to let it finish, after which
     * {@link ExchangeDriver#requestWritten} (or a give-up that calls {@link ExchangeDriver#giveUpUpload}) completes.
     */
    boolean answeredEarly(ExchangeDriver d);

    /** Both directions are complete: call {@link ExchangeDriver#complete} now, or once the connection is settled. */
    default void responseComplete(ExchangeDriver d) {
      d.complete();
    }

    /** The exchange completed: give the stream or connection back, before the caller wakes up and looks. */
    void completed(ExchangeDriver d);

    /** The exchange failed or is sent again elsewhere: stop its stream, or the connection unless {@code connectionOk}. */
    void abandoned(ExchangeDriver d, boolean connectionOk);
  }

  private final Exchange exchange;
  private final Framing framing;
  private final RequestFraming requestFraming;
  private final long requestLength;

  // Event-loop confined.
  /** The whole request is on the wire. */
  private boolean requestDone;
  /** HTTP/1.1: the head went with {@code Expect: 100-continue}; the body waits for the answer. */
  private boolean awaitingContinue;
  /** The final response's head arrived. */
  private boolean responseStarted;
  /** The response's last byte arrived. */
  private boolean responseDone;
  /** Its consumer is behind, so no more of the response is read for now. */
  private boolean paused;
  private boolean done;
  private long progressAt = System.nanoTime();
  private int interimResponses;
  private NettyResponseBody body;
  /** The response, built from its head and handed to the caller at the end of that read. */
  private StreamingResponse undelivered;

  public ExchangeDriver(Exchange exchange, Framing framing) {
    this.exchange = exchange;
    this.framing = framing;
    this.requestFraming = RequestFraming.of(exchange.request);
    this.requestLength = requestFraming == RequestFraming.LENGTH ? RequestFraming.contentLength(exchange.request) : -1;
    CallerDrivenLoop.began(framing.eventLoop());
  }

  /** The exchange ended: every later call is a no-op, and its loop need not be run for it any more. */
  private void end() {
    done = true;
    CallerDrivenLoop.ended(framing.eventLoop());
  }

  public Exchange exchange() {
    return exchange;
  }

  public Request request() {
    return exchange.request;
  }

  /** How the request body is delimited. */
  public RequestFraming requestFraming() {
    return requestFraming;
  }

  /** The request's {@code Content-Length}, or -1 if it has none. */
  public long requestLength() {
    return requestLength;
  }

  /** Whether the request has no body bytes to send after its head. */
  public boolean hasNoBody() {
    return requestFraming == RequestFraming.NONE || requestLength == 0;
  }

  public boolean isDone() {
    return done;
  }

  /** Whether the whole request is on the wire (or will never be sent). */
  public boolean requestDone() {
    return requestDone;
  }

  public boolean responseStarted() {
    return responseStarted;
  }

  /** The response body, once the head arrived. */
  public NettyResponseBody body() {
    return body;
  }

  // ---- the request ----

  /** The head is out, and the request is whole: it has no body, or ({@code bodyInHead}) its body went in the same write. */
  public void requestWrittenWithHead(boolean bodyInHead) {
    requestDone = true;
    if (bodyInHead && exchange.events != null) {
      exchange.events.requestBodySent(requestLength);
    }
  }

  /** HTTP/1.1: the body waits for {@code 100 Continue} (or a fallback delay). */
  public void awaitContinue() {
    awaitingContinue = true;
  }

  public boolean awaitingContinue() {
    return awaitingContinue;
  }

  /** The body no longer waits for {@code 100 Continue}. */
  public void continued() {
    awaitingContinue = false;
  }

  /** Writes the body after the head: slices of a body in memory, else pumped from its stream. */
  public void sendBody() {
    progress();
    byte[] buffered = exchange.request.body().bufferedBytes();
    if (buffered != null) {
      RequestBodyWriter.writeBuffered(framing, buffered, this);
    } else {
      framing.channel().flush(); // the head, if it was only written
      RequestBodyWriter.pump(framing, exchange.request, requestLength, this);
    }
    arm();
  }

  /** A piece reached the socket (event loop). */
  @Override
  public void progress() {
    progressAt = System.nanoTime();
  }

  /** The body's last piece is written (any thread). */
  @Override
  public void written() {
    EventLoop loop = framing.eventLoop();
    if (!loop.inEventLoop()) {
      loop.execute(this::written);
      return;
    }
    if (!done && !requestDone) {
      framing.endRequest(this);
    }
  }

  /** Reading or framing the body failed (any thread). */
  @Override
  public void failed(HttpException e) {
    framing.eventLoop().execute(() -> fail(e, true));
  }

  /** The whole request is on the wire. */
  public void requestWritten() {
    if (done || requestDone) {
      return;
    }
    requestDone = true;
    if (exchange.events != null && !hasNoBody()) {
      exchange.events.requestBodySent(requestLength);
    }
    progress();
    arm();
    if (responseDone) {
      framing.responseComplete(this); // the answer came first and waited for this
    }
  }

  /** The upload of an early-answered exchange did not finish in time: complete without it. */
  public void giveUpUpload() {
    if (!done && !requestDone) {
      requestDone = true;
      framing.responseComplete(this);
    }
  }

  // ---- the response ----

  /** An interim (1xx) response. False after failing the exchange because there were too many. */
  public boolean interim() {
    if (++interimResponses > MAX_INTERIM_RESPONSES) {
      fail(ErrorMapper.tooManyInterim(exchange.request, MAX_INTERIM_RESPONSES), true);
      return false;
    }
    return true;
  }

  /** The final response's head: builds the response, delivered to the caller at the end of this read. */
  public void respond(int status, String reason, Headers headers, Version version, long contentLength,
      SSLSession session) {
    responseStarted = true;
    if (awaitingContinue) {
      // A final answer instead of 100: the announced body is never sent.
      awaitingContinue = false;
      requestDone = true;
    }
    long length = exchange.head || status == 204 || status == 304 || status == 101 ? 0 : contentLength;
    body = new NettyResponseBody(this, exchange.request, length);
    undelivered = StreamingResponses.of(exchange.request, status, reason, headers, version, body, session);
  }

  /**
   * HTTP/1.1: the final head is a 101 to a request that asked to switch protocols ({@link Exchange#isUpgrade}).
   * What follows it is no longer HTTP, so the exchange ends with it: the upgrade checks the answer and
   * takes the connection, the framing lets go of it ({@link Framing#completed}), then the caller gets the
   * response. If the upgrade refuses the answer, the exchange fails with its reason and the connection closes.
   */
  public void switchProtocols(String reason, Headers headers, Version version, SSLSession session) {
    respond(101, reason, headers, version, 0, session);
    try {
      exchange.upgrade.switched(framing.channel(), undelivered);
    } catch (HttpException e) {
      fail(e, false);
      return;
    }
    requestDone = true;
    responseDone = true;
    body.markEnded();
    complete();
  }

  /** Body bytes (the caller releases them). False if the exchange ended over them (its consumer gave up, or too large). */
  public boolean content(ByteBuf content) {
    if (!content.isReadable() || exchange.head) {
      return true;
    }
    int next = body.onContent(content);
    if (next == NettyResponseBody.PAUSE) {
      paused = true;
    } else if (next == NettyResponseBody.DISCARD) {
      fail(body.stopReason(), true);
      return false;
    }
    return true;
  }

  public void trailers(Headers fields) {
    body.trailers(fields);
  }

  /** The response's last byte arrived. */
  public void responseEnded() {
    if (done) {
      return;
    }
    long expected = body.contentLength();
    if (expected >= 0 && body.received() != expected && !exchange.head) {
      fail(ErrorMapper.truncated(exchange.request, body.received(), expected), true);
      return;
    }
    if (!body.markEnded()) {
      fail(body.stopReason(), true); // closed or failed by its consumer: it knows already
      return;
    }
    responseDone = true;
    if (!requestDone) {
      if (!framing.answeredEarly(this)) {
        return;
      }
      requestDone = true;
    }
    framing.responseComplete(this);
  }

  /** The end of a read: hands over a response whose head came in it (one wake-up of the caller), and reads on. */
  public void readComplete() {
    progress();
    StreamingResponse r = undelivered;
    if (r != null && !done && !responseDone) { // a complete response is handed over by complete(), after the release
      undelivered = null;
      exchange.deliver(r);
    }
    if (!done && !paused) {
      arm();
      framing.read();
    }
  }

  /** The response is whole and the connection settled: it goes back first, then the caller wakes and finds it free. */
  public void complete() {
    if (done) {
      return;
    }
    end();
    StreamingResponse r = undelivered;
    undelivered = null;
    framing.completed(this);
    body.wakeReaders();
    if (r != null) {
      exchange.deliver(r);
    }
  }

  // ---- the consumer (any thread) ----

  @Override
  public void resumeReading(NettyResponseBody b) {
    framing.eventLoop().execute(() -> {
      if (body == b && paused && !done) {
        paused = false;
        progress();
        arm();
        framing.read();
      }
    });
  }

  @Override
  public void discard(NettyResponseBody b) {
    framing.eventLoop().execute(() -> {
      if (body == b && !done) {
        fail(body.stopReason(), true);
      }
    });
  }

  @Override
  public boolean inEventLoop() {
    return framing.eventLoop().inEventLoop();
  }

  /** The caller cancelled its future. */
  public void abort() {
    fail(new TransportException("cancelled (" + exchange.request + ")", exchange.request), true);
  }

  // ---- ending otherwise ----

  /** Fails the exchange; its stream is stopped, and its connection too unless {@code connectionOk}. */
  public void fail(HttpException e, boolean connectionOk) {
    if (done) {
      return;
    }
    end();
    NettyResponseBody b = body;
    undelivered = null;
    framing.abandoned(this, connectionOk);
    if (b != null) {
      b.onError(e);
    }
    exchange.fail(e);
  }

  /**
   * Sends the request again because the server provably did not process it (nothing reached it, or
   * its stream was refused or lay beyond a GOAWAY): safe for any method. Fails with {@code e} when
   * the retries are used up or the body cannot be sent twice.
   *
   * @param fresh whether it needs another connection (not after a refused stream: the connection is fine)
   */
  public void resendUnprocessed(HttpException e, boolean fresh) {
    if (done) {
      return;
    }
    end();
    framing.abandoned(this, true);
    if (!exchange.retryUnprocessed(fresh)) {
      exchange.fail(e);
    }
  }

  /**
   * Fails, or sends again on a new connection if the failure may be a stale reused connection: the
   * exchange is idempotent, saw no response byte, and has not been retried yet.
   */
  public void failOrRetryStale(HttpException e, boolean stale) {
    if (done) {
      return;
    }
    if (stale && body == null && exchange.mayRetry()) {
      end();
      framing.abandoned(this, false);
      exchange.retry();
    } else {
      fail(e, false);
    }
  }

  // ---- timeouts ----

  /** Whether the request is still being written (the write timeout applies). */
  private boolean writing() {
    return !requestDone && !awaitingContinue && !responseStarted;
  }

  /** The limit of the current phase in nanoseconds, or 0 for none. */
  private long timeout() {
    if (done) {
      return 0;
    }
    if (writing()) {
      return exchange.writeTimeoutNanos();
    }
    return responseDone || paused ? 0 : exchange.readTimeoutNanos();
  }

  /** When the current phase times out, or {@link DeadlineTimer#NONE}. */
  public long deadline() {
    return DeadlineTimer.deadline(progressAt, timeout());
  }

  /** Makes sure the connection's timer fires by this exchange's deadline. */
  public void arm() {
    framing.timer().armBy(deadline());
  }

  /** Fails the exchange if its phase made no progress within its limit; else returns its deadline (the timer's check). */
  public long expire(long now) {
    long due = deadline();
    if (due == DeadlineTimer.NONE || now - due < 0) {
      return due;
    }
    HttpException overdue = writing() ? ErrorMapper.writeTimeout(exchange.request, timeout())
        : ErrorMapper.readTimeout(exchange.request, timeout());
    fail(overdue, true);
    return DeadlineTimer.NONE;
  }
}
