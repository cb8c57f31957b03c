package dev.strand.internal.netty;

import dev.strand.HttpException;

/**
 * Where one exchange stands, and so which timeout applies, the same for HTTP/1.1 and HTTP/2.
 *
 * <p>While the request is written, the write timeout runs from the last piece that reached the
 * socket. Then the read timeout runs from the last bytes of the response (or, for an HTTP/1.1 head
 * sent with {@code Expect: 100-continue}, from the head), except while its consumer has paused
 * reading (backpressure is not the server's fault) and once the response is complete.
 * Progress only stamps the time; the connection's {@link DeadlineTimer} asks for the deadline.
 * Confined to the connection's event loop.
 */
public final class ExchangePhases {
  private Exchange exchange;
  /** The whole request is on the wire. */
  public boolean requestDone;
  /** HTTP/1.1: the head went with {@code Expect: 100-continue}; the body waits for the answer. */
  boolean awaitingContinue;
  /** The final response's head arrived. */
  public boolean responseStarted;
  /** The response's last byte arrived. */
  public boolean responseDone;
  /** Its consumer is behind, so no more of the response is read for now. */
  public boolean paused;
  private long progressAt;

  /** Starts timing {@code x}, from now, in its first phase (writing). */
  public void begin(Exchange x) {
    exchange = x;
    requestDone = false;
    awaitingContinue = false;
    responseStarted = false;
    responseDone = false;
    paused = false;
    progressAt = System.nanoTime();
  }

  /** The exchange is over: nothing is timed until the next {@link #begin}. */
  public void end() {
    exchange = null;
  }

  /** Bytes moved: the current phase's limit starts over. */
  public void progress() {
    progressAt = System.nanoTime();
  }

  /** Whether the request is still being written (the write timeout applies). */
  boolean writing() {
    return !requestDone && !awaitingContinue && !responseStarted;
  }

  /** The limit of the current phase in nanoseconds, or 0 for none. */
  long timeout() {
    if (exchange == null) {
      return 0;
    }
    if (writing()) {
      return exchange.writeTimeoutNanos;
    }
    return responseDone || paused ? 0 : exchange.readTimeoutNanos;
  }

  /** When the current phase times out, or {@link DeadlineTimer#NONE}. */
  public long deadline() {
    return DeadlineTimer.deadline(progressAt, timeout());
  }

  /** The timeout the exchange has run into at {@code now}, or {@code null} if it is within its limit. */
  public HttpException overdue(long now) {
    long due = deadline();
    if (due == DeadlineTimer.NONE || now - due < 0) {
      return null;
    }
    return writing() ? ErrorMapper.writeTimeout(exchange.request, timeout())
        : ErrorMapper.readTimeout(exchange.request, timeout());
  }
}
