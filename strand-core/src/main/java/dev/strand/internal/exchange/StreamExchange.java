package dev.strand.internal.exchange;

import dev.strand.Headers;
import dev.strand.HttpException;
import dev.strand.ProtocolException;
import dev.strand.Request;
import dev.strand.Version;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.util.Map;
import javax.net.ssl.SSLSession;

/**
 * The part of an exchange's framing that HTTP/2 and HTTP/3 share: one exchange on one stream of a
 * multiplexed connection. The response arrives as HEADERS frames (an interim head, the final head,
 * then perhaps trailers) and DATA frames; a consumer that falls behind stops {@link #read}, which
 * closes the stream's flow-control window without holding up the connection's other streams.
 * Subclasses write the request, deliver the frames, and read the protocol's own signals (ends of
 * stream, resets, GOAWAY).
 */
public abstract class StreamExchange implements ExchangeDriver.Framing {
  protected final ExchangeDriver driver;
  private final Version version;
  private final EventLoop loop;
  private final DeadlineTimer timer;

  /**
   * @param loop the connection's event loop
   * @param timer the connection's timer, which checks this exchange's deadline from now on
   */
  protected StreamExchange(Exchange exchange, Version version, EventLoop loop, DeadlineTimer timer) {
    this.version = version;
    this.loop = loop;
    this.timer = timer;
    this.driver = new ExchangeDriver(exchange, this);
  }

  public boolean isDone() {
    return driver.isDone();
  }

  /** The stream could not be opened, or its HEADERS never left: nothing reached the server. */
  public void failUnstarted(Throwable cause) {
    driver.resendUnprocessed(ErrorMapper.io(cause, driver.request()), true);
  }

  /**
   * The stream closed before the exchange ended: fails it with the connection's error if it has one
   * ({@code connectionError}, or {@code null}), else as a truncated body or a missing response.
   */
  protected final void streamClosed(HttpException connectionError, boolean connectionOk) {
    Request request = driver.request();
    NettyResponseBody body = driver.body();
    driver.fail(connectionError != null ? ErrorMapper.io(connectionError, request)
        : body != null ? ErrorMapper.truncated(request, body.received(), body.contentLength())
        : ErrorMapper.noResponse(request), connectionOk);
  }

  /** The caller cancelled (event loop). */
  public void abort() {
    driver.abort();
  }

  /** The connection timer's check for this exchange. */
  public long expire(long now) {
    return driver.expire(now);
  }

  @Override
  public EventLoop eventLoop() {
    return loop;
  }

  @Override
  public DeadlineTimer timer() {
    return timer;
  }

  /** The end of a read from the connection that brought this stream frames. */
  public final void readComplete() {
    driver.readComplete();
  }

  /**
   * A HEADERS frame: an interim head, the final head, or the trailers after it. Returns whether the
   * response may end with it (the final head or the trailers were taken); false for an interim head
   * or when it failed the exchange.
   */
  protected final boolean onHeaders(CharSequence status, Iterable<Map.Entry<CharSequence, CharSequence>> fields,
      SSLSession session) {
    if (driver.responseStarted()) {
      Headers trailers = fields(fields);
      if (trailers != null) {
        driver.trailers(trailers);
      }
      return trailers != null;
    }
    Request request = driver.request();
    int code = ResponseFields.status(status);
    if (code < 0 || code == 101) { // there is no 101 in HTTP/2 (RFC 9113 section 8.6) nor HTTP/3 (RFC 9114 section 4.5)
      driver.fail(new ProtocolException("malformed " + version + " response: :status is \"" + status + "\" ("
          + request + ")", request), true);
      return false;
    }
    if (code < 200) {
      driver.interim(); // the final head follows on the same stream
      return false;
    }
    Headers headers = fields(fields);
    if (headers == null) {
      return false;
    }
    driver.respond(code, null, headers, version, ResponseFields.contentLength(headers), session);
    return true;
  }

  /** A DATA frame's content (the caller releases it). False if it failed the exchange. */
  protected final boolean onData(ByteBuf content) {
    if (driver.body() == null) {
      driver.fail(new ProtocolException(version + " DATA before the response HEADERS (" + driver.request() + ")",
          driver.request()), true);
      return false;
    }
    return driver.content(content);
  }

  /** The regular fields of a HEADERS frame; {@code null} after failing the exchange over a malformed one. */
  private Headers fields(Iterable<Map.Entry<CharSequence, CharSequence>> fields) {
    try {
      return ResponseFields.regular(fields);
    } catch (IllegalArgumentException e) {
      driver.fail(new ProtocolException("malformed response header: " + e.getMessage() + " (" + driver.request() + ")",
          driver.request(), e), true);
      return null;
    }
  }
}
