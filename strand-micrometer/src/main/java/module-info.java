/**
 * Strand for Micrometer: the {@code http.client.requests} timer and connection-pool meters
 * ({@link dev.strand.micrometer.StrandMetrics}), and an {@code Observation} per call
 * ({@link dev.strand.micrometer.StrandObservation}). Micrometer itself is the application's.
 */
module dev.strand.micrometer {
  exports dev.strand.micrometer;

  requires transitive dev.strand;
  requires transitive micrometer.commons;
  requires transitive micrometer.core;
  requires transitive micrometer.observation;
}
