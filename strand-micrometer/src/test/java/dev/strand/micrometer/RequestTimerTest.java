package dev.strand.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.Request;
import dev.strand.RetryPolicy;
import dev.strand.Timeout;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The {@code http.client.requests} timer: one sample per call, with Micrometer's HTTP client tags. */
@ExtendWith(NettyLeakDetectorExtension.class)
class RequestTimerTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Timer timer(String... tags) {
    return registry.get(StrandMetrics.REQUESTS).tags(tags).timer();
  }

  @Test
  void aSuccessfulCallIsTimedWithTheStandardTags() {
    StrandMetrics metrics = StrandMetrics.of(registry);
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      client.get(server.url("/small"));
      // Read at once: the sample must be in before the caller sees the response.
      Timer timer = timer("method", "GET", "status", "200", "outcome", "SUCCESS", "exception", "none",
          "uri", "NONE", "client.name", "127.0.0.1");
      assertEquals(1, timer.count());
      assertTrue(timer.totalTime(TimeUnit.NANOSECONDS) > 0);
      assertEquals(1, registry.getMeters().size(), "one timer, no other meter without bind: " + registry.getMetersAsString());
    }
  }

  @Test
  void statusesGiveTheirOutcomes() {
    StrandMetrics metrics = StrandMetrics.builder(registry).clientName("testkit").build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      client.get(server.url("/status/404"));
      client.get(server.url("/status/503"));
      client.get(server.url("/status/204"));
      client.async().get(server.url("/status/404")).join();
    }
    assertEquals(2, timer("status", "404", "outcome", "CLIENT_ERROR", "client.name", "testkit").count());
    assertEquals(1, timer("status", "503", "outcome", "SERVER_ERROR").count());
    assertEquals(1, timer("status", "204", "outcome", "SUCCESS").count());
  }

  @Test
  void aFailedCallIsTimedWithItsException() {
    StrandMetrics metrics = StrandMetrics.of(registry);
    try (Client client = Client.builder().interceptor(metrics.interceptor())
        .timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(100))).build()) {
      assertThrows(ReadTimeoutException.class, () -> client.get(server.url("/never")));
    }
    Timer timer = timer("exception", "ReadTimeoutException", "status", "CLIENT_ERROR", "outcome", "UNKNOWN");
    assertEquals(1, timer.count());
    assertTrue(timer.totalTime(TimeUnit.MILLISECONDS) >= 90, "timed to the failure: " + timer.totalTime(TimeUnit.MILLISECONDS));
  }

  @Test
  void theUriTagIsTheTemplateNeverThePath() {
    StrandMetrics metrics = StrandMetrics.builder(registry)
        .uriTemplate(r -> r.url().getPath().startsWith("/status/") ? "/status/{code}" : null)
        .build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      client.get(server.url("/status/200"));
      client.get(server.url("/status/201"));
      client.get(server.url("/small?id=1"));
    }
    assertEquals(1, timer("uri", "/status/{code}", "status", "200").count());
    assertEquals(1, timer("uri", "/status/{code}", "status", "201").count());
    assertEquals(1, timer("uri", "NONE", "status", "200").count(), "a template answering null gives NONE");
    assertTrue(registry.find(StrandMetrics.REQUESTS).timers().stream()
            .noneMatch(t -> t.getId().getTag("uri").startsWith("/small")),
        registry.getMetersAsString());
  }

  @Test
  void retriesAndRedirectsAreOneCall() {
    StrandMetrics metrics = StrandMetrics.of(registry);
    RetryPolicy retry = RetryPolicy.defaults().toBuilder().maxAttempts(3).fixedDelay(Duration.ofMillis(1)).build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).retry(retry).followRedirects(true).build()) {
      client.get(server.url("/status/503"));
      client.send(Request.builder("POST", server.url("/redirect/2")).body("x").build());
    }
    assertEquals(1, timer("status", "503").count(), "three attempts, one call");
    assertEquals(1, timer("status", "200", "method", "POST").count(), "the final response of two redirects");
    assertEquals(2, registry.find(StrandMetrics.REQUESTS).timers().size(), registry.getMetersAsString());
  }

  @Test
  void tagsAreTheOnesMicrometersClientInstrumentationsUse() {
    StrandMetrics metrics = StrandMetrics.of(registry);
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      client.get(server.url("/small"));
    }
    Tags expected = Tags.of("method", "GET", "uri", "NONE", "status", "200", "outcome", "SUCCESS",
        "exception", "none", "client.name", "127.0.0.1");
    assertEquals(expected.stream().map(Tag::getKey).sorted().toList(),
        timer().getId().getTags().stream().map(Tag::getKey).sorted().toList());
  }
}
