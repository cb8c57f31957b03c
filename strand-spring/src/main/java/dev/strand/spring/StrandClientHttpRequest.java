package dev.strand.spring;

import dev.strand.Client;
import dev.strand.HttpException;
import dev.strand.Request;
import dev.strand.RequestBody;
import dev.strand.StreamingResponse;
import dev.strand.Timeout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.AbstractStreamingClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;

/** One blocking exchange: Spring's request, sent by {@link Client#stream}. */
final class StrandClientHttpRequest extends AbstractStreamingClientHttpRequest {
  /** Bodies of known length up to this size are written on the caller's thread, with no pipe. */
  private static final long WRITE_AT_ONCE = 64 * 1024;

  private final Client client;
  private final HttpMethod method;
  private final URI uri;
  private final Timeout timeout;

  StrandClientHttpRequest(Client client, HttpMethod method, URI uri, Timeout timeout) {
    this.client = client;
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
  protected ClientHttpResponse executeInternal(HttpHeaders headers, Body body) throws IOException {
    Request.Builder request = Requests.builder(method, uri, headers, timeout);
    if (body != null) {
      request.body(requestBody(headers, body));
    }
    try {
      StreamingResponse response = client.stream(request.build());
      return new StrandClientHttpResponse(response);
    } catch (HttpException e) {
      throw Failures.toIOException(e);
    }
  }

  private static RequestBody requestBody(HttpHeaders headers, Body body) throws IOException {
    MediaType type = headers.getContentType();
    String contentType = type != null ? type.toString() : null;
    long length = headers.getContentLength();
    if (length >= 0 && length <= WRITE_AT_ONCE) {
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) length);
      body.writeTo(out);
      return RequestBody.of(out.toByteArray(), contentType);
    }
    return new OutputStreamBody(body, contentType, length);
  }
}
