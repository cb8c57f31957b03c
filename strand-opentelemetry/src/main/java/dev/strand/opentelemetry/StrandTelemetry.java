package dev.strand.opentelemetry;

import dev.strand.Client;
import dev.strand.Request;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * OpenTelemetry for a Strand client, following the semantic conventions for HTTP clients: a span of kind
 * CLIENT for each request sent (every retry and every redirect hop is its own span), the W3C trace context
 * (or whatever {@link OpenTelemetry#getPropagators()} holds) injected into each, and the
 * {@code http.client.request.duration} histogram (seconds) recorded for each.
 *
 * <p>A span is named by the method ({@code GET}; {@code HTTP} for a method outside the standard nine), or
 * {@code GET /users/{id}} when {@link Builder#urlTemplate} names the route, and carries:
 * <ul>
 *   <li>{@code http.request.method} ({@code _OTHER}, with {@code http.request.method_original}, for a
 *       non-standard one), {@code server.address}, {@code server.port}, {@code url.full} (user info and the
 *       {@linkplain Builder#redactQueryParameters sensitive query parameters}' values replaced by
 *       {@code REDACTED}), {@code url.template} when there is one;
 *   <li>{@code http.request.resend_count} from the second request of a call on (a retry or a redirect);
 *   <li>{@code http.response.status_code} and {@code network.protocol.version} ({@code 1.1}, {@code 2});
 *   <li>{@code error.type}: the status code for a status of 400 or more, else the exception's class name
 *       when no response came; the span's status is then ERROR (and the exception recorded).
 * </ul>
 * The histogram has {@code http.request.method}, {@code server.address}, {@code server.port},
 * {@code http.response.status_code}, {@code network.protocol.version}, {@code error.type} and, when there is
 * one, {@code url.template}.
 *
 * <p><b>Parents.</b> Each span is a child of the context current when the call started, on the caller's
 * thread: for blocking and async calls alike, on platform or virtual threads, though retries and redirect
 * hops are sent from Strand's I/O threads, where that context is not current. There is no span for the
 * call as a whole: the conventions give none, and the caller's own span is that parent already.
 *
 * {@snippet :
 * StrandTelemetry telemetry = StrandTelemetry.builder(openTelemetry)
 *     .urlTemplate(request -> request.url().getPath().startsWith("/users/") ? "/users/{id}" : null)
 *     .redactQueryParameters(List.of("token"))
 *     .build();
 * Client client = telemetry.instrument(Client.builder()).build();
 * }
 *
 * @implNote {@link #instrument} adds an application interceptor, which captures the caller's context, and
 *     a network interceptor, which makes each span. The first hands the second the call's context as a
 *     request tag ({@link dev.strand.Request#tag}), which travels with redirect hops and retries and is
 *     never sent. A span ends when its response's head arrives (the body is read later, by the caller).
 */
public final class StrandTelemetry {
  /** The query parameters whose values the conventions redact in {@code url.full} by default. */
  public static final Set<String> DEFAULT_REDACTED_QUERY_PARAMETERS =
      Set.of("AWSAccessKeyId", "Signature", "sig", "X-Goog-Signature");

  private final CallContexts calls = new CallContexts();
  private final SpanInterceptor spans;

  private StrandTelemetry(Builder b) {
    this.spans = new SpanInterceptor(b.openTelemetry, b.urlTemplate, new UrlRedaction(b.redacted));
  }

  /** Telemetry through {@code openTelemetry}: see {@link Builder} for the options. */
  public static Builder builder(OpenTelemetry openTelemetry) {
    return new Builder(openTelemetry);
  }

  /** Telemetry through {@code openTelemetry}, with the default redactions and no URL template. */
  public static StrandTelemetry create(OpenTelemetry openTelemetry) {
    return builder(openTelemetry).build();
  }

  /**
   * Adds this telemetry's two interceptors to {@code builder}: an application interceptor (where it stands
   * among the others does not matter) and a network interceptor, after those already added, so its span
   * times the exchange as the transport sees it. Call it once per client, after adding your own network
   * interceptors.
   */
  public Client.Builder instrument(Client.Builder builder) {
    return builder.interceptor(calls).networkInterceptor(spans);
  }

  /** Options of {@link StrandTelemetry}. */
  public static final class Builder {
    private final OpenTelemetry openTelemetry;
    private Function<Request, String> urlTemplate;
    private final Set<String> redacted = new LinkedHashSet<>(DEFAULT_REDACTED_QUERY_PARAMETERS);

    private Builder(OpenTelemetry openTelemetry) {
      this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    }

    /**
     * Names a request's route ({@code url.template}, such as {@code /users/{id}}), which then names its span
     * and joins the histogram's attributes (default none). It must give few distinct values; one that
     * answers null or throws names no route for that request.
     */
    public Builder urlTemplate(Function<Request, String> template) {
      this.urlTemplate = Objects.requireNonNull(template, "template");
      return this;
    }

    /**
     * Query parameters whose values {@code url.full} shows as {@code REDACTED}, beside
     * {@link #DEFAULT_REDACTED_QUERY_PARAMETERS} (names match exactly, as sent).
     */
    public Builder redactQueryParameters(Collection<String> names) {
      for (String name : List.copyOf(names)) {
        redacted.add(name);
      }
      return this;
    }

    public StrandTelemetry build() {
      return new StrandTelemetry(this);
    }
  }
}
