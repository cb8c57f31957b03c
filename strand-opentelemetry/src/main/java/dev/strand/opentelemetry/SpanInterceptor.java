package dev.strand.opentelemetry;

import dev.strand.Interceptor;
import dev.strand.Request;
import dev.strand.ResponseHead;
import dev.strand.StreamingResponse;
import dev.strand.Version;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * The network interceptor of {@link StrandTelemetry}: one CLIENT span and one duration sample per request
 * sent, the span a child of the call's context ({@link CallContexts}) and its context injected into the
 * request's headers.
 */
final class SpanInterceptor implements Interceptor {
  static final String SCOPE = "dev.strand.opentelemetry";

  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> METHOD_ORIGINAL = AttributeKey.stringKey("http.request.method_original");
  static final AttributeKey<Long> RESEND_COUNT = AttributeKey.longKey("http.request.resend_count");
  static final AttributeKey<Long> STATUS_CODE = AttributeKey.longKey("http.response.status_code");
  static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
  static final AttributeKey<String> URL_TEMPLATE = AttributeKey.stringKey("url.template");
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("network.protocol.version");

  /** The methods the conventions know (RFC 9110 and PATCH); others are {@code _OTHER}. */
  private static final Set<String> KNOWN_METHODS =
      Set.of("CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE");
  /** The conventions' advice for {@code http.client.request.duration}, in seconds. */
  private static final List<Double> BUCKETS =
      List.of(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0);
  private static final TextMapSetter<Request.Builder> SET_HEADER = (builder, name, value) -> {
    if (builder != null) {
      builder.setHeader(name, value);
    }
  };

  private final Tracer tracer;
  private final DoubleHistogram duration;
  private final TextMapPropagator propagator;
  private final Function<Request, String> urlTemplate;
  private final UrlRedaction redaction;
  private final Failures failures = new Failures();

  SpanInterceptor(OpenTelemetry otel, Function<Request, String> urlTemplate, UrlRedaction redaction) {
    this.tracer = otel.getTracer(SCOPE);
    this.duration = otel.getMeter(SCOPE).histogramBuilder("http.client.request.duration")
        .setUnit("s")
        .setDescription("Duration of HTTP client requests.")
        .setExplicitBucketBoundariesAdvice(BUCKETS)
        .build();
    this.propagator = otel.getPropagators().getTextMapPropagator();
    this.urlTemplate = urlTemplate;
    this.redaction = redaction;
  }

  @Override
  public CompletableFuture<StreamingResponse> intercept(Chain chain) {
    Request request = chain.request();
    CallContexts.Call call = CallContexts.of(request);
    Request.Builder out = request.toBuilder();
    Context parent = call != null ? call.parent : Context.current();
    int resends = call != null ? call.sent.getAndIncrement() : chain.attempt() - 1;

    String template = template(request);
    Attributes common = commonAttributes(request, template);
    Span span = null;
    Context context;
    try {
      span = tracer.spanBuilder(spanName(request, template))
          .setSpanKind(SpanKind.CLIENT)
          .setParent(parent)
          .setAllAttributes(spanAttributes(request, common, resends))
          .startSpan();
      context = parent.with(span);
      propagator.inject(context, out, SET_HEADER);
    } catch (RuntimeException e) {
      failures.record("starting a span", e);
      if (span != null) {
        span.end();
      }
      return chain.proceed(out.build());
    }
    Span started = span;
    long start = System.nanoTime();
    CompletableFuture<StreamingResponse> response;
    try (Scope ignored = context.makeCurrent()) {
      response = chain.proceed(out.build());
    } catch (RuntimeException | Error e) {
      end(started, common, start, null, e);
      throw e;
    }
    // The caller's future depends on the one returned, so the span has ended before the caller sees the response.
    return response.whenComplete((r, e) -> end(started, common, start, r, e));
  }

  private Attributes spanAttributes(Request request, Attributes common, int resends) {
    AttributesBuilder b = common.toBuilder().put(URL_FULL, redaction.full(request.url()));
    if (!KNOWN_METHODS.contains(request.method())) {
      b.put(METHOD_ORIGINAL, request.method());
    }
    if (resends > 0) {
      b.put(RESEND_COUNT, resends);
    }
    return b.build();
  }

  private void end(Span span, Attributes common, long startNanos, ResponseHead response, Throwable error) {
    try {
      record(span, common, startNanos, response, error);
    } catch (RuntimeException e) {
      failures.record("ending a span", e);
    }
  }

  private void record(Span span, Attributes common, long startNanos, ResponseHead response, Throwable error) {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    AttributesBuilder result = Attributes.builder();
    if (response != null) {
      result.put(STATUS_CODE, response.status());
      String version = protocolVersion(response.version());
      if (version != null) {
        result.put(PROTOCOL_VERSION, version);
      }
      if (response.status() >= 400) {
        result.put(ERROR_TYPE, Integer.toString(response.status()));
      }
    } else if (error != null) {
      result.put(ERROR_TYPE, unwrap(error).getClass().getName());
    }
    Attributes ended = result.build();
    span.setAllAttributes(ended);
    if (error != null) {
      span.recordException(unwrap(error));
      span.setStatus(StatusCode.ERROR, String.valueOf(unwrap(error).getMessage()));
    } else if (response != null && response.status() >= 400) {
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
    duration.record(seconds, common.toBuilder().putAll(ended).build());
  }

  private String template(Request request) {
    if (urlTemplate == null) {
      return null;
    }
    try {
      return urlTemplate.apply(request);
    } catch (RuntimeException e) {
      return null; // the template is the caller's code: its bug names no route, and must not fail the request
    }
  }

  /** What both the span and the histogram carry from the request. */
  private static Attributes commonAttributes(Request request, String template) {
    URI url = request.url();
    AttributesBuilder b = Attributes.builder()
        .put(METHOD, KNOWN_METHODS.contains(request.method()) ? request.method() : "_OTHER")
        .put(SERVER_ADDRESS, host(url))
        .put(SERVER_PORT, port(url));
    if (template != null) {
      b.put(URL_TEMPLATE, template);
    }
    return b.build();
  }

  private static String spanName(Request request, String template) {
    String method = KNOWN_METHODS.contains(request.method()) ? request.method() : "HTTP";
    return template == null ? method : method + " " + template;
  }

  private static String host(URI url) {
    String host = url.getHost();
    return host != null && host.startsWith("[") ? host.substring(1, host.length() - 1) : String.valueOf(host);
  }

  private static long port(URI url) {
    if (url.getPort() >= 0) {
      return url.getPort();
    }
    return "https".equalsIgnoreCase(url.getScheme()) || "wss".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
  }

  private static String protocolVersion(Version version) {
    return switch (version) {
      case HTTP_1_0 -> "1.0";
      case HTTP_1_1 -> "1.1";
      case HTTP_2 -> "2";
      case HTTP_3 -> "3";
      case null -> null;
    };
  }

  private static Throwable unwrap(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  @Override
  public String toString() {
    return "StrandTelemetry (spans)";
  }
}
