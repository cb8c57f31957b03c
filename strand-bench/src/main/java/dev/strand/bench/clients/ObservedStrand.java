package dev.strand.bench.clients;

import dev.strand.Client;
import dev.strand.Request;
import dev.strand.micrometer.StrandMetrics;
import dev.strand.opentelemetry.StrandTelemetry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.CompletionStage;

/**
 * {@code strand-observed}: {@code strand} with both observability adapters, to show what they cost per
 * request. Every span is sampled and batched to an exporter that drops it, so the SDK does its whole job but
 * the network.
 */
record ObservedStrand(Client client, Request request, OpenTelemetrySdk otel) implements BenchClient {
  static final String SETUP = "as strand, plus strand-micrometer (StrandMetrics timer and pool gauges on a "
      + "SimpleMeterRegistry) and strand-opentelemetry (spans always sampled, W3C propagation, batched to a "
      + "dropping exporter; SDK meter provider without readers)";

  static BenchClient create(ClientSpec spec) {
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(BatchSpanProcessor.builder(new Dropping()).build()).build())
        .setMeterProvider(SdkMeterProvider.builder().build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
    StrandMetrics metrics = StrandMetrics.builder(new SimpleMeterRegistry()).clientName("bench").build();
    StrandTelemetry telemetry = StrandTelemetry.create(otel);
    Client client = StrandClients.build(spec, b -> telemetry.instrument(b.interceptor(metrics.interceptor())));
    metrics.bind(client);
    return new ObservedStrand(client, StrandClients.request(spec), otel);
  }

  @Override
  public boolean isBlocking() {
    return false;
  }

  @Override
  public CompletionStage<Integer> getAsync() {
    return client.async().send(request).thenApply(r -> BenchClient.check(r.status(), r.bytes().length));
  }

  @Override
  public void close() {
    client.close();
    otel.close();
  }

  private static final class Dropping implements SpanExporter {
    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
