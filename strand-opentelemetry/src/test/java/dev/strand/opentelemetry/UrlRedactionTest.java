package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.semconv.UrlAttributes;
import java.net.URI;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code url.full} without credentials: user info and sensitive query values are REDACTED. */
@ExtendWith(NettyLeakDetectorExtension.class)
class UrlRedactionTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  private final UrlRedaction redaction = new UrlRedaction(Set.of("sig", "token"));

  @Test
  void userInfoAndListedParametersAreRedacted() {
    assertEquals("https://REDACTED:REDACTED@example.com/a?sig=REDACTED&b=2&token=REDACTED",
        redaction.full(URI.create("https://alice:s3cret@example.com/a?sig=abc&b=2&token=t0k")));
  }

  @Test
  void otherPartsAreKeptAsSent() {
    assertEquals("http://example.com:8080/a%20b?signature=x&sig&=v&&q=%2F",
        redaction.full(URI.create("http://example.com:8080/a%20b?signature=x&sig&=v&&q=%2F#frag")),
        "no fragment; a name without a value, an empty pair and escapes stay");
    assertEquals("http://[::1]:81/", redaction.full(URI.create("http://[::1]:81")));
    assertEquals("http://example.com/?", redaction.full(URI.create("http://example.com/?")));
  }

  @Test
  void theSpanShowsTheRedactedUrlAndTheServerGetsTheRealOne() {
    StrandTelemetry telemetry = StrandTelemetry.builder(otel.getOpenTelemetry())
        .redactQueryParameters(List.of("api_key"))
        .build();
    try (Client client = telemetry.instrument(Client.builder()).build()) {
      String echoed = client.get("http://user:pw@127.0.0.1:" + server.port() + "/echo?api_key=k3y&Signature=s&page=2").text();
      assertEquals(true, echoed.contains("\"query\": \"api_key=k3y&Signature=s&page=2\""), echoed);
    }
    // Strand turns URL credentials into Basic auth before any interceptor runs, so the span never sees them.
    assertEquals("http://127.0.0.1:" + server.port() + "/echo?api_key=REDACTED&Signature=REDACTED&page=2",
        otel.getSpans().get(0).getAttributes().get(UrlAttributes.URL_FULL));
  }
}
