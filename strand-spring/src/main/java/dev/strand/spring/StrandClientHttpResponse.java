package dev.strand.spring;

import dev.strand.HttpException;
import dev.strand.StreamingResponse;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/** A Strand streaming response as Spring's; closing it closes Strand's. */
final class StrandClientHttpResponse implements ClientHttpResponse {
  /** How much unread body {@link #close} reads to keep the connection, as Spring's JDK factory drains. */
  private static final int DRAIN_LIMIT = 64 * 1024;

  private final StreamingResponse response;
  private HttpHeaders headers;
  private InputStream body;

  StrandClientHttpResponse(StreamingResponse response) {
    this.response = response;
  }

  @Override
  public HttpStatusCode getStatusCode() {
    return HttpStatusCode.valueOf(response.status());
  }

  @Override
  public String getStatusText() {
    return response.reason();
  }

  @Override
  public HttpHeaders getHeaders() {
    if (headers == null) {
      headers = Requests.toSpring(response.headers());
    }
    return headers;
  }

  @Override
  public InputStream getBody() {
    if (body == null) {
      body = new MappedFailures(response.body());
    }
    return body;
  }

  @Override
  public void close() {
    try {
      InputStream in = getBody();
      byte[] scratch = new byte[8192];
      int drained = 0;
      int n;
      while (drained <= DRAIN_LIMIT && (n = in.read(scratch)) >= 0) {
        drained += n;
      }
    } catch (IOException | RuntimeException ignored) {
      // The connection is discarded by the close below; the caller asked to close, not to hear of it.
    } finally {
      response.close();
    }
  }

  /** Reading failures as {@link Failures} maps them, so a read timeout mid-body is an HttpTimeoutException too. */
  private static final class MappedFailures extends FilterInputStream {
    MappedFailures(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (IOException e) {
        throw mapped(e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (IOException e) {
        throw mapped(e);
      }
    }

    private static IOException mapped(IOException e) {
      return e.getCause() instanceof HttpException h ? Failures.toIOException(h) : e;
    }
  }
}
