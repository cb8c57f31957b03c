package dev.strand;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@code multipart/form-data} body (RFC 7578) built from text fields and files. Files are read
 * from disk part by part as the connection accepts data, never held in memory whole; each is opened
 * only when its part is reached and closed at its end. The body is repeatable (each
 * {@link RequestBody#openStream()} starts again from the first part) and its length is known, so it
 * is sent with {@code Content-Length}, not chunked.
 *
 * {@snippet :
 * RequestBody body = Multipart.builder()
 *     .field("title", "holiday")
 *     .file("photo", Path.of("beach.jpg"), "image/jpeg")
 *     .build();
 * client.post("http://127.0.0.1:8080/sink", body);
 * }
 *
 * @implNote Names and file names are sent as UTF-8, with {@code "}, CR and LF percent-encoded as
 *     browsers do (HTML's form-data encoding algorithm).
 */
public final class Multipart {
  private Multipart() {}

  public static Builder builder() {
    return new Builder();
  }

  /** Collects the parts of a multipart body, in order. */
  public static final class Builder {
    private static final String BOUNDARY_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    private final List<Part> parts = new ArrayList<>();
    private String boundary;

    private Builder() {}

    /**
     * The boundary delimiting parts (default: random). It must not occur in any part's content;
     * a fixed one is useful for tests.
     *
     * @throws IllegalArgumentException if not 1 to 70 characters of RFC 2046's boundary alphabet
     */
    public Builder boundary(String boundary) {
      Objects.requireNonNull(boundary, "boundary");
      if (boundary.isEmpty() || boundary.length() > 70 || boundary.endsWith(" ")) {
        throw new IllegalArgumentException("boundary must be 1 to 70 characters, not ending in a space");
      }
      for (int i = 0; i < boundary.length(); i++) {
        char c = boundary.charAt(i);
        boolean ok = c < 128 && (Character.isLetterOrDigit(c) || "'()+_,-./:=? ".indexOf(c) >= 0);
        if (!ok) {
          throw new IllegalArgumentException("boundary has a character outside RFC 2046's alphabet at index " + i);
        }
      }
      this.boundary = boundary;
      return this;
    }

    /** A text field, sent as UTF-8 with no Content-Type (so {@code text/plain} by RFC 7578). */
    public Builder field(String name, String value) {
      Objects.requireNonNull(value, () -> "value of field " + name);
      return part(name, null, null, RequestBody.of(value.getBytes(StandardCharsets.UTF_8)));
    }

    /** A file part named after the file, {@code application/octet-stream}. */
    public Builder file(String name, Path file) {
      return file(name, file, null);
    }

    /** A file part named after the file, with the given Content-Type ({@code null}: octet-stream). */
    public Builder file(String name, Path file, String contentType) {
      Objects.requireNonNull(file, "file");
      Path fileName = file.getFileName();
      return file(name, file, fileName == null ? "file" : fileName.toString(), contentType);
    }

    /**
     * A file part with an explicit file name. The file's size is read now; it is opened when sent.
     *
     * @throws UncheckedIOException if the file cannot be read now
     */
    public Builder file(String name, Path file, String fileName, String contentType) {
      Objects.requireNonNull(fileName, "fileName");
      String type = contentType != null ? contentType : "application/octet-stream";
      return part(name, fileName, type, RequestBody.ofFile(file, type));
    }

    /**
     * Any body as a part. {@code fileName} and {@code contentType} may be {@code null}; when
     * {@code contentType} is null the body's own is used, if any.
     */
    public Builder part(String name, String fileName, String contentType, RequestBody body) {
      Objects.requireNonNull(name, "part name");
      Objects.requireNonNull(body, () -> "body of part " + name);
      String type = contentType != null ? contentType : body.contentType();
      if (type != null) {
        Headers.checkValue("Content-Type", type);
      }
      parts.add(new Part(name, fileName, type, body));
      return this;
    }

    /** The body; later changes to this builder do not affect it. */
    public RequestBody build() {
      String b = boundary != null ? boundary : randomBoundary();
      List<byte[]> heads = new ArrayList<>(parts.size());
      for (int i = 0; i < parts.size(); i++) {
        heads.add(parts.get(i).head(b, i == 0));
      }
      byte[] tail = ((parts.isEmpty() ? "--" : "\r\n--") + b + "--\r\n").getBytes(StandardCharsets.US_ASCII);
      return new Body(b, List.copyOf(parts), heads, tail);
    }

    private static String randomBoundary() {
      SecureRandom random = new SecureRandom();
      StringBuilder sb = new StringBuilder("strand-");
      for (int i = 0; i < 32; i++) {
        sb.append(BOUNDARY_CHARS.charAt(random.nextInt(BOUNDARY_CHARS.length())));
      }
      return sb.toString();
    }
  }

  private record Part(String name, String fileName, String contentType, RequestBody body) {
    /** Delimiter and headers of this part; every delimiter after the first ends the previous part's content. */
    byte[] head(String boundary, boolean first) {
      StringBuilder sb = new StringBuilder();
      sb.append(first ? "--" : "\r\n--").append(boundary).append("\r\n");
      sb.append("Content-Disposition: form-data; name=\"").append(escape(name)).append('"');
      if (fileName != null) {
        sb.append("; filename=\"").append(escape(fileName)).append('"');
      }
      sb.append("\r\n");
      if (contentType != null) {
        sb.append("Content-Type: ").append(contentType).append("\r\n");
      }
      sb.append("\r\n");
      return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String escape(String s) {
      return s.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }
  }

  private static final class Body extends RequestBody {
    private final String boundary;
    private final List<Part> parts;
    private final List<byte[]> heads;
    private final byte[] tail;
    private final long length;

    Body(String boundary, List<Part> parts, List<byte[]> heads, byte[] tail) {
      this.boundary = boundary;
      this.parts = parts;
      this.heads = heads;
      this.tail = tail;
      long total = tail.length;
      for (int i = 0; i < parts.size(); i++) {
        long partLength = parts.get(i).body().contentLength();
        total = total < 0 || partLength < 0 ? -1 : total + heads.get(i).length + partLength;
      }
      this.length = total;
    }

    @Override
    public String contentType() {
      return "multipart/form-data; boundary=" + quotedIfNeeded(boundary);
    }

    /**
     * The boundary as a Content-Type parameter value: RFC 2046 allows space and {@code '()+,/:=?} in a boundary,
     * which a parameter can only carry quoted (RFC 9110 §5.6.6); a receiver would cut the bare value short.
     */
    private static String quotedIfNeeded(String boundary) {
      for (int i = 0; i < boundary.length(); i++) {
        if (" '()+,/:=?".indexOf(boundary.charAt(i)) >= 0) {
          return '"' + boundary + '"';
        }
      }
      return boundary;
    }

    @Override
    public long contentLength() {
      return length;
    }

    @Override
    public boolean isRepeatable() {
      for (Part p : parts) {
        if (!p.body().isRepeatable()) {
          return false;
        }
      }
      return true;
    }

    @Override
    public InputStream openStream() {
      return new PartsInputStream();
    }

    /** Head of part 0, content of part 0, head of part 1, ..., tail: one source open at a time. */
    private final class PartsInputStream extends InputStream {
      private int next; // index into the sequence of 2 * parts + 1 sources
      private InputStream current;
      private boolean closed;

      private boolean advance() throws IOException {
        if (current != null) {
          current.close();
          current = null;
        }
        int sources = 2 * parts.size() + 1;
        if (next >= sources) {
          return false;
        }
        int i = next++;
        if (i == sources - 1) {
          current = new ByteArrayInputStream(tail);
        } else if (i % 2 == 0) {
          current = new ByteArrayInputStream(heads.get(i / 2));
        } else {
          current = parts.get(i / 2).body().openStream();
        }
        return true;
      }

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
          throw new IOException("stream closed");
        }
        if (len == 0) {
          return 0;
        }
        while (true) {
          if (current != null) {
            int n = current.read(b, off, len);
            if (n >= 0) {
              return n;
            }
          }
          if (!advance()) {
            return -1;
          }
        }
      }

      @Override
      public void close() throws IOException {
        closed = true;
        if (current != null) {
          current.close();
          current = null;
        }
      }
    }
  }
}
