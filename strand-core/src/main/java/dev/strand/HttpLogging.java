package dev.strand;

import dev.strand.internal.body.ForwardingBody;
import dev.strand.internal.client.Urls;
import dev.strand.spi.ResponseBody;
import dev.strand.spi.StreamingResponses;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A wire log of requests and responses, as an {@link Interceptor} (OkHttp's {@code HttpLoggingInterceptor}):
 * add it as an application interceptor to log each call as the caller sees it (decoded bodies, the final
 * response), or as a network interceptor to log each exchange as it goes over the wire.
 *
 * <ul>
 *   <li>{@link Level#BASIC}: one line out ({@code --> GET url (5-byte body)}), one line back
 *       ({@code <-- 200 OK url (12 ms, 186-byte body)}).
 *   <li>{@link Level#HEADERS}: and every header field.
 *   <li>{@link Level#BODY}: and the bodies, up to {@link Builder#maxBodyBytes} each (4 KiB by default). A
 *       response body is logged as the caller reads it, never buffered beyond that cap, so a 1 GiB download
 *       logs its first bytes and its size; binary or content-coded bodies are summarised, not printed.
 * </ul>
 *
 * <p><b>Secrets are redacted by default</b> at every level: the values of {@code Authorization},
 * {@code Proxy-Authorization}, {@code Cookie} and {@code Set-Cookie}, of any header or query parameter
 * named with {@link Builder#redactHeader} / {@link Builder#redactQueryParameter}, and user information in
 * URLs. {@link Builder#noRedaction()} turns that off, for a debugging session only.
 *
 * <p>Lines go to the {@code dev.strand.wire} {@link System.Logger} at {@code INFO} (route it to SLF4J or
 * Log4j with their {@code System.Logger} bridges), or to {@link Builder#sink}.
 *
 * {@snippet :
 * Client client = Client.builder()
 *     .interceptor(HttpLogging.builder().level(HttpLogging.Level.HEADERS).redactHeader("X-Api-Key").build())
 *     .build();
 * }
 */
public final class HttpLogging implements Interceptor {
  /** How much is logged. */
  public enum Level {
    NONE, BASIC, HEADERS, BODY
  }

  private static final Set<String> ALWAYS_SECRET = Set.of("authorization", "proxy-authorization", "cookie", "set-cookie");
  private static final String REDACTED = "<redacted>";

  private final Level level;
  private final Set<String> secretHeaders;
  private final Set<String> secretParams;
  private final boolean redact;
  private final int maxBodyBytes;
  private final Consumer<String> sink;

  private HttpLogging(Builder b) {
    this.level = b.level;
    this.secretHeaders = Set.copyOf(b.secretHeaders);
    this.secretParams = Set.copyOf(b.secretParams);
    this.redact = b.redact;
    this.maxBodyBytes = b.maxBodyBytes;
    this.sink = b.sink != null ? b.sink : systemLogger();
  }

  /** A log at {@code level} with the default redaction, to the {@code dev.strand.wire} logger. */
  public static HttpLogging of(Level level) {
    return builder().level(level).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  private static Consumer<String> systemLogger() {
    System.Logger log = System.getLogger("dev.strand.wire");
    return line -> log.log(System.Logger.Level.INFO, line);
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    Request request = chain.request();
    if (level == Level.NONE) {
      return chain.proceed(request);
    }
    logRequest(request);
    long start = System.nanoTime();
    return chain.proceed(request).handle((r, error) -> {
      long ms = (System.nanoTime() - start) / 1_000_000;
      if (error != null) {
        Throwable t = error.getCause() != null && error instanceof java.util.concurrent.CompletionException ? error.getCause() : error;
        log("<-- HTTP FAILED: " + t.getClass().getSimpleName() + ": " + t.getMessage() + " (" + url(request.url()) + ", " + ms + " ms)");
        return CompletableFuture.<StreamingResponse>failedFuture(error);
      }
      return CompletableFuture.completedFuture(logResponse(r, ms));
    }).thenCompose(f -> f);
  }

  private void logRequest(Request request) {
    RequestBody body = request.body();
    long length = body == null ? 0 : body.contentLength();
    String size = body == null ? "" : length >= 0 ? " (" + length + "-byte body)" : " (streamed body)";
    log("--> " + request.method() + " " + url(request.url()) + size);
    if (level.compareTo(Level.HEADERS) < 0) {
      return;
    }
    logHeaders(request.headers());
    if (level == Level.BODY && body != null) {
      byte[] bytes = body.bufferedBytes();
      log(bytes == null ? "(streamed body not logged)" : bodyText(bytes, bytes.length, request.headers()));
    }
    log("--> END " + request.method());
  }

  private StreamingResponse logResponse(StreamingResponse r, long ms) {
    long length = StreamingResponses.body(r).contentLength();
    log("<-- " + r.status() + (r.reason().isEmpty() ? "" : " " + r.reason()) + " " + url(r.request().url()) + " ("
        + ms + " ms, " + (length >= 0 ? length + "-byte" : "unknown-length") + " body)");
    if (level.compareTo(Level.HEADERS) < 0) {
      return r;
    }
    logHeaders(r.headers());
    if (level != Level.BODY) {
      log("<-- END HTTP");
      return r;
    }
    return StreamingResponses.withBody(r, r.headers(), new LoggedBody(StreamingResponses.body(r), r.headers()));
  }

  private void logHeaders(Headers headers) {
    for (int i = 0; i < headers.size(); i++) {
      String name = headers.name(i);
      log(name + ": " + (isSecret(name) ? REDACTED : headers.value(i)));
    }
  }

  private boolean isSecret(String header) {
    String n = header.toLowerCase(Locale.ROOT);
    return redact && (ALWAYS_SECRET.contains(n) || secretHeaders.contains(n));
  }

  /** The URL as it may be logged: without user information, with the named query parameters' values redacted. */
  String url(URI url) {
    if (!redact) {
      return url.toString();
    }
    String text = Urls.redacted(url);
    String query = url.getRawQuery();
    if (query == null || secretParams.isEmpty()) {
      return text;
    }
    StringBuilder q = new StringBuilder();
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (!q.isEmpty()) {
        q.append('&');
      }
      q.append(eq >= 0 && secretParams.contains(name) ? pair.substring(0, eq) + "=REDACTED" : pair);
    }
    int at = text.indexOf('?');
    int hash = text.indexOf('#', at);
    return text.substring(0, at + 1) + q + (hash < 0 ? "" : text.substring(hash));
  }

  /** A body's first bytes as text, or a summary when it is binary or content-coded. */
  private String bodyText(byte[] bytes, long total, Headers headers) {
    String coding = headers.first("Content-Encoding");
    if (coding != null && !coding.equalsIgnoreCase("identity")) {
      return "(" + total + "-byte " + coding + "-encoded body not logged)";
    }
    int n = (int) Math.min(bytes.length, maxBodyBytes);
    String text = utf8Text(bytes, n);
    if (text == null) {
      return "(" + total + "-byte binary body not logged)";
    }
    return text + (total > n ? "\n(first " + n + " of " + total + " bytes)" : "");
  }

  /** The bytes as UTF-8 text if they are printable text (a sequence cut at the cap is allowed), else null. */
  private static String utf8Text(byte[] bytes, int n) {
    try {
      String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, trimmed(bytes, n))).toString();
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
          return null;
        }
      }
      return s;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** {@code n} moved back to the start of a UTF-8 sequence the cap may have cut. */
  private static int trimmed(byte[] bytes, int n) {
    int end = n;
    for (int back = 0; back < 3 && end > 0 && end < bytes.length && (bytes[end] & 0xC0) == 0x80; back++) {
      end--;
    }
    return end;
  }

  private void log(String line) {
    try {
      sink.accept(line);
    } catch (RuntimeException ignored) { // a broken log must not break the call
    }
  }

  /** Copies the first bytes the caller reads, and logs them and the size once the body ends or closes. */
  private final class LoggedBody extends ForwardingBody {
    private final Headers headers;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private long total;
    private boolean logged;

    LoggedBody(ResponseBody body, Headers headers) {
      super(body);
      this.headers = headers;
    }

    @Override
    protected synchronized void read(byte[] piece) {
      total += piece.length;
      int room = maxBodyBytes + 3 - head.size(); // 3 more: a UTF-8 sequence cut at the cap
      if (room > 0) {
        head.write(piece, 0, Math.min(room, piece.length));
      }
    }

    @Override
    protected void ended() {
      done(true);
    }

    @Override
    protected RuntimeException failed(RuntimeException failure) {
      done(false);
      return failure;
    }

    @Override
    protected void closed() {
      done(false);
    }

    private void done(boolean ended) {
      byte[] first;
      long size;
      synchronized (this) {
        if (logged) {
          return;
        }
        logged = true;
        first = head.toByteArray();
        size = total;
      }
      if (size > 0) {
        log(bodyText(first, size, headers));
      }
      log(ended ? "<-- END HTTP (" + size + "-byte body)" : "<-- END HTTP (body closed after " + size + " bytes)");
    }
  }

  /** Collects an {@link HttpLogging}. */
  public static final class Builder {
    private Level level = Level.BASIC;
    private final Set<String> secretHeaders = new TreeSet<>();
    private final Set<String> secretParams = new TreeSet<>();
    private boolean redact = true;
    private int maxBodyBytes = 4096;
    private Consumer<String> sink;

    private Builder() {}

    public Builder level(Level level) {
      this.level = Objects.requireNonNull(level, "level");
      return this;
    }

    /** Also redacts the values of these header fields (case-insensitive). */
    public Builder redactHeader(String... names) {
      for (String n : names) {
        secretHeaders.add(n.toLowerCase(Locale.ROOT));
      }
      return this;
    }

    /** Also redacts the values of these query parameters in logged URLs. */
    public Builder redactQueryParameter(String... names) {
      secretParams.addAll(java.util.List.of(names));
      return this;
    }

    /** Logs every value as it is, credentials included: for a debugging session, never in production. */
    public Builder noRedaction() {
      this.redact = false;
      return this;
    }

    /** The most bytes of one body logged at {@link Level#BODY} (default 4096). */
    public Builder maxBodyBytes(int bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("maxBodyBytes must be >= 0: " + bytes);
      }
      this.maxBodyBytes = bytes;
      return this;
    }

    /** Where the lines go instead of the {@code dev.strand.wire} logger (must be thread-safe). */
    public Builder sink(Consumer<String> sink) {
      this.sink = Objects.requireNonNull(sink, "sink");
      return this;
    }

    public HttpLogging build() {
      return new HttpLogging(this);
    }
  }
}
