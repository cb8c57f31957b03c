package dev.strand.opentelemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.RetryPolicy;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A request's span is a child of the context current where its call started, whatever thread sends it:
 * blocking and async calls, virtual threads, and the retries and redirect hops sent from I/O threads.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class ParentContextTest {
  @RegisterExtension
  static final TestServerExtension server = TestServerExtension.start();

  @RegisterExtension
  static final OpenTelemetryExtension otel = OpenTelemetryExtension.create();

  private Client client;
  private Tracer tracer;

  @BeforeEach
  void setUp() {
    RetryPolicy retry = RetryPolicy.defaults().toBuilder().maxAttempts(2).fixedDelay(Duration.ofMillis(5)).build();
    client = StrandTelemetry.create(otel.getOpenTelemetry()).instrument(Client.builder()).retry(retry).followRedirects(true).build();
    tracer = otel.getOpenTelemetry().getTracer("test");
  }

  @AfterEach
  void tearDown() {
    client.close();
  }

  /** Runs {@code call} with a new span current, and asserts every request span is its child. */
  private void assertChildren(int expectedRequests, Callable<?> call) throws Exception {
    Span parent = tracer.spanBuilder("caller").startSpan();
    try (Scope ignored = parent.makeCurrent()) {
      call.call();
    } finally {
      parent.end();
    }
    List<SpanData> requests = otel.getSpans().stream().filter(s -> !s.getName().equals("caller")).toList();
    assertEquals(expectedRequests, requests.size(), requests::toString);
    for (SpanData request : requests) {
      assertEquals(parent.getSpanContext().getSpanId(), request.getParentSpanId(), request::toString);
      assertEquals(parent.getSpanContext().getTraceId(), request.getTraceId());
      assertFalse(request.getParentSpanContext().isRemote(), "a local parent, not one read back from a header");
    }
  }

  @Test
  void aBlockingCall() throws Exception {
    assertChildren(1, () -> client.get(server.url("/small")));
  }

  @Test
  void anAsyncCallCompletedElsewhere() throws Exception {
    assertChildren(2, () -> CompletableFuture.allOf(
        client.async().get(server.url("/small")),
        client.async().send(Request.get(server.url("/delay/20")))).join());
  }

  @Test
  void retriesAndRedirectHopsSentFromIoThreads() throws Exception {
    assertChildren(4, () -> {
      client.get(server.url("/status/503")); // two attempts, the second after a timer
      return client.async().get(server.url("/redirect/1")).join(); // the hop follows on the event loop
    });
  }

  @Test
  void callsOnVirtualThreads() throws Exception {
    try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
      Span parent = tracer.spanBuilder("caller").startSpan();
      Context context = Context.current().with(parent);
      // Each virtual thread starts with an empty context: the task makes the parent current there.
      Future<?> sync = virtual.submit(context.wrap(() -> client.get(server.url("/small"))));
      Future<?> async = virtual.submit(context.wrap(() -> client.async().get(server.url("/status/404")).join()));
      sync.get();
      async.get();
      parent.end();
      List<SpanData> requests = otel.getSpans().stream().filter(s -> !s.getName().equals("caller")).toList();
      assertEquals(2, requests.size());
      requests.forEach(r -> assertEquals(parent.getSpanContext().getSpanId(), r.getParentSpanId()));
    }
  }

  @Test
  void withoutACurrentSpanEachCallIsItsOwnTrace() {
    client.get(server.url("/small"));
    client.async().get(server.url("/small")).join();
    List<SpanData> spans = otel.getSpans();
    assertEquals(2, spans.size());
    assertNotEquals(spans.get(0).getTraceId(), spans.get(1).getTraceId());
    spans.forEach(s -> assertFalse(s.getParentSpanContext().isValid()));
  }
}
