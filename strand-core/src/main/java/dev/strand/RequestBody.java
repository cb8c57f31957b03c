package dev.strand;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The content of a request. Bodies held in memory are sent in one write; files and streams are sent
 * in chunks as the connection accepts them, so a large upload never sits in memory whole.
 *
 * {@snippet :
 * RequestBody a = RequestBody.of("hello");                      // text/plain; charset=utf-8
 * RequestBody b = RequestBody.json("{\"id\": 1}");               // application/json
 * RequestBody c = RequestBody.form(Map.of("q", "strand"));       // url-encoded form
 * RequestBody d = RequestBody.ofFile(Path.of("upload.bin"));     // streamed from disk
 * }
 */
public abstract class RequestBody {
  /** Subclass to send content from a source of your own. */
  protected RequestBody() {}

  /** The Content-Type to send, or {@code null} to send none (unless the request sets one). */
  public abstract String contentType();

  /** Length in bytes, or {@code -1} if unknown, in which case HTTP/1.1 sends it chunked. */
  public abstract long contentLength();

  /**
   * Opens the content for reading. A repeatable body returns a fresh stream on each call, so the
   * request can be replayed (a 307 redirect, a retry); a one-shot body fails the second call.
   */
  public abstract InputStream openStream() throws IOException;

  /** Whether {@link #openStream()} may be called more than once. */
  public boolean isRepeatable() {
    return true;
  }

  /**
   * The content if it is already held in memory, else {@code null}. Transports use it to send
   * small bodies in one write. Callers must not modify the array.
   */
  public byte[] bufferedBytes() {
    return null;
  }

  /** Raw bytes with no Content-Type. */
  public static RequestBody of(byte[] bytes) {
    return of(bytes, null);
  }

  /** Raw bytes with the given Content-Type (may be {@code null}). The array is copied. */
  public static RequestBody of(byte[] bytes, String contentType) {
    return new InMemory(bytes.clone(), contentType);
  }

  /** UTF-8 text, {@code text/plain; charset=utf-8}. */
  public static RequestBody of(String text) {
    return new InMemory(text.getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8");
  }

  /** UTF-8 text with the given Content-Type. */
  public static RequestBody of(String text, String contentType) {
    return new InMemory(text.getBytes(StandardCharsets.UTF_8), contentType);
  }

  /** JSON text sent as is, {@code application/json}. */
  public static RequestBody json(String jsonText) {
    return new InMemory(jsonText.getBytes(StandardCharsets.UTF_8), "application/json");
  }

  /**
   * An object written as JSON by the {@link JsonCodec} on the class path, {@code application/json}.
   *
   * @throws IllegalStateException if there is no JSON codec (neither strand-jackson nor Jackson 2)
   */
  public static RequestBody jsonOf(Object value) {
    return new InMemory(JsonCodec.get().write(value), "application/json");
  }

  /** An {@code application/x-www-form-urlencoded} form, fields in the map's iteration order. */
  public static RequestBody form(Map<String, String> fields) {
    StringBuilder sb = new StringBuilder();
    fields.forEach((k, v) -> {
      if (!sb.isEmpty()) {
        sb.append('&');
      }
      sb.append(URLEncoder.encode(k, StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
    });
    return new InMemory(sb.toString().getBytes(StandardCharsets.US_ASCII), "application/x-www-form-urlencoded");
  }

  /** A file, streamed from disk, with no Content-Type. */
  public static RequestBody ofFile(Path file) {
    return ofFile(file, null);
  }

  /**
   * A file, streamed from disk.
   *
   * @throws UncheckedIOException if the file cannot be read now
   */
  public static RequestBody ofFile(Path file, String contentType) {
    Objects.requireNonNull(file, "file");
    long length;
    try {
      length = Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read request body file " + file, e);
    }
    return new RequestBody() {
      @Override
      public String contentType() {
        return contentType;
      }

      @Override
      public long contentLength() {
        return length;
      }

      @Override
      public InputStream openStream() throws IOException {
        return Files.newInputStream(file);
      }
    };
  }

  /**
   * A one-shot stream of unknown length, sent chunked. The stream is read as the connection accepts
   * data and closed when sent. It cannot be replayed, so redirects that keep the body and retries
   * fail with {@link ProtocolException} instead of sending a truncated body.
   */
  public static RequestBody ofInputStream(InputStream in, String contentType) {
    return ofInputStream(in, -1, contentType);
  }

  /** A one-shot stream of known length (send exactly {@code length} bytes). */
  public static RequestBody ofInputStream(InputStream in, long length, String contentType) {
    Objects.requireNonNull(in, "in");
    AtomicBoolean opened = new AtomicBoolean();
    return new RequestBody() {
      @Override
      public String contentType() {
        return contentType;
      }

      @Override
      public long contentLength() {
        return length;
      }

      @Override
      public boolean isRepeatable() {
        return false;
      }

      @Override
      public InputStream openStream() throws IOException {
        if (!opened.compareAndSet(false, true)) {
          throw new IOException("this request body is a one-shot InputStream and was already sent");
        }
        return in;
      }
    };
  }

  /**
   * {@code body} compressed with gzip, to send with {@code Content-Encoding: gzip} (which this body does not set:
   * it is a header, see {@link Request.Builder#gzip()}). Only for servers known to accept it: HTTP has no way to
   * ask first, and a server that does not inflate request bodies sees the compressed bytes.
   *
   * {@snippet :
   * Request r = Request.builder("POST", "https://logs.example.org/ingest")
   *     .body(RequestBody.gzip(RequestBody.ofFile(Path.of("big.log"), "text/plain")))
   *     .header("Content-Encoding", "gzip")  // or .body(...).gzip()
   *     .build();
   * }
   *
   * <p>A body held in memory ({@link #bufferedBytes()}) is compressed now, once, and has a known length. Any
   * other body is compressed as it is read, 64 KiB of its stream at a time, so it is never held whole: its
   * length is unknown ({@code -1}, sent chunked on HTTP/1.1) and it is as repeatable as {@code body}. The
   * Content-Type is {@code body}'s.
   */
  public static RequestBody gzip(RequestBody body) {
    Objects.requireNonNull(body, "body");
    byte[] bytes = body.bufferedBytes();
    if (bytes != null) {
      return new InMemory(dev.strand.internal.coding.GzipCompressingStream.gzip(bytes), body.contentType());
    }
    return new RequestBody() {
      @Override
      public String contentType() {
        return body.contentType();
      }

      @Override
      public long contentLength() {
        return -1;
      }

      @Override
      public boolean isRepeatable() {
        return body.isRepeatable();
      }

      @Override
      public InputStream openStream() throws IOException {
        return new dev.strand.internal.coding.GzipCompressingStream(body.openStream());
      }
    };
  }

  private static final class InMemory extends RequestBody {
    private final byte[] bytes;
    private final String contentType;

    InMemory(byte[] bytes, String contentType) {
      this.bytes = bytes;
      this.contentType = contentType;
    }

    @Override
    public String contentType() {
      return contentType;
    }

    @Override
    public long contentLength() {
      return bytes.length;
    }

    @Override
    public InputStream openStream() {
      return new ByteArrayInputStream(bytes);
    }

    @Override
    public byte[] bufferedBytes() {
      return bytes;
    }
  }
}
