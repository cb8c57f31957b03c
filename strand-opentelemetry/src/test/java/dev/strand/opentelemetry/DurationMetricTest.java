package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.Timeout;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
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

/** {@code http.client.request.duration}: seconds, one sample per request, with the conventions' attributes. */
@ExtendWith(NettyLeakDetectorExtension.class)
class DurationMetricTest {
  /** Still incubating in the conventions, so not in the stable semconv artifact. */
  private static final AttributeKey<String> URL_TEMPLATE = AttributeKey.stringKey("url.template");

  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  @Test
  void oneSamplePerRequestWithTheConventionsAttributes() {
    StrandTelemetry telemetry = StrandTelemetry.builder(otel.getOpenTelemetry()).urlTemplate(r -> "/route").build();
    try (Client client = telemetry.instrument(Client.builder()).timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(100))).build()) {
      client.get(server.url("/small?secret=1"));
      client.get(server.url("/small"));
      client.get(server.url("/status/404"));
      try {
        client.get(server.url("/never"));
      } catch (ReadTimeoutException expected) {
        // recorded all the same
      }
    }
    MetricData metric = otel.getMetrics().stream()
        .filter(m -> m.getName().equals("http.client.request.duration")).findFirst().orElseThrow();
    assertEquals("s", metric.getUnit());
    List<HistogramPointData> points = List.copyOf(metric.getHistogramData().getPoints());
    assertEquals(3, points.size(), points::toString);
    Attributes base = Attributes.builder()
        .put(HttpAttributes.HTTP_REQUEST_METHOD, "GET")
        .put(ServerAttributes.SERVER_ADDRESS, "127.0.0.1")
        .put(ServerAttributes.SERVER_PORT, (long) server.port())
        .put(URL_TEMPLATE, "/route")
        .build();
    HistogramPointData ok = point(points, base.toBuilder()
        .put(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, 200L).put(NetworkAttributes.NETWORK_PROTOCOL_VERSION, "1.1").build());
    assertEquals(2, ok.getCount());
    assertTrue(ok.getSum() > 0 && ok.getSum() < 5, "seconds: " + ok.getSum());
    assertEquals(List.of(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0), ok.getBoundaries());
    assertEquals(1, point(points, base.toBuilder().put(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, 404L)
        .put(NetworkAttributes.NETWORK_PROTOCOL_VERSION, "1.1").put(ErrorAttributes.ERROR_TYPE, "404").build()).getCount());
    HistogramPointData failed = point(points, base.toBuilder().put(ErrorAttributes.ERROR_TYPE, ReadTimeoutException.class.getName()).build());
    assertEquals(1, failed.getCount());
    assertTrue(failed.getSum() >= 0.09, "timed to the failure: " + failed.getSum());
  }

  private static HistogramPointData point(List<HistogramPointData> points, Attributes attributes) {
    return points.stream().filter(p -> p.getAttributes().equals(attributes)).findFirst()
        .orElseThrow(() -> new AssertionError("no point with " + attributes + " in " + points));
  }
}
