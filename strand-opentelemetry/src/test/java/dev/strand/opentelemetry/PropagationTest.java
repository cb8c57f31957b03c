package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.Response;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each request carries its own span's context, in the propagator's format; the adapter's own header stays home. */
@ExtendWith(NettyLeakDetectorExtension.class)
class PropagationTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  @Test
  void theServerSeesTheRequestSpansTraceparent() {
    Span caller = otel.getOpenTelemetry().getTracer("test").spanBuilder("caller").startSpan();
    String echoed;
    try (Client client = StrandTelemetry.create(otel.getOpenTelemetry()).instrument(Client.builder()).build();
        Scope ignored = caller.makeCurrent()) {
      echoed = client.get(server.url("/headers")).text();
    } finally {
      caller.end();
    }
    SpanData request = otel.getSpans().stream().filter(s -> s.getName().equals("GET")).findFirst().orElseThrow();
    SpanContext sent = request.getSpanContext();
    assertTrue(echoed.contains("\"traceparent\": [\"00-" + sent.getTraceId() + "-" + sent.getSpanId() + "-"), echoed);
    assertEquals(caller.getSpanContext().getTraceId(), sent.getTraceId());
    assertFalse(echoed.contains("strand-otel-call"), echoed);
  }

  @Test
  void theCallHeaderReachesNeitherTheWireNorTheHooksNorTheResponse() {
    AtomicReference<String> hooked = new AtomicReference<>("unset");
    StrandTelemetry telemetry = StrandTelemetry.create(otel.getOpenTelemetry());
    Response response;
    try (Client client = telemetry.instrument(Client.builder())
        .onRequest(r -> hooked.set(String.valueOf(r.headers().first("strand-otel-call"))))
        .followRedirects(true).build()) {
      response = client.get(server.url("/redirect/1"));
    }
    assertFalse(response.text().contains("strand-otel-call"), response.text());
    assertEquals("null", hooked.get());
    assertEquals(null, response.request().headers().first("strand-otel-call"));
    assertEquals(2, otel.getSpans().size());
  }
}
