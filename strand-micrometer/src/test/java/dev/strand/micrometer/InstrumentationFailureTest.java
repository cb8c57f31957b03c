package dev.strand.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strand.Client;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A registry, a handler or a template that throws costs the measurement, never the call. */
@ExtendWith(NettyLeakDetectorExtension.class)
class InstrumentationFailureTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @Test
  void aThrowingRegistryLeavesTheCallAlone() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    registry.config().meterFilter(new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        throw new IllegalStateException("broken filter");
      }
    });
    StrandMetrics metrics = StrandMetrics.of(registry);
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      assertEquals(200, client.get(server.url("/small")).status());
      assertEquals(404, client.async().get(server.url("/status/404")).join().status());
    }
    assertEquals(2, metrics.instrumentationFailures());
  }

  @Test
  void aThrowingTemplateGivesNone() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StrandMetrics metrics = StrandMetrics.builder(registry).uriTemplate(r -> { throw new IllegalArgumentException("bad"); }).build();
    try (Client client = Client.builder().interceptor(metrics.interceptor()).build()) {
      assertEquals(200, client.get(server.url("/small")).status());
    }
    assertEquals(1, registry.get(StrandMetrics.REQUESTS).tags("uri", "NONE").timer().count());
    assertEquals(1, metrics.instrumentationFailures());
  }

  @Test
  void handlersThrowingOnStartOrStopLeaveTheCallAlone() {
    for (String when : new String[] {"start", "scope", "stop"}) {
      ObservationRegistry registry = ObservationRegistry.create();
      registry.observationConfig().observationHandler(new Throwing(when));
      StrandObservation observation = StrandObservation.of(registry);
      try (Client client = Client.builder().interceptor(observation.interceptor()).build()) {
        assertEquals(200, client.get(server.url("/small")).status(), when);
        assertEquals(503, client.async().get(server.url("/status/503")).join().status(), when);
      }
      assertEquals(2, observation.instrumentationFailures(), when);
    }
  }

  private record Throwing(String when) implements ObservationHandler<Observation.Context> {
    @Override
    public void onStart(Observation.Context context) {
      fail("start");
    }

    @Override
    public void onScopeOpened(Observation.Context context) {
      fail("scope");
    }

    @Override
    public void onStop(Observation.Context context) {
      fail("stop");
    }

    private void fail(String at) {
      if (when.equals(at)) {
        throw new IllegalStateException("handler broken on " + at);
      }
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return true;
    }
  }
}
