package dev.strand;

import dev.strand.internal.client.Urls;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable HTTP request. The URL may be relative ({@code "/users?page=2"}) when the client
 * that sends it has a {@code baseUrl}. Build variants with {@link #toBuilder()}.
 *
 * {@snippet :
 * Request r = Request.builder("QUERY", "http://127.0.0.1:8080/search")
 *     .header("Accept", "application/json")
 *     .param("limit", "10")
 *     .body(RequestBody.json("{\"q\": \"strand\"}"))
 *     .build();
 * }
 */
public final class Request {
  private final String method;
  private final URI url;
  private final Headers headers;
  private final RequestBody body;
  private final Timeout timeout;
  private final boolean expectContinue;
  private final long maxBodySize;
  private final RetryPolicy retryPolicy;
  private final ProgressListener uploadProgress;
  private final ProgressListener downloadProgress;
  private final long maxBytesPerSecond;
  /** Type → value, never sent: null when there are none (most requests), so they cost nothing. */
  private final Map<Class<?>, Object> tags;

  private Request(Builder b) {
    this.method = b.method;
    this.url = b.url;
    this.headers = b.headers.build();
    this.body = b.body;
    this.timeout = b.timeout;
    this.expectContinue = b.expectContinue;
    this.maxBodySize = b.maxBodySize;
    this.retryPolicy = b.retryPolicy;
    this.uploadProgress = b.uploadProgress;
    this.downloadProgress = b.downloadProgress;
    this.maxBytesPerSecond = b.maxBytesPerSecond;
    this.tags = b.tags;
  }

  /** A GET request. */
  public static Request get(String url) {
    return builder("GET", url).build();
  }

  /**
   * A builder for any method token, {@code QUERY} and extension methods included.
   *
   * @throws IllegalArgumentException if {@code method} is not an HTTP token
   * @throws InvalidUrlException if {@code url} cannot be parsed
   */
  public static Builder builder(String method, String url) {
    return new Builder(method, parseUrl(url));
  }

  /** As {@link #builder(String, String)} with an already parsed URL. */
  public static Builder builder(String method, URI url) {
    return new Builder(method, checkUrl(url, url == null ? null : url.toString()));
  }

  public Builder toBuilder() {
    Builder b = new Builder(method, url, headers.toBuilder()); // both checked when this request was built
    b.body = body;
    b.timeout = timeout;
    b.expectContinue = expectContinue;
    b.maxBodySize = maxBodySize;
    b.retryPolicy = retryPolicy;
    b.uploadProgress = uploadProgress;
    b.downloadProgress = downloadProgress;
    b.maxBytesPerSecond = maxBytesPerSecond;
    b.tags = tags;
    return b;
  }

  /** The method, as given (methods are case-sensitive). */
  public String method() {
    return method;
  }

  /** The URL, with query parameters added by the builder already encoded into it. */
  public URI url() {
    return url;
  }

  public Headers headers() {
    return headers;
  }

  /** The body, or {@code null} for none. */
  public RequestBody body() {
    return body;
  }

  /**
   * Whether sending this request twice has the effect of sending it once, so that it may be sent again after a
   * failure that may have reached the server: its method is idempotent by RFC 9110 §9.2.2 ({@code GET},
   * {@code HEAD}, {@code OPTIONS}, {@code TRACE}, {@code PUT}, {@code DELETE}, and the safe {@code QUERY}), or it
   * carries an {@code Idempotency-Key} header, with which the server applies a repeated write once. Every replay
   * Strand makes on its own follows this one rule: a {@link RetryPolicy}'s, and the one resend after a reused
   * connection turns out to have been closed by the server.
   */
  public boolean isIdempotent() {
    return switch (method) {
      case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "QUERY" -> true;
      default -> headers.contains("Idempotency-Key");
    };
  }

  /** This request's own timeout, or {@code null} to use the client's. */
  public Timeout timeout() {
    return timeout;
  }

  /** Whether to send {@code Expect: 100-continue} and wait for the server before sending the body. */
  public boolean expectContinue() {
    return expectContinue;
  }

  /**
   * The largest decoded body a buffered call ({@code send}) reads into memory for this request, or
   * {@code -1} to use the client's ({@link Client.Builder#maxBodySize}).
   */
  public long maxBodySize() {
    return maxBodySize;
  }

  /** This request's own retry policy, overriding the client's ({@link Client.Builder#retry}); empty to use the client's. */
  public Optional<RetryPolicy> retryPolicy() {
    return Optional.ofNullable(retryPolicy);
  }

  /** The listener for the request body's progress ({@link Builder#uploadProgress}), or {@code null}. */
  public ProgressListener uploadProgress() {
    return uploadProgress;
  }

  /** The listener for the response body's progress ({@link Builder#downloadProgress}), or {@code null}. */
  public ProgressListener downloadProgress() {
    return downloadProgress;
  }

  /** The bandwidth limit of this request's bodies ({@link Builder#maxBytesPerSecond}), {@code 0} for none. */
  public long maxBytesPerSecond() {
    return maxBytesPerSecond;
  }

  /**
   * The value tagged with {@code type} ({@link Builder#tag}), or {@code null}: data that travels with the
   * request through interceptors, listeners and the transport and is never sent, as OkHttp's tags.
   */
  public <T> T tag(Class<T> type) {
    return tags == null ? null : type.cast(tags.get(type));
  }

  /**
   * A {@code curl} command line, for a POSIX shell, that repeats this request: its method, URL, headers and body,
   * with the values of {@code Authorization}, {@code Proxy-Authorization} and {@code Cookie} and a password in
   * the URL replaced by {@code REDACTED} (an authorization keeps its scheme: {@code Bearer REDACTED}). Paste it
   * into a bug report; {@link #toCurl(boolean) toCurl(true)} keeps the secrets.
   *
   * {@snippet :
   * Request r = Request.builder("PUT", "https://api.example.org/items/7")
   *     .header("Authorization", "Bearer s3cr3t")
   *     .body(RequestBody.json("{\"name\": \"it's\"}"))
   *     .build();
   * r.toCurl();
   * // curl -X PUT 'https://api.example.org/items/7' -H 'Authorization: Bearer REDACTED'
   * //   -H 'Content-Type: application/json' --data-binary '{"name": "it'\''s"}'    (one line)
   * }
   *
   * <p>Every argument is single-quoted. A body held in memory that is UTF-8 text (tab, CR and LF are the only
   * control characters allowed) is written inline with {@code --data-binary} ({@code --data-raw} when it starts
   * with {@code @}); any other body (binary, a file, a stream, a gzip-compressed body) is not read: the command
   * says {@code --data-binary @request-body.bin} and you supply that file. The body's Content-Type is written
   * unless a header sets one ({@code -H 'Content-Type:'} when it has none, so curl adds none of its own).
   * {@code Content-Length} and {@code Transfer-Encoding} are left to curl.
   *
   * @implNote The command shows this request as built: a client's base URL, default headers, cookies, auth and
   *     {@code Accept-Encoding} are added when it is sent and do not appear, and curl adds its own
   *     {@code User-Agent} and {@code Accept} unless the request sets them. A relative URL stays relative.
   */
  public String toCurl() {
    return toCurl(false);
  }

  /** As {@link #toCurl()}; with {@code includeSecrets} the credentials are written as they are. */
  public String toCurl(boolean includeSecrets) {
    return dev.strand.internal.text.CurlCommand.of(this, includeSecrets);
  }

  /** The method and URL, with any user information in the URL masked ({@code http://***@host/}). */
  @Override
  public String toString() {
    return method + " " + Urls.redacted(url);
  }

  /**
   * Parses a URL for a request. Absolute URLs must be {@code http} or {@code https} with a host; a
   * relative URL is a path (and query), resolved later against a client's base URL.
   */
  static URI parseUrl(String url) {
    Objects.requireNonNull(url, "url");
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new InvalidUrlException("invalid URL \"" + Tokens.printable(url) + "\": " + e.getReason()
          + " at index " + e.getIndex(), url, e);
    }
    return checkUrl(uri, url);
  }

  private static URI checkUrl(URI uri, String text) {
    if (uri == null) {
      throw new InvalidUrlException("URL must not be null", null);
    }
    if (uri.isOpaque()) {
      throw new InvalidUrlException("invalid URL \"" + text + "\": not a hierarchical http(s) URL", text);
    }
    if (uri.getScheme() != null) {
      String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new InvalidUrlException(
            "invalid URL \"" + text + "\": scheme must be http or https, not " + uri.getScheme(), text);
      }
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw new InvalidUrlException("invalid URL \"" + redactedText(uri, text) + "\": no host", redactedText(uri, text));
      }
      String portProblem = Urls.portProblem(uri);
      if (portProblem != null) {
        throw new InvalidUrlException("invalid URL \"" + redactedText(uri, text) + "\": " + portProblem,
            redactedText(uri, text));
      }
    }
    return uri;
  }

  private static String redactedText(URI uri, String text) {
    return uri.getRawUserInfo() == null ? text : Urls.redacted(uri);
  }

  /** Collects the parts of a request. Not thread-safe; {@link #build()} makes an immutable copy. */
  public static final class Builder {
    private final String method;
    private URI url;
    private Headers.Builder headers;
    private RequestBody body;
    private Timeout timeout;
    private boolean expectContinue;
    private long maxBodySize = -1;
    private RetryPolicy retryPolicy;
    private ProgressListener uploadProgress;
    private ProgressListener downloadProgress;
    private long maxBytesPerSecond;
    /**
     * Immutable, shared with the requests built and the builders copied from them (a copy costs nothing); a
     * change makes a new map. Null when there are none.
     */
    private Map<Class<?>, Object> tags;

    private Builder(String method, URI url) {
      Objects.requireNonNull(method, "method");
      if (!Tokens.isToken(method)) {
        throw new IllegalArgumentException("method is not a valid HTTP token: \"" + Tokens.printable(method) + "\"");
      }
      this.method = method;
      this.url = url;
      this.headers = Headers.builder();
    }

    private Builder(String method, URI url, Headers.Builder headers) {
      this.method = method;
      this.url = url;
      this.headers = headers;
    }

    /** Appends a header field (a name may repeat). */
    public Builder header(String name, String value) {
      headers.add(name, value);
      return this;
    }

    /** Replaces every field named {@code name}. */
    public Builder setHeader(String name, String value) {
      headers.set(name, value);
      return this;
    }

    public Builder removeHeader(String name) {
      headers.remove(name);
      return this;
    }

    public Builder headers(Headers all) {
      headers.addAll(all);
      return this;
    }

    /** Appends a query parameter, percent-encoding name and value. */
    public Builder param(String name, String value) {
      Objects.requireNonNull(name, "param name");
      Objects.requireNonNull(value, () -> "value of param " + name);
      String pair = URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20") + "="
          + URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
      String raw = url.getRawQuery();
      String query = raw == null || raw.isEmpty() ? pair : raw + "&" + pair;
      url = withRawQuery(url, query);
      return this;
    }

    /** Appends each entry as a query parameter. */
    public Builder params(Map<String, String> params) {
      params.forEach(this::param);
      return this;
    }

    /** Sets the body, and its Content-Type unless a Content-Type header is already set. */
    public Builder body(RequestBody body) {
      this.body = body;
      return this;
    }

    /**
     * Compresses the body set so far with gzip ({@link RequestBody#gzip}) and sets {@code Content-Encoding: gzip},
     * as OkHttp's {@code Request.Builder.gzip()}. Call it after {@link #body}; a later {@code body(...)} replaces
     * the compressed body but not the header.
     *
     * {@snippet :
     * Request r = Request.builder("POST", "https://logs.example.org/ingest")
     *     .body(RequestBody.of(largeJson, "application/json"))
     *     .gzip()
     *     .build();
     * }
     *
     * @throws IllegalStateException if there is no body yet, or a Content-Encoding is already set
     */
    public Builder gzip() {
      if (body == null) {
        throw new IllegalStateException("gzip() compresses the body: set one first");
      }
      if (headers.contains("Content-Encoding")) {
        throw new IllegalStateException("the request already has a Content-Encoding");
      }
      body = RequestBody.gzip(body);
      headers.set("Content-Encoding", "gzip");
      return this;
    }

    /** Shortcut for {@code body(RequestBody.of(text))}. */
    public Builder body(String text) {
      return body(RequestBody.of(text));
    }

    /** Shortcut for {@code body(RequestBody.of(bytes))}. */
    public Builder body(byte[] bytes) {
      return body(RequestBody.of(bytes));
    }

    /** This request's timeout, overriding the client's. */
    public Builder timeout(Timeout timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Send {@code Expect: 100-continue} and hold the body until the server agrees. */
    public Builder expectContinue(boolean expectContinue) {
      this.expectContinue = expectContinue;
      return this;
    }

    /**
     * The largest decoded body {@code send} reads into memory for this request, overriding the
     * client's limit; a larger one fails with {@link ProtocolException}. Streamed calls are not limited.
     */
    public Builder maxBodySize(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxBodySize must be >= 0: " + bytes);
      }
      this.maxBodySize = bytes;
      return this;
    }

    /**
     * How this request is retried, overriding the client's policy ({@link Client.Builder#retry});
     * {@link RetryPolicy#none()} turns retries off for it. Its retries draw on the client's
     * {@linkplain Client.Builder#retryBudget budget}, as all retries do, so that no request can spend more
     * than the client's share on a failing server.
     */
    public Builder retry(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy (use RetryPolicy.none() for none)");
      return this;
    }

    /**
     * Reports how much of the request body has been sent ({@code null} for no listener); see
     * {@link ProgressListener} for when and where it is called.
     *
     * {@snippet :
     * Request r = Request.builder("PUT", "https://example.org/upload")
     *     .body(RequestBody.ofFile(Path.of("video.mp4")))
     *     .uploadProgress((sent, total) -> System.err.printf("\rsent %d of %d", sent, total))
     *     .build();
     * }
     *
     * <p>{@code bytes} counts body bytes as the transport takes them from the body to write (before any framing:
     * chunk headers, HTTP/2 frames, TLS); {@code total} is the body's length ({@code -1} for a stream of unknown
     * length). Each time the body is sent again (a retry, a 307 or 308 redirect, an answer to an auth challenge)
     * the count starts again from {@code 0}: only within one sending does it never decrease.
     *
     * @implNote A request with an upload listener has its body pumped by a virtual thread from its stream, even
     *     a body held in memory, and counted as that thread takes it: at most 128 KiB ahead of the socket.
     */
    public Builder uploadProgress(ProgressListener listener) {
      this.uploadProgress = listener;
      return this;
    }

    /**
     * Reports how much of the response body has been received ({@code null} for no listener); see
     * {@link ProgressListener} for when and where it is called.
     *
     * {@snippet :
     * Request r = Request.builder("GET", "https://example.org/big.iso")
     *     .downloadProgress((got, total) -> System.err.printf("\r%d%%", total > 0 ? 100 * got / total : 0))
     *     .build();
     * }
     *
     * <p>As curl does, {@code bytes} counts the body as it came off the wire, before a Content-Encoding is
     * decoded, and {@code total} is the response's Content-Length ({@code -1} when it has none): for a gzip
     * response both are compressed sizes, and the bytes the caller reads may be more. Only the final response's
     * body is reported: the bodies of redirects and auth challenges, which Strand reads and discards, are not,
     * so the count never decreases during the call.
     *
     * @implNote The count grows as the caller (or, for {@code send}, a virtual thread of Strand's) takes each
     *     chunk from the transport, which reads ahead at most 256 KiB.
     */
    public Builder downloadProgress(ProgressListener listener) {
      this.downloadProgress = listener;
      return this;
    }

    /**
     * Limits this request's transfer rate: the response body is handed to the reader, and the request body taken
     * by the transport, at most {@code bytesPerSecond} on average ({@code 0} for no limit, the default), as curl's
     * {@code --limit-rate}. A token bucket lets through at most a tenth of a second's worth in a burst.
     *
     * {@snippet :
     * Request r = Request.builder("GET", "https://example.org/big.iso")
     *     .maxBytesPerSecond(512 * 1024)   // 512 KiB/s
     *     .build();
     * }
     *
     * <p>No I/O thread ever waits for it: the response body waits on the reading thread (a virtual thread of
     * Strand's for {@code send}), the request body on the virtual thread that pumps it. The limit applies to each
     * direction separately, per response and per sending of the body.
     *
     * @implNote The limit paces the hand-over of body bytes; the connection stops reading once 256 KiB wait
     *     unread, so the network follows within that much. A response of known length up to 64 KiB is read
     *     off the socket whole, and paced only on its way to the caller. On HTTP/2, other streams of the
     *     connection are not slowed.
     * @throws IllegalArgumentException if {@code bytesPerSecond} is negative
     */
    public Builder maxBytesPerSecond(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("maxBytesPerSecond must be >= 0 (0 for no limit): " + bytesPerSecond);
      }
      this.maxBytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * Attaches {@code value} under {@code type} ({@code null} removes it); see {@link Request#tag}. Copies made
     * with {@link Request#toBuilder()}, and the requests Strand derives (redirect hops, retries), keep the tags.
     */
    public <T> Builder tag(Class<T> type, T value) {
      Objects.requireNonNull(type, "type");
      if (tags == null) {
        if (value != null) {
          tags = Map.of(type, type.cast(value)); // the usual case: one tag
        }
      } else if (value != null || tags.containsKey(type)) {
        Map<Class<?>, Object> changed = new java.util.HashMap<>(tags);
        if (value == null) {
          changed.remove(type);
        } else {
          changed.put(type, type.cast(value));
        }
        tags = changed.isEmpty() ? null : Map.copyOf(changed);
      }
      return this;
    }

    /** Copies every tag of {@code other} onto this builder (for a request derived from {@code other}). */
    public Builder tags(Request other) {
      if (other.tags != null) {
        if (tags == null) {
          tags = other.tags;
        } else {
          Map<Class<?>, Object> merged = new java.util.HashMap<>(tags);
          merged.putAll(other.tags);
          tags = Map.copyOf(merged);
        }
      }
      return this;
    }

    public Request build() {
      return new Request(this);
    }
  }

  static URI withRawQuery(URI url, String rawQuery) {
    StringBuilder sb = new StringBuilder();
    if (url.getScheme() != null) {
      sb.append(url.getScheme()).append(':');
    }
    if (url.getRawAuthority() != null) {
      sb.append("//").append(url.getRawAuthority());
    }
    sb.append(url.getRawPath() == null ? "" : url.getRawPath());
    if (rawQuery != null) {
      sb.append('?').append(rawQuery);
    }
    if (url.getRawFragment() != null) {
      sb.append('#').append(url.getRawFragment());
    }
    return URI.create(sb.toString());
  }
}
