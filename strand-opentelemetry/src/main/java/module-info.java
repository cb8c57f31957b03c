/**
 * Strand for OpenTelemetry: client spans per the HTTP semantic conventions, trace context propagation and
 * the {@code http.client.request.duration} histogram ({@link dev.strand.opentelemetry.StrandTelemetry}).
 * The OpenTelemetry API, SDK or agent is the application's.
 */
module dev.strand.opentelemetry {
  exports dev.strand.opentelemetry;

  requires transitive dev.strand;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;
}
