package dev.strand;

import dev.strand.spi.ResponseBody;
import java.util.Optional;
import javax.net.ssl.SSLSession;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A response whose status and headers have arrived and whose body is read on demand, with
 * backpressure: bytes are pulled from the network only as fast as the caller consumes them, so a
 * body of any size streams in bounded memory. Always close it (try-with-resources): closing before
 * the end discards the connection, reading to the end returns it to the pool.
 *
 * {@snippet :
 * try (StreamingResponse r = client.stream(Request.get(url))) {
 *   for (byte[] chunk : r.chunks()) {
 *     out.write(chunk);
 *   }
 * }
 * }
 */
public final class StreamingResponse implements ResponseHead, AutoCloseable {
  private final Request request;
  private final int status;
  private final String reason;
  private final Headers headers;
  private final Version version;
  private final ResponseBody body;
  private final SSLSession sslSession;
  private InputStream stream;
  private boolean chunksTaken;

  // Private: transports reach it through dev.strand.spi.StreamingResponses (a private lookup), so the
  // user API has no way to build a response around a raw ResponseBody, nor to take one out.
  private StreamingResponse(Request request, int status, String reason, Headers headers, Version version,
      ResponseBody body, SSLSession sslSession) {
    this.request = request;
    this.status = status;
    this.reason = reason != null ? reason : StatusReasons.of(status);
    this.headers = Objects.requireNonNull(headers, "headers");
    this.version = Objects.requireNonNull(version, "version");
    this.body = Objects.requireNonNull(body, "body");
    this.sslSession = sslSession;
  }

  /**
   * A response already in memory, to be read as a stream: for an interceptor that answers or replaces
   * a response, and for tests. (Transports build theirs with {@link dev.strand.spi.StreamingResponses}.)
   */
  public static StreamingResponse of(Response response) {
    return new StreamingResponse(response.request(), response.status(), response.reason(), response.headers(),
        response.version(), ResponseBody.of(response.bytes()), response.sslSession().orElse(null));
  }

  // The same head with another body (for example a decompressing view of this one). Private, as the
  // constructor: the client's layers reach it through StreamingResponses.withBody.
  private StreamingResponse withBody(Headers headers, ResponseBody body) {
    return new StreamingResponse(request, status, reason, headers, version, body, sslSession);
  }

  /** The same head and body, attributed to another request (for example after a redirect). */
  public StreamingResponse withRequest(Request request) {
    return new StreamingResponse(request, status, reason, headers, version, body, sslSession);
  }

  @Override
  public Optional<SSLSession> sslSession() {
    return Optional.ofNullable(sslSession);
  }

  @Override
  public int status() {
    return status;
  }

  @Override
  public String reason() {
    return reason;
  }

  @Override
  public Headers headers() {
    return headers;
  }

  @Override
  public Version version() {
    return version;
  }

  @Override
  public Request request() {
    return request;
  }

  /**
   * Trailer fields sent after the body (HTTP/2 trailers, or those of a chunked HTTP/1.1 body):
   * available once the body has been read to its end; {@link Headers#EMPTY} before that, or if none came.
   */
  public Headers trailers() {
    return body.trailers();
  }

  // The body source itself, for the client's layers (through StreamingResponses.body); users read body() or chunks().
  private ResponseBody responseBody() {
    return body;
  }

  /**
   * The body as an {@link InputStream}; the same stream on every call. Reading fails with an
   * {@link IOException} whose cause is the {@link HttpException}; closing it closes this response.
   */
  public synchronized InputStream body() {
    if (chunksTaken) {
      throw new IllegalStateException("the body is already being read through chunks()");
    }
    if (stream == null) {
      stream = new ChunkInputStream(body);
    }
    return stream;
  }

  /**
   * The body as a one-shot sequence of byte chunks, in arrival order.
   *
   * @throws TransportException from {@code next()} if reading fails
   */
  public synchronized Iterable<byte[]> chunks() {
    if (stream != null || chunksTaken) {
      throw new IllegalStateException("the body is already being read");
    }
    chunksTaken = true;
    return () -> new Iterator<>() {
      private byte[] next;
      private boolean done;

      @Override
      public boolean hasNext() {
        if (next == null && !done) {
          next = body.readChunk();
          done = next == null;
        }
        return next != null;
      }

      @Override
      public byte[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        byte[] out = next;
        next = null;
        return out;
      }
    };
  }

  /** Reads the rest of the body (blocking) into a {@link Response}. */
  public Response readAll() {
    byte[] bytes = Futures.await(body.readAll(Long.MAX_VALUE), request);
    return Response.builder(status).reason(reason).headers(headers).version(version).body(bytes).request(request)
        .trailers(body.trailers()).sslSession(sslSession).build();
  }

  /** Releases the connection: back to the pool if the body was read to its end, else discarded. */
  @Override
  public void close() {
    body.close();
  }

  @Override
  public String toString() {
    return "StreamingResponse{" + status + " " + reason + ", " + version + ", " + request + "}";
  }

  /** An InputStream over a chunk source, holding at most one chunk. */
  private static final class ChunkInputStream extends InputStream {
    private final ResponseBody source;
    private byte[] chunk;
    private int pos;
    private boolean eof;

    ChunkInputStream(ResponseBody source) {
      this.source = source;
    }

    private boolean fill() throws IOException {
      while (!eof && (chunk == null || pos == chunk.length)) {
        try {
          chunk = source.readChunk();
        } catch (HttpException e) {
          throw new IOException(e.getMessage(), e);
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
        pos = 0;
        eof = chunk == null;
      }
      return !eof;
    }

    @Override
    public int read() throws IOException {
      return fill() ? chunk[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(len, chunk.length - pos);
      System.arraycopy(chunk, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return chunk == null ? 0 : chunk.length - pos;
    }

    @Override
    public void close() {
      source.close();
    }
  }
}
