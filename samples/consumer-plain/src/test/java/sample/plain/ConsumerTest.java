package sample.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strand.Client;
import dev.strand.RequestBody;
import dev.strand.Response;
import dev.strand.micrometer.StrandMetrics;
import dev.strand.opentelemetry.StrandTelemetry;
import dev.strand.testkit.TestServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Strand as a user gets it from the BOM: a request to the testkit's server through every adapter. */
class ConsumerTest {
  @Test
  void requestsThroughThePublishedModules() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StrandMetrics metrics = StrandMetrics.builder(registry).build();
    try (TestServer server = TestServer.start();
        Client client = StrandTelemetry.create(OpenTelemetry.noop())
            .instrument(Client.builder().interceptor(metrics.interceptor()))
            .build()) {
      Response small = client.get(server.url("/small"));
      assertEquals(200, small.status());

      // The JSON codec is strand-jackson's, found through ServiceLoader.
      Map<?, ?> echo = client.post(server.url("/echo"), RequestBody.jsonOf(Map.of("name", "widget"))).json(Map.class);
      assertTrue(String.valueOf(echo.get("body")).contains("widget"), echo.toString());

      // strand-micrometer timed both calls (GET and POST: two timers).
      assertEquals(2, registry.find("http.client.requests").timers().stream().mapToLong(t -> t.count()).sum());
      System.out.println("consumer-plain: two calls to the testkit through micrometer, opentelemetry and jackson, "
          + "Netty " + io.netty.util.Version.identify().get("netty-codec-http").artifactVersion());
    }
    // strand-http3 is found at run time by strand-core, never compiled against.
    assertTrue(ClassLoader.getSystemClassLoader()
        .getResource("META-INF/services/dev.strand.internal.netty.Http3Provider") != null);
    // strand-flink's settings load without Flink (the cluster brings it); strand-spring is on the class path
    // (its classes need the application's Spring: samples/consumer-spring-boot runs them).
    Class.forName("dev.strand.flink.HttpSettings");
    assertTrue(ClassLoader.getSystemClassLoader()
        .getResource("dev/strand/spring/StrandClientHttpRequestFactory.class") != null);
  }
}
