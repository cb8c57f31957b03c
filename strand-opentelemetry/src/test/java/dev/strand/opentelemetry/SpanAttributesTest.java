package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.Timeout;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.NetworkAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A CLIENT span per request with the attributes and status the HTTP semantic conventions give it. */
@ExtendWith(NettyLeakDetectorExtension.class)
class SpanAttributesTest {
  /** Still incubating in the conventions, so not in the stable semconv artifact. */
  private static final AttributeKey<String> URL_TEMPLATE = AttributeKey.stringKey("url.template");

  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  private Client client(StrandTelemetry telemetry) {
    return telemetry.instrument(Client.builder()).timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(200))).build();
  }

  private SpanData onlySpan() {
    List<SpanData> spans = otel.getSpans();
    assertEquals(1, spans.size(), spans::toString);
    return spans.get(0);
  }

  @Test
  void aSuccessfulRequest() {
    try (Client client = client(StrandTelemetry.create(otel.getOpenTelemetry()))) {
      client.get(server.url("/small?x=1"));
    }
    SpanData span = onlySpan();
    assertEquals("GET", span.getName());
    assertEquals(SpanKind.CLIENT, span.getKind());
    assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
    var a = span.getAttributes();
    assertEquals("GET", a.get(HttpAttributes.HTTP_REQUEST_METHOD));
    assertEquals("127.0.0.1", a.get(ServerAttributes.SERVER_ADDRESS));
    assertEquals(server.port(), a.get(ServerAttributes.SERVER_PORT));
    assertEquals("http://127.0.0.1:" + server.port() + "/small?x=1", a.get(UrlAttributes.URL_FULL));
    assertEquals(200, a.get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE));
    assertEquals("1.1", a.get(NetworkAttributes.NETWORK_PROTOCOL_VERSION));
    assertNull(a.get(ErrorAttributes.ERROR_TYPE));
    assertNull(a.get(HttpAttributes.HTTP_REQUEST_RESEND_COUNT), "a first request is no resend");
    assertNull(a.get(URL_TEMPLATE));
    assertFalse(span.getParentSpanContext().isValid(), "no current span: a root");
  }

  @Test
  void aClientErrorStatusIsAnError() {
    try (Client client = client(StrandTelemetry.create(otel.getOpenTelemetry()))) {
      client.get(server.url("/status/404"));
    }
    SpanData span = onlySpan();
    assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
    assertEquals("404", span.getAttributes().get(ErrorAttributes.ERROR_TYPE));
    assertEquals(404, span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE));
  }

  @Test
  void aRedirectStatusIsNoError() {
    try (Client client = client(StrandTelemetry.create(otel.getOpenTelemetry()))) {
      client.get(server.url("/redirect/1"));
    }
    SpanData span = onlySpan();
    assertEquals(302, span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE));
    assertEquals(StatusCode.UNSET, span.getStatus().getStatusCode());
    assertNull(span.getAttributes().get(ErrorAttributes.ERROR_TYPE));
  }

  @Test
  void aFailureIsAnErrorNamedByItsClass() {
    try (Client client = client(StrandTelemetry.create(otel.getOpenTelemetry()))) {
      assertThrows(ReadTimeoutException.class, () -> client.get(server.url("/never")));
    }
    SpanData span = onlySpan();
    assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
    assertEquals(ReadTimeoutException.class.getName(), span.getAttributes().get(ErrorAttributes.ERROR_TYPE));
    assertNull(span.getAttributes().get(HttpAttributes.HTTP_RESPONSE_STATUS_CODE));
    assertTrue(span.getEvents().stream().anyMatch(e -> e.getName().equals("exception")), span::toString);
  }

  @Test
  void aTemplateNamesTheSpan() {
    StrandTelemetry telemetry = StrandTelemetry.builder(otel.getOpenTelemetry())
        .urlTemplate(r -> r.url().getPath().startsWith("/status/") ? "/status/{code}" : null)
        .build();
    try (Client client = client(telemetry)) {
      client.get(server.url("/status/201"));
      client.get(server.url("/small"));
    }
    List<SpanData> spans = otel.getSpans();
    assertEquals(List.of("GET /status/{code}", "GET"), spans.stream().map(SpanData::getName).toList());
    assertEquals("/status/{code}", spans.get(0).getAttributes().get(URL_TEMPLATE));
  }

  @Test
  void aMethodOutsideTheStandardOnesIsOther() {
    try (Client client = client(StrandTelemetry.create(otel.getOpenTelemetry()))) {
      client.send(Request.builder("QUERY", server.url("/echo")).body("q").build());
    }
    SpanData span = onlySpan();
    assertEquals("HTTP", span.getName());
    assertEquals("_OTHER", span.getAttributes().get(HttpAttributes.HTTP_REQUEST_METHOD));
    assertEquals("QUERY", span.getAttributes().get(HttpAttributes.HTTP_REQUEST_METHOD_ORIGINAL));
  }
}
