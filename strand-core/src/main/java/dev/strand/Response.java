package dev.strand;

import dev.strand.internal.coding.ContentEncodings;
import dev.strand.internal.text.TextDecoding;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/**
 * A response whose body has been read completely (the default, as in httpx). Immutable.
 *
 * {@snippet :
 * Response r = client.get("http://127.0.0.1:8080/small");
 * r.raiseForStatus();
 * String json = r.text();
 * }
 *
 * <p>{@link #builder(int)} makes responses for {@link MockTransport} handlers and tests.
 */
public final class Response implements ResponseHead {
  private final int status;
  private final String reason;
  private final Headers headers;
  private final Version version;
  private final byte[] body;
  private final Request request;
  private final Duration elapsed;
  private final List<Response> history;
  private final Headers trailers;
  private final SSLSession sslSession;
  private final Charset defaultCharset;

  private Response(Builder b) {
    this.status = b.status;
    this.reason = b.reason != null ? b.reason : StatusReasons.of(b.status);
    this.headers = b.headers != null ? b.headers.build() : b.builtHeaders;
    this.version = b.version;
    this.body = b.body;
    this.request = b.request;
    this.elapsed = b.elapsed;
    this.history = List.copyOf(b.history);
    this.trailers = b.trailers;
    this.sslSession = b.sslSession;
    this.defaultCharset = b.defaultCharset;
  }

  /** A builder for a response with this status (HTTP/1.1, no headers, empty body). */
  public static Builder builder(int status) {
    return new Builder(status);
  }

