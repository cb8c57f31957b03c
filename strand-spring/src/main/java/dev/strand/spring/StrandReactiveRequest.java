package dev.strand.spring;

import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.Timeout;
import java.net.URI;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.AbstractClientHttpRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * WebClient's request, gathered into a Strand {@link Request}. Writing the body only commits it: as in
 * Spring's JDK connector, the exchange starts once the request callback completes, and the body's
 * publisher is subscribed when Strand sends it.
 */
final class StrandReactiveRequest extends AbstractClientHttpRequest {
  private final HttpMethod method;
  private final URI uri;
  private final Timeout timeout;
  /** Bodies of known length up to this size are joined and sent in one write, with no upload pump. */
  private static final long WRITE_AT_ONCE = 64 * 1024;

  private Publisher<? extends DataBuffer> body;
  private byte[] bytes;
  private String cookie;

  StrandReactiveRequest(HttpMethod method, URI uri, Timeout timeout) {
    this.method = method;
    this.uri = uri;
    this.timeout = timeout;
  }

  @Override
  public HttpMethod getMethod() {
    return method;
  }

  @Override
  public URI getURI() {
    return uri;
  }

  @Override
  public DataBufferFactory bufferFactory() {
    return DefaultDataBufferFactory.sharedInstance;
  }

  /** Strand's request is made only when sent; there is no native request to show before. */
  @Override
  public <T> T getNativeRequest() {
    throw new UnsupportedOperationException("Strand's request is built when the exchange starts");
  }

  @Override
  public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
    long length = getHeaders().getContentLength();
    if (length >= 0 && length <= WRITE_AT_ONCE) {
      // A small body of known length (bodyValue) is joined and sent in one write, as the blocking factory does.
      return doCommit(() -> DataBufferUtils.join(body).map(joined -> {
        byte[] bytes = new byte[joined.readableByteCount()];
        joined.read(bytes);
        DataBufferUtils.release(joined);
        return bytes;
      }).defaultIfEmpty(new byte[0]).doOnNext(bytes -> this.bytes = bytes).then());
    }
    return doCommit(() -> {
      this.body = body;
      return Mono.empty();
    });
  }

  @Override
  public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
    return writeWith(Flux.from(body).concatMap(Flux::from));
  }

  @Override
  public Mono<Void> setComplete() {
    return doCommit();
  }

  /** The headers are read when the request is built, once committed. */
  @Override
  protected void applyHeaders() {}

  @Override
  protected void applyCookies() {
    StringBuilder cookie = new StringBuilder();
    getCookies().values().forEach(cookies -> cookies.forEach(c -> {
      if (!cookie.isEmpty()) {
        cookie.append("; ");
      }
      cookie.append(c.getName()).append('=').append(c.getValue());
    }));
    this.cookie = cookie.isEmpty() ? null : cookie.toString();
  }

  /** The request to send; valid once the request callback has committed it. */
  Request build() {
    if (!isCommitted()) {
      throw new IllegalStateException("the request was not committed");
    }
    HttpHeaders headers = getHeaders();
    Request.Builder request = Requests.builder(method, uri, headers, timeout);
    if (cookie != null) {
      request.header(HttpHeaders.COOKIE, cookie);
    }
    MediaType type = headers.getContentType();
    String contentType = type != null ? type.toString() : null;
    if (bytes != null) {
      request.body(RequestBody.of(bytes, contentType));
    } else if (body != null) {
      request.body(new PublisherBody(body, contentType, headers.getContentLength()));
    }
    return request.build();
  }
}
