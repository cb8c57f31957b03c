package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.RetryPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A span per request sent: each retry and each redirect hop, counted by {@code http.request.resend_count}. */
@ExtendWith(NettyLeakDetectorExtension.class)
class ResendTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  private static List<Long> resendCounts(List<SpanData> spans) {
    return spans.stream().map(s -> s.getAttributes().get(HttpAttributes.HTTP_REQUEST_RESEND_COUNT)).toList();
  }

  @Test
  void eachRetryIsASpan() {
    RetryPolicy retry = RetryPolicy.defaults().toBuilder().maxAttempts(3).fixedDelay(Duration.ofMillis(1)).build();
    Span caller = otel.getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
    try (Client client = StrandTelemetry.create(otel.getOpenTelemetry()).instrument(Client.builder()).retry(retry).build();
        Scope current = caller.makeCurrent()) {
      assertEquals(503, client.get(server.url("/status/503")).status(), current::toString);
    } finally {
      caller.end();
    }
    List<SpanData> spans = otel.getSpans().stream().filter(s -> s.getKind() == SpanKind.CLIENT).toList();
    assertEquals(Arrays.asList(null, 1L, 2L), resendCounts(spans));
    spans.forEach(s -> assertEquals(503L, s.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE)));
    spans.forEach(s -> assertEquals(caller.getSpanContext().getSpanId(), s.getParentSpanId(), "siblings under the caller"));
  }

  @Test
  void eachRedirectHopIsASpan() {
    try (Client client = StrandTelemetry.create(otel.getOpenTelemetry()).instrument(Client.builder()).followRedirects(true).build()) {
      client.get(server.url("/redirect/2"));
    }
    List<SpanData> spans = otel.getSpans();
    assertEquals(Arrays.asList(null, 1L, 2L), resendCounts(spans));
    assertEquals(List.of(302L, 302L, 200L),
        spans.stream().map(s -> s.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE)).toList());
    String base = "http://127.0.0.1:" + server.port();
    assertEquals(List.of(base + "/redirect/2", base + "/redirect/1", base + "/echo"),
        spans.stream().map(s -> s.getAttributes().get(UrlAttributes.URL_FULL)).toList());
  }
}