  public Builder toBuilder() {
    Builder b = new Builder(status);
    b.reason = reason;
    b.builtHeaders = headers;
    b.version = version;
    b.body = body;
    b.request = request;
    b.elapsed = elapsed;
    b.history = history;
    b.trailers = trailers;
    b.sslSession = sslSession;
    b.defaultCharset = defaultCharset;
    return b;
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

  @Override
  public Optional<SSLSession> sslSession() {
    return Optional.ofNullable(sslSession);
  }

  /** Trailer fields sent after the body (HTTP/2, or chunked HTTP/1.1); {@link Headers#EMPTY} if none. */
  public Headers trailers() {
    return trailers;
  }

  /**
   * The body, decompressed. The array is shared: do not modify it. A body whose Content-Encoding the
   * client could not decode (an unknown coding, a missing optional library, or decompression off) is
   * returned as received, and the response still has its {@code Content-Encoding} header.
   */
  public byte[] bytes() {
    return body;
  }

  /**
   * The body as text, lenient: a byte sequence that is not valid in the charset becomes U+FFFD, as in
   * OkHttp and httpx. The charset is {@link #charset()}'s: the one Content-Type declares, else a byte
   * order mark's, else UTF-8 for JSON, else the client's default ({@link Client.Builder#defaultCharset},
   * UTF-8 unless set). A byte order mark is not part of the text.
   *
   * {@snippet :
   * String page = client.get("https://example.org/").text();
   * }
   *
   * @throws ProtocolException if the body is still content-coded ({@code Content-Encoding} left
   *     undecoded): compressed bytes are never presented as text
   * @see #textStrict()
   */
  public String text() {
    requireDecoded();
    TextDecoding.Choice c = choice();
    return TextDecoding.lenient(body, c.skip(), c.charset());
  }

  /**
   * The body as text in {@code charset}, whatever the response declares; lenient like {@link #text()}.
   * A byte order mark of that charset is skipped.
   *
   * @throws ProtocolException if the body is still content-coded
   */
  public String text(Charset charset) {
    Objects.requireNonNull(charset, "charset");
    requireDecoded();
    return TextDecoding.lenient(body, TextDecoding.bomLength(body, charset), charset);
  }

  /**
   * The body as text in the charset {@link #text()} chooses, strict: for when a wrong character must
   * not pass silently (data to store, signatures, parsers that trust their input).
   *
   * @throws ProtocolException if the body is not valid in that charset (naming the charset and the offset
   *     of the first bad byte), if Content-Type declares a charset this JVM does not support, or if the
   *     body is still content-coded
   */
  public String textStrict() {
    requireDecoded();
    TextDecoding.Choice c = choice();
    if (c.unsupported() != null) {
      throw new ProtocolException("response declares charset \"" + c.unsupported() + "\", which this JVM does not "
          + "support; read it with text(Charset) (" + request + ")", request);
    }
    try {
      return TextDecoding.strict(body, c.skip(), c.charset());
    } catch (TextDecoding.MalformedTextException e) {
      throw new ProtocolException("response body is not text: " + e.getMessage() + " (" + request + ")", request, e);
    }
  }

  /**
   * The body parsed as JSON into {@code type}, by the {@link JsonCodec} on the class path.
   *
   * @throws IllegalStateException if there is no JSON codec (neither strand-jackson nor Jackson 2)
   * @throws ProtocolException if the body is not valid JSON for {@code type}, or is still content-coded
   */
  public <T> T json(Class<T> type) {
    requireDecoded();
    return dev.strand.internal.json.JsonCodecs.read(body, type, request);
  }

  /** As {@link #json(Class)} into a generic type: {@code json(new TypeRef<List<Item>>() {})}. */
  public <T> T json(TypeRef<T> type) {
    requireDecoded();
    return dev.strand.internal.json.JsonCodecs.read(body, type.type(), request);
  }

  /** Time from sending the request to having read the whole response (the last hop's). */
  public Duration elapsed() {
    return elapsed;
  }

  /** The redirect responses that led here, oldest first; empty when no redirect was followed. */
  public List<Response> history() {
    return history;
  }

  /**
   * Returns this response if its status is below 400.
   *
   * @throws HttpStatusException for 4xx and 5xx
   */
  public Response raiseForStatus() {
    if (status >= 400) {
      String kind = status < 500 ? "client error" : "server error";
      throw new HttpStatusException(status + " " + reason + " (" + kind + ") for " + request, this);
    }
    return this;
  }

  /**
   * The charset {@link #text()} decodes with: the one Content-Type declares (if this JVM supports it),
   * else the one a byte order mark names, else UTF-8 for JSON ({@code application/json}, {@code +json};
   * RFC 8259), else the client's default charset (UTF-8 unless set).
   */
  public Charset charset() {
    return choice().charset();
  }

  private TextDecoding.Choice choice() {
    return TextDecoding.choose(body, headers.first("Content-Type"),
        defaultCharset != null ? defaultCharset : StandardCharsets.UTF_8);
  }

  private void requireDecoded() {
    if (body.length == 0) {
      return;
    }
    String why = ContentEncodings.undecodable(headers.first("Content-Encoding"));
    if (why != null) {
      throw new ProtocolException("response body is still content-coded (Content-Encoding: "
          + headers.first("Content-Encoding") + "), not text: " + why + "; bytes() has it as received ("
          + request + ")", request);
    }
  }

  @Override
  public String toString() {
    return "Response{" + status + " " + reason + ", " + version + ", " + body.length + " bytes, " + request + "}";
  }

  /** Builds a {@link Response}; for transports, the client and tests. */
  public static final class Builder {
    private final int status;
    private String reason;
    // Immutable headers are kept as they are until a field is added: the client builds every
    // response from a transport's Headers, and copying them twice per response is waste.
    private Headers builtHeaders = Headers.EMPTY;
    private Headers.Builder headers;
    private Version version = Version.HTTP_1_1;
    private byte[] body = new byte[0];
    private Request request;
    private Duration elapsed = Duration.ZERO;
    private List<Response> history = List.of();
    private Headers trailers = Headers.EMPTY;
    private SSLSession sslSession;
    private Charset defaultCharset;

    private Builder(int status) {
      if (status < 100 || status > 999) {
        throw new IllegalArgumentException("status must be a 3-digit code: " + status);
      }
      this.status = status;
    }

    public Builder reason(String reason) {
      this.reason = reason;
      return this;
    }

    public Builder header(String name, String value) {
      editableHeaders().add(name, value);
      return this;
    }

    public Builder headers(Headers all) {
      builtHeaders = Objects.requireNonNull(all, "headers");
      headers = null;
      return this;
    }

    private Headers.Builder editableHeaders() {
      if (headers == null) {
        headers = builtHeaders.toBuilder();
      }
      return headers;
    }

    public Builder version(Version version) {
      this.version = Objects.requireNonNull(version);
      return this;
    }

    /** The body; the array is kept, not copied. */
    public Builder body(byte[] body) {
      this.body = Objects.requireNonNull(body);
      return this;
    }

    /** A UTF-8 text body; sets Content-Type to text/plain unless one is set. */
    public Builder body(String text) {
      if (!editableHeaders().contains("Content-Type")) {
        headers.add("Content-Type", "text/plain; charset=utf-8");
      }
      return body(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON text body with Content-Type application/json. */
    public Builder json(String jsonText) {
      editableHeaders().set("Content-Type", "application/json");
      return body(jsonText.getBytes(StandardCharsets.UTF_8));
    }

    public Builder request(Request request) {
      this.request = request;
      return this;
    }

    public Builder elapsed(Duration elapsed) {
      this.elapsed = Objects.requireNonNull(elapsed);
      return this;
    }

    public Builder history(List<Response> history) {
      this.history = Objects.requireNonNull(history);
      return this;
    }

    /** Trailer fields that followed the body. */
    public Builder trailers(Headers trailers) {
      this.trailers = Objects.requireNonNull(trailers, "trailers");
      return this;
    }

    /** The TLS session it came over; {@code null} (the default) for none. */
    public Builder sslSession(SSLSession session) {
      this.sslSession = session;
      return this;
    }

    /**
     * The charset {@link Response#text()} falls back to when neither the response nor its bytes name one
     * (default {@code null}: UTF-8). The client sets its {@link Client.Builder#defaultCharset}.
     */
    public Builder defaultCharset(Charset charset) {
      this.defaultCharset = charset;
      return this;
    }

    public Response build() {
      return new Response(this);
    }
  }
}
