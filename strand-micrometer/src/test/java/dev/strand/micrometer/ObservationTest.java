package dev.strand.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.ReadTimeoutException;
import dev.strand.RetryPolicy;
import dev.strand.Timeout;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.transport.SenderContext;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An Observation per call: its context, key values, parent, propagation and the timer a meter handler makes of it. */
@ExtendWith(NettyLeakDetectorExtension.class)
class ObservationTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  private final TestObservationRegistry registry = TestObservationRegistry.create();

  @Test
  void aCallIsOneObservationWithTheStandardKeyValues() {
    StrandObservation observation = StrandObservation.builder(registry).uriTemplate(r -> "/status/{code}").build();
    RetryPolicy retry = RetryPolicy.defaults().toBuilder().maxAttempts(2).fixedDelay(Duration.ofMillis(1)).build();
    try (Client client = Client.builder().interceptor(observation.interceptor()).retry(retry).build()) {
      client.get(server.url("/status/503?token=secret"));
    }
    assertThat(registry).hasNumberOfObservationsEqualTo(1)
        .hasSingleObservationThat()
        .hasNameEqualTo("http.client.requests")
        .hasContextualNameEqualTo("http get")
        .hasBeenStarted()
        .hasBeenStopped()
        .doesNotHaveError()
        .hasLowCardinalityKeyValue("method", "GET")
        .hasLowCardinalityKeyValue("uri", "/status/{code}")
        .hasLowCardinalityKeyValue("status", "503")
        .hasLowCardinalityKeyValue("outcome", "SERVER_ERROR")
        .hasLowCardinalityKeyValue("exception", "none")
        .hasLowCardinalityKeyValue("client.name", "127.0.0.1")
        .hasHighCardinalityKeyValue("http.url", "http://127.0.0.1:" + server.port() + "/status/503");
  }

  @Test
  void aFailedCallIsAnObservationWithAnError() {
    StrandObservation observation = StrandObservation.of(registry);
    try (Client client = Client.builder().interceptor(observation.interceptor())
        .timeout(Timeout.DEFAULT.withRead(Duration.ofMillis(100))).build()) {
      assertThrows(ReadTimeoutException.class, () -> client.get(server.url("/never")));
    }
    assertThat(registry).hasSingleObservationThat()
        .hasError()
        .hasLowCardinalityKeyValue("exception", "ReadTimeoutException")
        .hasLowCardinalityKeyValue("status", "CLIENT_ERROR")
        .hasLowCardinalityKeyValue("outcome", "UNKNOWN")
        .hasLowCardinalityKeyValue("uri", "NONE")
        .assertThatError().isInstanceOf(ReadTimeoutException.class);
  }

  @Test
  void theCurrentObservationIsTheParentForSyncAndAsyncCalls() {
    StrandObservation observation = StrandObservation.of(registry);
    Observation parent = Observation.start("caller", registry);
    try (Client client = Client.builder().interceptor(observation.interceptor()).build()) {
      parent.scoped(() -> {
        client.get(server.url("/small"));
        client.async().get(server.url("/status/404")).join();
      });
    } finally {
      parent.stop();
    }
    assertThat(registry).forAllObservationsWithNameEqualTo("http.client.requests",
        o -> o.hasParentObservationEqualTo(parent));
    assertThat(registry).hasNumberOfObservationsWithNameEqualTo("http.client.requests", 2);
  }

  @Test
  void aPropagatingHandlerWritesHeadersTheServerSees() {
    registry.observationConfig().observationHandler(new ObservationHandler<SenderContext<Object>>() {
      @Override
      @SuppressWarnings("unchecked")
      public void onStart(SenderContext<Object> context) {
        context.getSetter().set(context.getCarrier(), "traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return context instanceof SenderContext;
      }
    });
    StrandObservation observation = StrandObservation.of(registry);
    try (Client client = Client.builder().interceptor(observation.interceptor()).build()) {
      String echoed = client.get(server.url("/headers")).text();
      assertTrue(echoed.contains("\"traceparent\": [\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"]"), echoed);
    }
    assertThat(registry).hasSingleObservationThat().hasLowCardinalityKeyValue("status", "200");
  }

  @Test
  void aMeterHandlerMakesTheSameTimerAsStrandMetrics() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    StrandObservation observation = StrandObservation.builder(observations).clientName("testkit").build();
    try (Client client = Client.builder().interceptor(observation.interceptor()).build()) {
      client.get(server.url("/status/404"));
    }
    assertEquals(1, meters.get("http.client.requests")
        .tags("method", "GET", "uri", "NONE", "status", "404", "outcome", "CLIENT_ERROR", "exception", "none",
            "client.name", "testkit")
        .timer().count());
  }

  @Test
  void aConventionChangesTheKeyValues() {
    StrandObservationConvention withTeam = new StrandObservationConvention() {
      @Override
      public String getName() {
        return StrandObservationConvention.defaults().getName();
      }

      @Override
      public KeyValues getLowCardinalityKeyValues(StrandObservationContext context) {
        return StrandObservationConvention.defaults().getLowCardinalityKeyValues(context).and("team", "payments");
      }
    };
    StrandObservation observation = StrandObservation.builder(registry).convention(withTeam).build();
    try (Client client = Client.builder().interceptor(observation.interceptor()).build()) {
      client.get(server.url("/small"));
    }
    assertThat(registry).hasSingleObservationThat()
        .hasLowCardinalityKeyValue("team", "payments")
        .hasLowCardinalityKeyValue("status", "200");
  }
}
